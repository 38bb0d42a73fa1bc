// The rule for a device serial, the bare text of a device's QR label, shared at runtime by the
// server (server/services/device-qr.ts) and the web app's Register Device form (a pure module
// without imports, so the web app can bundle it).

/** A serial's greatest length, in characters. */
export const MAX_DEVICE_SERIAL_LENGTH = 100;

/** The characters a serial is made of: letters, digits, `.`, `_`, `:` and `-`. */
export const DEVICE_SERIAL_CHARACTERS = /^[A-Za-z0-9._:-]+$/;

/** Whether `text` is a device serial: 1 to 100 of those characters. */
export const isDeviceSerial = (text: string) =>
  text.length <= MAX_DEVICE_SERIAL_LENGTH && DEVICE_SERIAL_CHARACTERS.test(text);
