// Keyframe parsing through the Node engine (build/path-core.wasm): golden cases, chunk boundaries,
// agreement with parseFloat, and the .png name listing. Rules: docs/path-core.md.

import { beforeAll, describe, expect, test } from 'vitest';
import { createPrng } from '../bench/lib/prng.ts';
import { createNodePathEngine, type PathEngine } from './path-engine.node.ts';

const encode = (text: string) => new TextEncoder().encode(text);

let engine: PathEngine;
beforeAll(async () => {
  engine = await createNodePathEngine();
});

/** Rows of [index, x, y, t] from the parsed columns. */
function rows(text: string, using: PathEngine = engine): number[][] {
  const { columns } = using.parseKeyframes(encode(text));
  return Array.from(columns.t, (_, i) => [
    columns.index[i]!,
    columns.x[i]!,
    columns.y[i]!,
    columns.t[i]!,
  ]);
}

const bitsView = new DataView(new ArrayBuffer(8));
function bits(value: number): bigint {
  bitsView.setFloat64(0, value);
  return bitsView.getBigInt64(0);
}
/** Distance in units in the last place between two doubles of the same sign. */
function ulps(a: number, b: number): number {
  const d = bits(a) - bits(b);
  return Number(d < 0n ? -d : d);
}

describe('keyframe lines', () => {
  test('index, x, y, t per line, in file order', () => {
    expect(rows('1 2.5 -3.25 0.5\n2 3 4 1\n')).toEqual([
      [1, 2.5, -3.25, 0.5],
      [2, 3, 4, 1],
    ]);
  });

  test('CRLF line ends, tabs and runs of blanks', () => {
    const text = ' \t1\t2  3 \t 4 \r\n5 6 7 8\r\n\t9 10\t11\t12\r\n';
    expect(rows(text)).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10, 11, 12],
    ]);
  });

  test('blank lines are skipped, not counted as bad, and still count for line numbers', () => {
    const { report } = engine.parseKeyframes(encode('\n\n1 2 3 4\n   \n\t\r\n2 3 4 5\n\nbad\n'));
    expect(report).toEqual({ lines: 3, points: 2, badLines: 1, firstBadLine: 8, empty: false });
  });

  test('fields after the fourth are ignored (the demo puts a keyframe name there)', () => {
    expect(rows('1 2 3 4 12.500.png extra words\n7 8 9 10 #\n')).toEqual([
      [1, 2, 3, 4],
      [7, 8, 9, 10],
    ]);
  });

  test('signs, decimals and exponents', () => {
    const [first, second, third] = rows('+1 1e-3 -2.5E+2 .5\n-0 5. 1E2 +.25\n3 -0.0 1e-400 2e5\n');
    expect(first).toEqual([1, 0.001, -250, 0.5]);
    expect(second).toEqual([-0, 5, 100, 0.25]);
    expect(Object.is(second![0], -0)).toBe(true);
    expect(third).toEqual([3, -0, 0, 200000]);
  });

  test('malformed lines are skipped and counted; the first one is reported', () => {
    const bad = [
      '1 2 3', // too few fields
      'x 1 2 3', // non-numeric
      '1 2 3 NaN',
      '1 2 3 Infinity',
      '1 2 3 -Infinity',
      '1 2 3 1e999', // overflows to Infinity
      '1 -1e309 3 4',
      '1 2 3 4abc',
      '1 2 3 0x10',
      '1 2 3 -',
      '1 2 3 .',
      '1 2 3 1e',
      '1 2 3 1e+',
      '--1 2 3 4',
      '1..2 2 3 4',
      '1 2,5 3 4',
      '1 2 3 4e5.5',
    ];
    const text = ['1 2 3 4', ...bad, '5 6 7 8'].join('\n');
    const { report, columns } = engine.parseKeyframes(encode(text));
    expect(report).toEqual({
      lines: bad.length + 2,
      points: 2,
      badLines: bad.length,
      firstBadLine: 2,
      empty: false,
    });
    expect(Array.from(columns.index)).toEqual([1, 5]);
  });

  test('every byte up to the space except \\n separates fields (documented decision)', () => {
    expect(rows('1\u00002\u000b3\f4\n')).toEqual([[1, 2, 3, 4]]);
  });

  test('bytes above the space inside a field make it malformed (UTF-8, DEL)', () => {
    const { report } = engine.parseKeyframes(encode('1 2 3 4\u00a0\n1 2 3\u007f 4\n'));
    expect(report.badLines).toBe(2);
  });

  test('an empty file is its own result', () => {
    for (const text of ['', '\n\n', '  \t\r\n \n']) {
      const { report, columns } = engine.parseKeyframes(encode(text));
      expect(report).toEqual({ lines: 0, points: 0, badLines: 0, firstBadLine: 0, empty: true });
      expect(columns.t.length).toBe(0);
    }
  });

  test('a file of only malformed lines is not empty: it reports its bad lines', () => {
    const { report } = engine.parseKeyframes(encode('index x y t\nfoo\n'));
    expect(report).toEqual({ lines: 2, points: 0, badLines: 2, firstBadLine: 1, empty: false });
  });

  test('a last line without \\n is parsed', () => {
    expect(rows('1 2 3 4\n5 6 7 8')).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
  });

  test('long lines and long numbers take the general path with the same rules', () => {
    const padded = `1 ${'0'.repeat(80)}2.5 3 4 ${'x'.repeat(200)}`;
    const many = `12345678901234567890 0.000000000000000000001234 ${'9'.repeat(25)} 1`;
    expect(rows(`${padded}\n${many}\n`)).toEqual([
      [1, 2.5, 3, 4],
      [Number.parseFloat('12345678901234567890'), 1.234e-21, 1e25, 1],
    ]);
    const { report } = engine.parseKeyframes(
      encode(`${'1 '.repeat(40)}\n1 2 3 ${'7'.repeat(400)}`),
    );
    expect(report).toEqual({ lines: 2, points: 1, badLines: 1, firstBadLine: 2, empty: false });
  });

  test('fields of 16 bytes after the sign (the SIMD window) and of 17 read the same', () => {
    const fields = [
      '1234567890123456',
      '-1234567890123456',
      '12345678901234.5',
      '-.123456789012345',
      '123456789012345.',
      '12345678901234567',
      '-1234567890123456.7',
      '.1234567890123456',
    ];
    // Each field in each position of a short line, so the line itself takes the fast path.
    for (const field of fields) {
      const value = Number.parseFloat(field);
      expect(
        rows(`${field} 1 2 3\n1 ${field} 2 3\n1 2 ${field} 3\n1 2 3 ${field}\n`),
        field,
      ).toEqual([
        [value, 1, 2, 3],
        [1, value, 2, 3],
        [1, 2, value, 3],
        [1, 2, 3, value],
      ]);
    }
  });

  test("a dot in an earlier field is not a later field's dot", () => {
    expect(rows('1.5 2 0.25 3\n.5 12 3. -4\n-9.75 0 1 -0.5\n')).toEqual([
      [1.5, 2, 0.25, 3],
      [0.5, 12, 3, -4],
      [-9.75, 0, 1, -0.5],
    ]);
  });

  test("lines of every length around the fast path's 56-byte window parse alike", () => {
    for (let length = 40; length <= 72; length++) {
      const fields = '7 2.5 -3.25 4.125';
      const line = `${fields}${' '.repeat(length - fields.length - 5)}x.png`;
      expect(line.length).toBe(length);
      const text = `${line}\n ${line}\r\n${line}`;
      expect(rows(text), `${length} bytes`).toEqual(Array(3).fill([7, 2.5, -3.25, 4.125]));
    }
  });

  test('a line longer than 63 bytes that is malformed is still one bad line', () => {
    const { report } = engine.parseKeyframes(encode(`1 2 ${'#'.repeat(100)} 4\n1 2 3 4\n`));
    expect(report).toEqual({ lines: 2, points: 1, badLines: 1, firstBadLine: 1, empty: false });
  });

  test('rejects a text that is not a Uint8Array, naming it', () => {
    expect(() => engine.parseKeyframes('1 2 3 4' as unknown as Uint8Array)).toThrow(
      /parseKeyframes: text must be a Uint8Array/,
    );
  });
});

