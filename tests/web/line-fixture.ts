// A line clearance as GET /api/line-clearances lists it, for screen tests.
import type { LineClearance } from '../../src/types/api.ts';

export const activeLine = (id: string, patch: Partial<LineClearance> = {}): LineClearance => ({
  _id: id,
  name: 'Blister Line 1',
  description: '',
  location: '',
  status: 'active',
  managerId: null,
  assignedOperators: [],
  version: 1,
  ...patch,
});
