import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendWebResponse, webRequest } from './web-request.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let server: http.Server | null = null;
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

/** A server on a real socket whose handler sees each request as a Fetch API Request. */
async function serve(handle: (request: Request) => Promise<Response>): Promise<number> {
  const listening = http.createServer(async (req, res) => {
    await sendWebResponse(res, await handle(webRequest(req)));
  });
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return (listening.address() as AddressInfo).port;
}

function send(port: number, options: http.RequestOptions, body?: Buffer) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>(
    (resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, ...options }, (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(parts).toString(),
          }),
        );
      });
      request.on('error', reject);
      request.end(body);
    },
  );
}

describe('webRequest and sendWebResponse', () => {
  it('carry the method, path, headers and a large body byte for byte, and the answer back', async () => {
    const body = randomBytes(5 * 1024 * 1024 + 17);
    const port = await serve(async (request) => {
      const received = new Uint8Array(await request.arrayBuffer());
      return new Response(
        `${request.method} ${new URL(request.url).pathname} ${sha256(received)}`,
        {
          status: 201,
          headers: {
            'upload-offset': String(received.length),
            echo: String(request.headers.get('x-a')),
          },
        },
      );
    });
    const answer = await send(
      port,
      { method: 'PATCH', path: '/api/uploads/abc?x=1', headers: { 'x-a': ['1', '2'] } },
      body,
    );
    expect(answer.status).toBe(201);
    expect(answer.text).toBe(`PATCH /api/uploads/abc ${sha256(body)}`);
    expect(answer.headers['upload-offset']).toBe(String(body.length));
    expect(answer.headers.echo).toBe('1, 2');
  });

  it('gives a GET no body', async () => {
    const port = await serve(async (request) => new Response(String(request.body === null)));
    expect((await send(port, { method: 'GET', path: '/' })).text).toBe('true');
  });

  it('makes a body cut before its end an error, not a shorter body', async () => {
    let resolve: (outcome: string) => void = () => {};
    const outcome = new Promise<string>((done) => {
      resolve = done;
    });
    const port = await serve(async (request) => {
      // As a handler does: the answer waits for the body.
      resolve(
        await request.arrayBuffer().then(
          (bytes) => `complete ${bytes.byteLength}`,
          (error: Error) => `error: ${error.message}`,
        ),
      );
      return new Response('');
    });
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'PATCH',
      path: '/cut',
      headers: { 'content-length': 1_000_000 },
    });
    request.on('error', () => {});
    request.write(randomBytes(100_000));
    await new Promise((wait) => setTimeout(wait, 100));
    request.destroy();
    expect(await outcome).toMatch(/^error: /);
  });
});
