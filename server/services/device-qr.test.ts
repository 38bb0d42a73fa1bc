// Reading a device QR label: a bare serial of the shared rule (server/schemas/device-serial.ts).
import { describe, expect, it } from 'vitest';
import { parseDeviceQr } from './device-qr.ts';

describe('parseDeviceQr', () => {
  it('reads a bare serial of up to 100 letters, digits, . _ : -', () => {
    const serial = `CAM-0042.a_b:${'X'.repeat(87)}`;
    expect(serial).toHaveLength(100);
    expect(parseDeviceQr(` ${serial} `)).toEqual({ serial, name: null, type: null });
  });

  it('names the length in its refusal of a longer serial, as of one with other characters', () => {
    const rule =
      /^body\.qrCode must be a device serial \(1-100 letters, digits, \. _ : -\) or JSON$/;
    expect(() => parseDeviceQr('X'.repeat(101))).toThrow(rule);
    expect(() => parseDeviceQr('📱 phone')).toThrow(rule);
  });
});