describe('chunk boundaries', () => {
  const text = [
    '0 1.25 -2.5 0.000',
    '',
    '1 12345.678901 -0.000001 0.033\r',
    `2 ${'1'.repeat(70)} 3 0.066 ${'tail '.repeat(30)}`,
    'garbage line here',
    '3 1e-3 -2.5E+2 0.1 frame.png',
    '\t4\t5\t6\t7\t',
    '5 6 7',
    `${'  '.repeat(40)}6 7 8 9`,
    '7 8 9 10',
  ].join('\n');

  test('every chunk size gives the same columns and report', async () => {
    const expected = engine.parseKeyframes(encode(text));
    expect(expected.report).toEqual({
      lines: 9,
      points: 7,
      badLines: 2,
      firstBadLine: 5,
      empty: false,
    });
    for (const chunkBytes of [1, 2, 3, 5, 7, 8, 13, 16, 31, 63, 64, 65, 100, 4096]) {
      const chunked = await createNodePathEngine({ chunkBytes });
      const got = chunked.parseKeyframes(encode(text));
      expect(got.report, `chunkBytes ${chunkBytes}`).toEqual(expected.report);
      expect(got.columns, `chunkBytes ${chunkBytes}`).toEqual(expected.columns);
      chunked.dispose();
    }
  });

  test('many lines across the default chunks: every point arrives once, in order', () => {
    const lines = 120_000;
    const parts: string[] = [];
    for (let i = 0; i < lines; i++) parts.push(`${i} ${i * 0.5} -${i}.25 ${i / 8}`);
    const { columns, report } = engine.parseKeyframes(encode(parts.join('\n')));
    expect(report.points).toBe(lines);
    for (let i = 0; i < lines; i += 997) {
      expect([columns.index[i], columns.x[i], columns.y[i], columns.t[i]]).toEqual([
        i,
        i * 0.5,
        -(i + 0.25),
        i / 8,
      ]);
    }
  });

  test('lines shorter than the size guess: the output columns grow', () => {
    const lines = 300_000;
    const { columns, report } = engine.parseKeyframes(encode('1 2 3 4\n'.repeat(lines)));
    expect(report.points).toBe(lines);
    expect(columns.t.length).toBe(lines);
    expect([columns.index[lines - 1], columns.t[lines - 1]]).toEqual([1, 4]);
  });

  test('rejects a bad chunk size, naming it', async () => {
    await expect(createNodePathEngine({ chunkBytes: 0 })).rejects.toThrow(/chunkBytes/);
  });
});

