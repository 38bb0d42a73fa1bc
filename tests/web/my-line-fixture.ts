// A line as GET /api/my/lines lists it for the signed-in operator, for dashboard tests.
import type { MyLine } from '../../src/types/api.ts';
import { activeLine } from './line-fixture.ts';

/** Blister Line 1, active, configured with 8 checkpoints and 5 areas, never inspected by default. */
export const myLine = (id: string, patch: Partial<MyLine> = {}): MyLine => ({
  line: activeLine(id),
  hasConfiguration: true,
  tagCount: 8,
  hotZoneCount: 5,
  lastInspection: null,
  ...patch,
});
