// Reads a device QR label (docs/server.md): a bare serial, or JSON {serial, name?, type?}.
import { badRequest } from '../http/errors.ts';
import { isDeviceSerial, MAX_DEVICE_SERIAL_LENGTH } from '../schemas/device-serial.ts';
import type { DeviceType } from '../schemas/devices.ts';

export interface DeviceLabel {
  serial: string;
  name: string | null;
  type: DeviceType | null;
}

const TYPES: readonly DeviceType[] = ['camera', 'sensor', 'monitor', 'controller'];

export function parseDeviceQr(text: string): DeviceLabel {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) {
    if (!isDeviceSerial(trimmed)) {
      throw badRequest(
        `body.qrCode must be a device serial (1-${MAX_DEVICE_SERIAL_LENGTH} letters, digits, . _ : -) or JSON`,
      );
    }
    return { serial: trimmed, name: null, type: null };
  }
  let data: unknown;
  try {
    data = JSON.parse(trimmed);
  } catch {
    throw badRequest('body.qrCode is not valid JSON');
  }
  const label = data as Record<string, unknown>;
  if (typeof label.serial !== 'string' || !isDeviceSerial(label.serial)) {
    throw badRequest(
      `body.qrCode.serial must be 1-${MAX_DEVICE_SERIAL_LENGTH} letters, digits, . _ : -`,
    );
  }
  const name = label.name ?? null;
  if (name !== null && (typeof name !== 'string' || !name.trim() || name.length > 200)) {
    throw badRequest('body.qrCode.name must be a non-empty text of at most 200 characters');
  }
  const type = label.type ?? null;
  if (type !== null && !TYPES.includes(type as DeviceType)) {
    throw badRequest(`body.qrCode.type must be one of ${TYPES.join(', ')}`);
  }
  return { serial: label.serial, name: name?.trim() ?? null, type: type as DeviceType | null };
}
