// A device code checked before it is sent to POST /api/devices, by the server's rule for a bare
// serial (server/schemas/device-serial.ts), and the server's 400 for one in the operator's words.
import {
  DEVICE_SERIAL_CHARACTERS,
  MAX_DEVICE_SERIAL_LENGTH,
} from '../../../server/schemas/device-serial.ts';
import { operatorStrings as s } from './strings.ts';

/**
 * How `code` breaks the rule for a device serial, to follow 'a device code', or null. A label's
 * JSON text (`{"serial": …}`) is left to the server, which reads its fields.
 */
export function serialProblem(code: string): string | null {
  const text = code.trim();
  if (text.startsWith('{')) return null;
  if (!DEVICE_SERIAL_CHARACTERS.test(text)) return s.serialCharacters;
  if (text.length > MAX_DEVICE_SERIAL_LENGTH) return s.serialTooLong(text.length);
  return null;
}

/**
 * A registration's 400 in words: 'body.qrCode.type must be one of …' names the label's field, any
 * other 'body.qrCode …' says the code is no device label; other messages are words already.
 */
export function registerRefusal(message: string): string {
  const field = /^body\.qrCode\.(\w+) (.+)$/.exec(message);
  if (field?.[1] && field[2]) return s.labelFieldProblem(field[1], field[2]);
  if (message.startsWith('body.qrCode ')) return s.notDeviceLabel(s.serialCharacters);
  return message;
}
