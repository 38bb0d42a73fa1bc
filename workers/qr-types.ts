// Shapes shared by the QR-decoding worker (workers/qr.worker.ts) and its owner
// (src/lib/capture/qr-client.ts).

/** RGBA pixels of one frame, row by row; `pixels` is transferred, not copied. */
export interface QrPixels {
  width: number;
  height: number;
  pixels: ArrayBuffer;
}

/** What one frame held: the decoded texts (possibly none) and which decoder read them. */
export interface QrDecoded {
  codes: string[];
  decoder: QrDecoder;
}

/** The browser's own BarcodeDetector where it has one (Android Chrome, Safari), else zxing-wasm. */
export type QrDecoder = 'native' | 'zxing';

export interface QrWorkerApi {
  /** Decodes a camera frame (an ImageBitmap, transferred; the worker closes it). */
  decodeBitmap(frame: ImageBitmap): Promise<QrDecoded>;
  /** Decodes raw RGBA pixels (generated frames, the bench). */
  decodePixels(frame: QrPixels): Promise<QrDecoded>;
  /** Loads the decoder now, so the first camera frame is not kept waiting. */
  warmUp(): Promise<QrDecoder>;
}
