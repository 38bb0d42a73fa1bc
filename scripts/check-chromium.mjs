// Runs before `npm test`: browser-mode tests need a system Chromium; stop at once with the fix if it is missing.
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(path)) {
  console.error(
    `Chromium not found at ${path}. Install it with: apt-get install -y chromium\n` +
      '(or point CHROMIUM_PATH at an existing Chromium binary).',
  );
  process.exit(1);
}
