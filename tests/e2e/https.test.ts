// Phones open the camera only on a secure page. The server started with TLS_CERT/TLS_KEY (a
// certificate made as `npm run cert` makes it) answers HTTPS, and the app's page has
// navigator.mediaDevices under a LAN name; the same name over plain HTTP has not (control).
// The name resolves to 127.0.0.1 inside Chromium only: no traffic leaves the machine. Over plain
// HTTP under that name (a pass-through to the same server, as a LAN trial without TLS would be)
// the inspection screen gets to its camera step and says to use https.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSelfSignedCertificate } from '../../server/tls/self-signed.ts';
import { chromiumArgs, chromiumPath } from '../support/chromium.ts';
import { Api } from './support/api.ts';
import { newContext } from './support/browser.ts';
import { demoAccount, demoPassword } from './support/demo.ts';
import { startServer, type TestServer } from './support/server.ts';

const NAME = 'line-clearance.test';
const certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-e2e-tls-'));
let server: TestServer;
let plain: http.Server;
let browser: Browser;

beforeAll(async () => {
  const files = await writeSelfSignedCertificate(certDir, [NAME, '127.0.0.1']);
  server = await startServer({ TLS_CERT: files.cert, TLS_KEY: files.key });
  // Plain HTTP in front of the same server: the app without a secure context. A second server
  // started without TLS cost this file a third of its time.
  const tlsPort = Number(new URL(server.baseUrl).port);
  plain = http.createServer((request, response) => {
    const upstream = https.request(
      {
        host: '127.0.0.1',
        port: tlsPort,
        path: request.url,
        method: request.method,
        headers: request.headers,
        rejectUnauthorized: false,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs, `--host-resolver-rules=MAP ${NAME} 127.0.0.1`],
    headless: true,
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => plain?.close(resolve));
  fs.rmSync(certDir, { recursive: true, force: true });
});

/** Whether the page at `url` is a secure context and offers the camera API. */
async function cameraApiAt(url: string) {
  // The certificate is self-signed: this browser accepts it as a phone would after the warning.
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  try {
    const page = await context.newPage();
    const response = await page.goto(url);
    return {
      status: response?.status(),
      secure: await page.evaluate(() => window.isSecureContext),
      mediaDevices: await page.evaluate(() => typeof navigator.mediaDevices?.getUserMedia),
      hsts: response?.headers()['strict-transport-security'] ?? null,
    };
  } finally {
    await context.close();
  }
}

describe('HTTPS with a generated certificate', () => {
  it('serves the app over TLS, where navigator.mediaDevices exists', async () => {
    expect(server.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const port = new URL(server.baseUrl).port;
    const secure = await cameraApiAt(`https://${NAME}:${port}/login`);
    expect(secure).toEqual({
      status: 200,
      secure: true,
      mediaDevices: 'function',
      hsts: expect.stringMatching(/^max-age=\d+/),
    });
  });

  it('over plain HTTP under a LAN name, the inspection screen says the camera needs https', async () => {
    // The first thing a plant tries: the server's LAN address on a phone, without TLS.
    const { port } = plain.address() as AddressInfo;
    const context = await newContext(browser, {
      baseUrl: `http://${NAME}:${port}`,
      token: (
        await Api.login(`http://127.0.0.1:${port}`, demoAccount('operator').email, demoPassword)
      ).token,
    });
    try {
      const page = await context.newPage();
      await page.goto('/operator');
      expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
      await page
        .getByRole('link', { name: /^Start Inspection: / })
        .first()
        .click();
      await page.getByLabel('Product leaving the line').fill('Aspirin 500 mg');
      await page.getByLabel('Batch leaving the line').fill('B-1001');
      await page.getByLabel('Product coming next').fill('Ibuprofen 200 mg');
      await page.getByLabel('Batch coming next').fill('B-2002');
      await page.getByRole('button', { name: 'Start Recording' }).click();
      await page
        .getByText(
          /^The camera needs a secure connection, and this page was opened over plain http/,
        )
        .waitFor({ timeout: 30_000 });
    } finally {
      await context.close();
    }
  });

  it('the same name over plain HTTP has no camera API (control)', async () => {
    const { port } = plain.address() as AddressInfo;
    const insecure = await cameraApiAt(`http://${NAME}:${port}/`);
    expect(insecure).toMatchObject({ status: 200, secure: false, mediaDevices: 'undefined' });
  });
});
