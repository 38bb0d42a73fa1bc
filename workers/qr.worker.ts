// Decodes QR codes off the main thread: the browser's BarcodeDetector where it exists, else
// zxing-wasm, whose .wasm is served by the app (never fetched from a CDN). Only exposes the API;
// src/lib/capture/qr-client.ts owns the worker.
import * as Comlink from 'comlink';
import { prepareZXingModule, type ReaderOptions, readBarcodes } from 'zxing-wasm/reader';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import type { QrDecoded, QrDecoder, QrPixels, QrWorkerApi } from './qr-types.ts';

prepareZXingModule({
  overrides: {
    locateFile: (path: string, prefix: string) =>
      path.endsWith('.wasm') ? wasmUrl : prefix + path,
  },
});

interface NativeDetector {
  detect(source: ImageBitmap | ImageData): Promise<{ rawValue: string }[]>;
}
interface NativeDetectorClass {
  new (options: { formats: string[] }): NativeDetector;
  getSupportedFormats(): Promise<string[]>;
}

/** The native detector when it reads QR codes; resolved once. */
const native: Promise<NativeDetector | null> = (async () => {
  const Detector = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  try {
    const formats = await Detector.getSupportedFormats();
    return formats.includes('qr_code') ? new Detector({ formats: ['qr_code'] }) : null;
  } catch {
    return null;
  }
})();

// Camera frames: small, tilted codes at a distance. `tryHarder` finds them; one frame at a time
// keeps up with the camera (docs/capture.md, bench/capture.bench.ts).
const READER: ReaderOptions = { formats: ['QRCode'], tryHarder: true, maxNumberOfSymbols: 8 };

async function decode(image: ImageData, bitmap?: ImageBitmap): Promise<QrDecoded> {
  const detector = await native;
  if (detector) {
    const found = await detector.detect(bitmap ?? image);
    return { codes: found.map((code) => code.rawValue), decoder: 'native' };
  }
  const results = await readBarcodes(image, READER);
  return {
    codes: results.filter((result) => result.isValid).map((result) => result.text),
    decoder: 'zxing',
  };
}

let canvas: OffscreenCanvas | null = null;

function pixelsOf(bitmap: ImageBitmap): ImageData {
  if (!canvas || canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
    canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  }
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('no 2D context in the QR worker');
  context.drawImage(bitmap, 0, 0);
  return context.getImageData(0, 0, bitmap.width, bitmap.height);
}

const api: QrWorkerApi = {
  async decodeBitmap(frame) {
    try {
      return await decode(pixelsOf(frame), frame);
    } finally {
      frame.close();
    }
  },
  decodePixels: ({ width, height, pixels }: QrPixels) =>
    decode(new ImageData(new Uint8ClampedArray(pixels), width, height)),
  async warmUp(): Promise<QrDecoder> {
    if (await native) return 'native';
    await readBarcodes(new ImageData(8, 8), READER);
    return 'zxing';
  },
};

export type { QrWorkerApi };

Comlink.expose(api);
