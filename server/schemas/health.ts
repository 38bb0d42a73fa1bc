import { type Static, Type } from 'typebox';

export const Health = Type.Object({
  status: Type.Literal('ok'),
  database: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]),
});
export type Health = Static<typeof Health>;
