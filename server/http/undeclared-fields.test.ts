import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { dropUndeclaredFields } from './undeclared-fields.ts';

describe('dropUndeclaredFields', () => {
  it('drops what the schema does not declare, at every level it describes', () => {
    const Tag = Type.Object({ name: Type.String() });
    const schema = Type.Object({
      name: Type.String(),
      tags: Type.Array(Tag),
      either: Type.Optional(
        Type.Union([
          Type.Object({ kind: Type.Literal('a'), x: Type.Number() }),
          Type.Object({ kind: Type.Literal('b'), y: Type.Number() }),
        ]),
      ),
      both: Type.Optional(Type.Intersect([Tag, Type.Object({ index: Type.Integer() })])),
      // Open on purpose: a record's keys and an unknown value are the caller's.
      labels: Type.Optional(Type.Record(Type.String(), Type.String())),
      extra: Type.Optional(Type.Unknown()),
    });
    const body = {
      name: 'Line',
      id: '*',
      tags: [{ name: 'T1', status: 'scanned' }],
      either: { kind: 'b', y: 1, x: 2 },
      both: { name: 'T2', index: 0, id: 'x' },
      labels: { any: 'kept' },
      extra: { kept: { as: 'given' } },
    };
    dropUndeclaredFields(schema, body);
    expect(body).toEqual({
      name: 'Line',
      tags: [{ name: 'T1' }],
      either: { kind: 'b', y: 1 },
      both: { name: 'T2', index: 0 },
      labels: { any: 'kept' },
      extra: { kept: { as: 'given' } },
    });
  });

  it('keeps a richer union member’s fields, and whatever an open member takes', () => {
    const Tag = Type.Object({ name: Type.String() });
    const Coded = Type.Object({ name: Type.String(), qrCode: Type.String() });
    const richer = { name: 'T1', qrCode: 'QR-1', stray: 1 };
    dropUndeclaredFields(Type.Union([Tag, Coded]), richer);
    expect(richer).toEqual({ name: 'T1', qrCode: 'QR-1' });
    const open = { name: 'T1', any: 'kept' };
    dropUndeclaredFields(Type.Union([Coded, Type.Record(Type.String(), Type.String())]), open);
    expect(open).toEqual({ name: 'T1', any: 'kept' });
  });

  it('never walks an array of numbers (a capture body’s motion samples)', () => {
    let reads = 0;
    const samples = new Proxy([1, 2, 3], {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const Samples = Type.Object({ t: Type.Array(Type.Number()) });
    dropUndeclaredFields(Samples, { t: samples });
    // Nor under a union, as the capture's `motion: Nullable(MotionSamples)` is.
    dropUndeclaredFields(Type.Object({ motion: Type.Union([Samples, Type.Null()]) }), {
      motion: { t: samples },
    });
    expect(reads).toBe(0);
  });
});
