import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { parseDeviceQr } from '../../../../server/services/device-qr.ts';
import type { Tag } from '../../../types/api.ts';
import {
  codeProblems,
  defaultCodePattern,
  linePart,
  proposeTagCode,
  randomPart,
  unsavedCodes,
  withMissingCodes,
} from './tag-codes.ts';

/** A random part that answers `parts` in turn. */
const drawing = (...parts: string[]) => {
  let next = 0;
  return () => parts[next++ % parts.length] as string;
};

const tag = (name: string, qrCode?: string): Tag =>
  qrCode === undefined ? { x: 1, y: 2, name } : { x: 1, y: 2, name, qrCode };

describe('default tag codes', () => {
  it('start with the line’s name in capitals, digits and dashes', () => {
    expect(linePart('Blister Line 1')).toBe('BLISTER-LINE-1');
    expect(linePart('  Ligne d’emballage n°3 ')).toBe('LIGNE-D-EMBALLAG');
    expect(linePart('Füllstraße – Süd')).toBe('FULLSTRASSE-SUD');
    expect(linePart('Line A / packing hall')).toBe('LINE-A-PACKING-H');
    expect(linePart('Line 12 -- B')).toBe('LINE-12-B');
    expect(linePart('包装线')).toBe('LINE');
  });

  it('are the line part, the tag number and a random part that no tag of the line has', () => {
    const code = proposeTagCode('Blister Line 1', 4, []);
    expect(code).toMatch(/^BLISTER-LINE-1-T4-[2-9A-HJKMNP-TV-Z]{5}$/);
    expect(code).toMatch(defaultCodePattern);
    expect(
      proposeTagCode('Blister Line 1', 4, [' BLISTER-LINE-1-T4-AAAAA'], drawing('AAAAA', 'BBBBB')),
    ).toBe('BLISTER-LINE-1-T4-BBBBB');
    // Two lines of the same name (or the same line set up twice) do not share a code.
    expect(proposeTagCode('Blister Line 1', 4, [])).not.toBe(code);
    for (let i = 0; i < 200; i++) expect(randomPart()).toMatch(/^[2-9A-HJKMNP-TV-Z]{5}$/);
  });

  it('are read by the server as a bare device serial, so it refuses them as a device label', () => {
    // POST /api/devices refuses a serial that is a line checkpoint's code (server/routes/devices.ts);
    // a code read as JSON or refused as a serial would reach that check as something else.
    const code = proposeTagCode('Ligne d’emballage n°3', 12, []);
    expect(parseDeviceQr(code)).toEqual({ serial: code, name: null, type: null });
    expect(code.trim()).toBe(code);
  });

  it('fit the QR alphanumeric mode: a small symbol, large modules on the label', () => {
    const symbol = QRCode.create(proposeTagCode('Blister Line 1', 12, []), {
      errorCorrectionLevel: 'Q',
    });
    expect(symbol.segments.map((segment) => segment.mode.id)).not.toContain('Byte');
    expect(symbol.version).toBeLessThanOrEqual(3);
  });
});

describe('tags without a code', () => {
  it('get a default code each, numbered from their name or place; other tags stay as they are', () => {
    const tags = [
      // Taken: the first draw for Tag 4 is drawn again.
      tag('Tag 1', 'BLISTER-LINE-1-T4-CCCCC'),
      tag('Tag 4'),
      tag('Gate', '  '),
      tag('Hopper', 'H-1'),
    ];
    const filled = withMissingCodes(tags, 'Blister Line 1', drawing('CCCCC', 'DDDDD', 'EEEEE'));
    expect(filled.given).toEqual(['Tag 4', 'Gate']);
    expect(filled.tags).toEqual([
      tags[0],
      { ...tags[1], qrCode: 'BLISTER-LINE-1-T4-DDDDD' },
      { ...tags[2], qrCode: 'BLISTER-LINE-1-T3-EEEEE' },
      tags[3],
    ]);
    expect(withMissingCodes(filled.tags, 'Blister Line 1').given).toEqual([]);
  });

  it('are named for the review, and so are tags sharing a code', () => {
    const tags = [
      tag('Tag 1', 'A-1'),
      tag('Tag 2'),
      tag('Tag 3', ' A-1 '),
      tag('Tag 4', ''),
      tag('Tag 5', 'B-2'),
    ];
    expect(codeProblems(tags)).toEqual({
      missing: ['Tag 2', 'Tag 4'],
      shared: [{ code: 'A-1', names: ['Tag 1', 'Tag 3'] }],
    });
    expect(codeProblems([tag('Tag 1', 'A-1')])).toEqual({ missing: [], shared: [] });
  });

  it('tells codes the saved configuration does not have yet', () => {
    const saved = [tag('Tag 1', 'A-1'), tag('Tag 2')];
    expect(unsavedCodes([tag('Tag 1', 'A-1 '), tag('Tag 2', 'B-2')], saved)).toEqual(['B-2']);
    expect(unsavedCodes([tag('Tag 1', 'A-1')], null)).toEqual(['A-1']);
  });
});
