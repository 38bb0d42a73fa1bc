// The one module that talks to the QR worker (workers/qr.worker.ts).
import * as Comlink from 'comlink';
import type { QrDecoded, QrPixels, QrWorkerApi } from '../../../workers/qr-types.ts';
import { lazyWorker } from '../lazy-worker.ts';

const qr = lazyWorker<QrWorkerApi>(
  'QR',
  () =>
    new Worker(new URL('../../../workers/qr.worker.ts', import.meta.url), {
      type: 'module',
      name: 'qr',
    }),
);

/** Decodes a frame grabbed from the camera; the bitmap moves to the worker (and is closed there). */
export const decodeQrBitmap = (frame: ImageBitmap): Promise<QrDecoded> =>
  qr.call((remote) => remote.decodeBitmap(Comlink.transfer(frame, [frame])));

/** Decodes RGBA pixels; the buffer moves to the worker. */
export const decodeQrPixels = (frame: QrPixels): Promise<QrDecoded> =>
  qr.call((remote) => remote.decodePixels(Comlink.transfer(frame, [frame.pixels])));

export const warmUpQr = () => qr.call((remote) => remote.warmUp());
export const stopQrWorker = () => qr.terminate();
