// A Node request as a Fetch API Request, and a Response sent back on Node's ServerResponse, for
// handlers written against the Fetch API (@tus/server's handleWeb). The body stream hands the
// socket's chunks over as they are, with a 1 MiB window: Readable.toWeb (which @tus/server's own
// Node entry uses) copies every chunk and pauses the socket every 16 KiB, which cost uploads
// about 15% of their throughput (docs/performance-notes.md).
import type { IncomingMessage, ServerResponse } from 'node:http';

const BODY_WINDOW_BYTES = 1024 * 1024;

function bodyStream(raw: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        raw.on('data', (chunk: Buffer) => {
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) raw.pause();
        });
        raw.once('end', () => controller.close());
        raw.once('error', (error) => controller.error(error));
        // A connection closed before the body's end is an error, not a short body.
        raw.once('close', () => {
          if (!raw.complete) controller.error(new Error('The request was aborted'));
        });
        raw.pause();
      },
      pull() {
        raw.resume();
      },
      cancel() {
        raw.destroy();
      },
    },
    { highWaterMark: BODY_WINDOW_BYTES, size: (chunk) => chunk.byteLength },
  );
}

export function webRequest(raw: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = raw.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // The origin is not the client's Host header: nothing here builds absolute URLs from it.
  return new Request(`http://localhost${raw.url ?? '/'}`, {
    method,
    headers,
    body: hasBody ? bodyStream(raw) : null,
    // Node's fetch needs this for a streamed body; the DOM typings do not know it yet.
    duplex: 'half',
  } as RequestInit);
}

/** Sends a Response whose body is small (a status text or an error message). */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, headers);
  res.end(body);
}
