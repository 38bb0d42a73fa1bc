import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type UploadProgress } from '../../../lib/api-client.ts';
import { accessTokenKey } from '../../../stores/session.ts';
import { failureText } from '../wizard/failure-alert.ts';
import { uploadFloorplan } from './upload-floorplan.ts';

/** Stands in for XMLHttpRequest: records the request, and the test answers it. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  statusText = '';
  responseText = '';
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;

  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.(
      new ProgressEvent('progress', { lengthComputable: true, loaded, total }),
    );
  }
  answer(status: number, statusText: string, body: unknown) {
    this.status = status;
    this.statusText = statusText;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

function sentRequest(): FakeXhr {
  const xhr = FakeXhr.last;
  if (!xhr) throw new Error('no request was sent');
  return xhr;
}

const image = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'plan.png', {
  type: 'image/png',
});
const lineId = 'c00000000000000000000001';

afterEach(() => {
  localStorage.removeItem(accessTokenKey);
  FakeXhr.last = null;
  vi.unstubAllGlobals();
});

describe('uploadFloorplan', () => {
  it('posts the spec §7 form with the bearer token and reports progress', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    localStorage.setItem(accessTokenKey, 'tok');
    const progress: UploadProgress[] = [];
    const uploading = uploadFloorplan(image, lineId, (step) => progress.push(step));
    const xhr = sentRequest();
    expect([xhr.method, xhr.url]).toEqual(['POST', '/api/floorplans']);
    expect(xhr.headers.Authorization).toBe('Bearer tok');
    const form = xhr.body;
    if (!form) throw new Error('no form was sent');
    expect(form.get('name')).toBe('Floorplan');
    expect(form.get('lineID')).toBe(lineId);
    expect((form.get('image') as File).name).toBe('plan.png');
    xhr.progress(2_000_000, 8_000_000);
    xhr.progress(8_000_000, 8_000_000);
    const created = { _id: 'f00000000000000000000001', lineID: lineId, name: 'Floorplan' };
    xhr.answer(201, 'Created', created);
    await expect(uploading).resolves.toEqual(created);
    expect(progress).toEqual([
      { loaded: 2_000_000, total: 8_000_000 },
      { loaded: 8_000_000, total: 8_000_000 },
    ]);
  });

  it("fails with the status text and the server's reason: 'Upload failed: …'", async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const uploading = uploadFloorplan(image, lineId, () => {});
    sentRequest().answer(400, 'Bad Request', { message: 'image must be a PNG, JPEG or GIF file' });
    const error = await uploading.catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ApiError);
    expect(failureText('Upload failed', error)).toBe(
      'Upload failed: Bad Request (image must be a PNG, JPEG or GIF file)',
    );
  });

  it("shows the server's message for an image over the size limit (413), or says what 413 means", async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const limited = uploadFloorplan(image, lineId, () => {});
    sentRequest().answer(413, 'Payload Too Large', {
      message: 'The floor plan image is larger than the limit of 20 MiB',
    });
    expect(failureText('Upload failed', await limited.catch((failure: unknown) => failure))).toBe(
      'Upload failed: Payload Too Large (The floor plan image is larger than the limit of 20 MiB)',
    );
    // A proxy in front of the server answers 413 with a page of its own, not the server's JSON.
    const proxied = uploadFloorplan(image, lineId, () => {});
    const xhr = sentRequest();
    xhr.status = 413;
    xhr.statusText = 'Request Entity Too Large';
    xhr.responseText = '<html><body>413 Request Entity Too Large</body></html>';
    xhr.onload?.();
    expect(failureText('Upload failed', await proxied.catch((failure: unknown) => failure))).toBe(
      'Upload failed: Request Entity Too Large (the image is larger than the server accepts, 20 MiB by default)',
    );
  });

  it('signs out and goes to /login on a 401, like every other call', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    localStorage.setItem(accessTokenKey, 'expired');
    const before = window.location.pathname;
    const uploading = uploadFloorplan(image, lineId, () => {});
    sentRequest().answer(401, 'Unauthorized', { message: 'Token expired' });
    const error = await uploading.catch((failure: unknown) => failure);
    expect(window.location.pathname).toBe('/login');
    window.history.replaceState(null, '', before);
    expect(localStorage.getItem(accessTokenKey)).toBeNull();
    // Already at /login: no alert on top.
    expect(failureText('Upload failed', error)).toBeNull();
  });

  it('names a network failure', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const uploading = uploadFloorplan(image, lineId, () => {});
    sentRequest().onerror?.();
    const error = await uploading.catch((failure: unknown) => failure);
    expect(error).toMatchObject({ status: 0 });
    expect(failureText('Upload failed', error)).toBe(
      'Upload failed: the server could not be reached',
    );
  });
});
