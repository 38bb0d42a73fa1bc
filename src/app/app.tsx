import { Suspense, useEffect } from 'react';
import { Toaster } from '../components/toaster.tsx';
import { IdleSignOut } from '../features/auth/idle-sign-out.tsx';
import { OwnPasswordGate } from '../features/auth/own-password-gate.tsx';
import { restoreSession } from '../features/auth/session-actions.ts';
import { PageErrorBoundary } from './page-error-boundary.tsx';
import { AppRoutes } from './router.tsx';
import { Toolbar } from './toolbar.tsx';
import { UploadQueueRunner } from './upload-queue-runner.tsx';

/**
 * The app shell: toolbar, the routed page (each page its own chunk, and what went wrong instead of a
 * blank page; first a password of one's own when someone else chose it), the toasts, and the sign-out after inactivity.
 */
export function App() {
  // The toolbar shows the signed-in state on every page, so a stored session is restored at once.
  useEffect(() => {
    void restoreSession();
  }, []);

  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Toolbar />
      {/* Focusable, so 'Skip to content' moves the focus and the next Tab starts in the page. */}
      <main id="main" tabIndex={-1}>
        <OwnPasswordGate>
          <PageErrorBoundary>
            <Suspense
              fallback={
                <p className="page muted" role="status">
                  Loading…
                </p>
              }
            >
              <AppRoutes />
            </Suspense>
          </PageErrorBoundary>
        </OwnPasswordGate>
      </main>
      <Toaster />
      <UploadQueueRunner />
      <IdleSignOut />
    </>
  );
}
