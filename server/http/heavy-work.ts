// Calls whose work grows with the data: a report's PDF, the CSV exports, checking every signed
// record, verifying the whole trail. One client repeating them held the server for everyone
// (a QA finding): they take turns, two at a time with eight waiting, 503 beyond.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { HttpError } from './errors.ts';
import { Turns } from './turns.ts';

export const BUSY =
  'The server is busy with other reports, exports and checks; try again in a moment';

const gates = new WeakMap<AppContext, Turns<'work'>>();

/** Runs `task` in its turn (one gate per app). */
export function inTurn<T>(app: FastifyInstance, task: () => Promise<T>): Promise<T> {
  let gate = gates.get(app.ctx);
  if (!gate) {
    gate = new Turns(2, { work: 8 }, () => new HttpError(503, BUSY));
    gates.set(app.ctx, gate);
  }
  return gate.run('work', task);
}