describe('agreement with parseFloat', () => {
  /** Random decimal strings: up to 17 significant digits, a dot anywhere, optional exponent. */
  function randomToken(random: () => number, exponentRange: number): string {
    const digits = 1 + Math.floor(random() * 17);
    let text = '';
    for (let i = 0; i < digits; i++) text += String(Math.floor(random() * 10));
    const dot = Math.floor(random() * (digits + 1));
    text = text.slice(0, dot) + (dot < digits ? `.${text.slice(dot)}` : '');
    if (exponentRange > 0) {
      text += `e${Math.floor(random() * (2 * exponentRange + 1)) - exponentRange}`;
    }
    return (random() < 0.5 ? '-' : '') + text;
  }

  /** The token as decimal mantissa × 10^scale. */
  function decimal(token: string): { fits53: boolean; exactPower: boolean } {
    const [significand = '', exponent = '0'] = token.replace(/^[-+]/, '').split(/e/i);
    const [whole = '', fraction = ''] = significand.split('.');
    const digits = (whole + fraction).replace(/^0+/, '') || '0';
    const scale = Number(exponent) - fraction.length;
    return { fits53: BigInt(digits) <= 2n ** 53n, exactPower: Math.abs(scale) <= 22 };
  }

  /**
   * The core's bound: exact when mantissa and power of ten are both exact (one IEEE operation);
   * 1 ulp when one of them is; 2 when two roundings meet.
   */
  function bound(token: string): number {
    const { fits53, exactPower } = decimal(token);
    if (fits53 && exactPower) return 0;
    return fits53 || exactPower ? 1 : 2;
  }

  /** Distances by token, for the points that parsed (overflowing tokens are bad lines). */
  function distancesByToken(tokens: string[]): Map<string, number> {
    const text = tokens.map((token, i) => `${i} ${token} 0 0`).join('\n');
    const { columns, report } = engine.parseKeyframes(encode(text));
    const found = new Map<string, number>();
    for (let j = 0; j < report.points; j++) {
      const token = tokens[columns.index[j]!]!;
      found.set(token, ulps(columns.x[j]!, Number.parseFloat(token)));
    }
    return found;
  }

  test('exponents from 1e-320 to 1e308 (subnormals included): 1 ulp, 2 when two roundings meet', () => {
    const random = createPrng(2);
    const tokens = Array.from({ length: 50_000 }, () => randomToken(random, 320));
    for (const [token, distance] of distancesByToken(tokens)) {
      expect(distance, token).toBeLessThanOrEqual(bound(token));
    }
  });

  test('the usual shape [-]digits[.digits] in every field: exact up to 2^53, like parseFloat', () => {
    const random = createPrng(4);
    const tokens = Array.from({ length: 80_000 }, () => randomToken(random, 0));
    const lines: string[] = [];
    for (let i = 0; i < tokens.length; i += 4) lines.push(tokens.slice(i, i + 4).join(' '));
    const { columns, report } = engine.parseKeyframes(encode(lines.join('\n')));
    expect(report.points).toBe(lines.length);
    (['index', 'x', 'y', 't'] as const).forEach((key, field) => {
      columns[key].forEach((value, line) => {
        const token = tokens[4 * line + field]!;
        expect(ulps(value, Number.parseFloat(token)), token).toBeLessThanOrEqual(bound(token));
        if (Number.parseFloat(token) === 0)
          expect(Object.is(value, -0), token).toBe(token[0] === '-');
      });
    });
  });

  test('numbers as JavaScript prints them', () => {
    const random = createPrng(3);
    const tokens: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const value = (random() - 0.5) * 10 ** Math.floor(random() * 40 - 20);
      tokens.push(
        String(value),
        value.toFixed(Math.floor(random() * 7)),
        value.toExponential(Math.floor(random() * 17)),
        value.toPrecision(1 + Math.floor(random() * 17)),
      );
    }
    for (const [token, distance] of distancesByToken(tokens)) {
      expect(distance, token).toBeLessThanOrEqual(bound(token));
    }
  });
});

