import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { applyTheme } from './stores/theme.ts';
import './styles/app.css';

// Before the first paint, so a remembered dark choice never flashes light.
applyTheme();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
