import { existsSync } from 'node:fs';

/** Debian's Chromium (Playwright cannot download its own browser here); CHROMIUM_PATH overrides. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumInstallHint = 'apt-get install -y chromium';

/** Flags that keep headless Chromium quiet on a machine with no outside network. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function chromiumFound(): boolean {
  return existsSync(chromiumPath);
}