describe('keyframe image names', () => {
  test('every token ending in .png, in file order', () => {
    const text = '1 2 3 4 12.500.png\r\n2 3 4 5\t13.000.png other.png\n\nnote.txt a.png';
    expect(engine.keyframeImageNames(encode(text))).toEqual([
      '12.500.png',
      '13.000.png',
      'other.png',
      'a.png',
    ]);
  });

  test('a bare ".png", other cases and other endings are not names', () => {
    expect(engine.keyframeImageNames(encode('.png x.PNG y.pngx z.png.txt png'))).toEqual([]);
  });

  test('names are decoded as UTF-8', () => {
    expect(engine.keyframeImageNames(encode('1 2 3 4 prüfung-1.png'))).toEqual(['prüfung-1.png']);
  });

  test('names split across chunks arrive whole', async () => {
    const names = Array.from({ length: 50 }, (_, i) => `${i * 0.033}.png`);
    const text = names.map((name, i) => `${i} 1 2 ${i * 0.033} ${name}`).join('\n');
    for (const chunkBytes of [1, 3, 7, 64]) {
      const chunked = await createNodePathEngine({ chunkBytes });
      expect(chunked.keyframeImageNames(encode(text))).toEqual(names);
      chunked.dispose();
    }
  });
});

describe('garbage never traps the core', () => {
  test('random bytes: no throw, counts add up, later calls still work', () => {
    const random = createPrng(4);
    for (let round = 0; round < 200; round++) {
      const bytes = new Uint8Array(Math.floor(random() * 3000));
      for (let i = 0; i < bytes.length; i++) {
        // Bias towards the characters the parser cares about.
        const pick = random();
        bytes[i] =
          pick < 0.5
            ? '0123456789 .-+eE\n\r\t'.charCodeAt(Math.floor(random() * 20))
            : random() * 256;
      }
      const { report, columns } = engine.parseKeyframes(bytes);
      expect(report.points + report.badLines).toBe(report.lines);
      expect(columns.x.length).toBe(report.points);
      for (const value of [...columns.index, ...columns.x, ...columns.y, ...columns.t]) {
        expect(Number.isFinite(value)).toBe(true);
      }
      engine.keyframeImageNames(bytes);
    }
    expect(rows('1 2 3 4')).toEqual([[1, 2, 3, 4]]);
  });
});
