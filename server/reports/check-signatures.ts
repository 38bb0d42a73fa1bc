// 'Check signed records' (docs/reports.md): builds every signed record's report again, so its
// /reports row says whether the record still matches its signature. At plant scale this takes
// minutes (7 ms a record), longer than any request may stay silent, so it runs in the background,
// one run per server, and callers read its progress.
import { asc, eq, ne } from 'drizzle-orm';
import type { AppContext, AuthUser } from '../context.ts';
import { inspections, reportSummaries } from '../db/schema.ts';
import type { SignatureCheck } from '../schemas/reports.ts';
import { summarizeInspection } from './report.ts';

type Ctx = Pick<AppContext, 'db' | 'storage'>;
type Run = Extract<SignatureCheck, { state: 'running' }>;

/** Where a failed run's cause goes (the answer says only that it failed). */
export interface CheckLog {
  error: (object: object, message: string) => void;
}

/** Lets other requests (a PDF, a page of /reports) run between two records. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The one signature check of a server: starts it, joins it, tells its state, stops it. */
export class SignatureChecks {
  private current: SignatureCheck = { state: 'none' };
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly ctx: Ctx,
    private readonly log: CheckLog,
    /** Builds one record again (its summary says whether it changed); tests pass their own. */
    private readonly check: (ctx: Ctx, inspectionId: string) => Promise<void> = summarizeInspection,
  ) {}

  /** The current run's progress, or the last run's outcome. */
  state(): SignatureCheck {
    return { ...this.current };
  }

  /** Starts a run, or joins the one going (its state names who started it); answers its state. */
  start(user: AuthUser): SignatureCheck {
    if (this.running || this.stopped) return this.state();
    const run: Run = {
      state: 'running',
      checked: 0,
      total: 0,
      startedAt: new Date().toISOString(),
      startedBy: { id: user.id, name: user.name },
    };
    this.current = run;
    // `work` records its own failure as the state, so the promise never rejects.
    this.running = this.work(run).finally(() => {
      this.running = null;
    });
    return this.state();
  }

  /** On server stop: the run ends after its current record, before the database closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async work(run: Run): Promise<void> {
    const finishedAt = () => new Date().toISOString();
    // The record being built, named in the failure so it can be opened and looked at.
    let at: string | null = null;
    try {
      const signed = await this.ctx.db
        .select({ id: inspections.id })
        .from(inspections)
        .where(ne(inspections.status, 'pending'))
        .orderBy(asc(inspections.id));
      run.total = signed.length;
      for (const { id } of signed) {
        await yieldToOthers();
        if (this.stopped) return;
        at = id;
        await this.check(this.ctx, id);
        run.checked++;
      }
      at = null;
      const changed = await this.ctx.db
        .select({ id: reportSummaries.inspectionId })
        .from(reportSummaries)
        .where(eq(reportSummaries.changedAfterSigning, true))
        .orderBy(asc(reportSummaries.inspectionId));
      this.current = {
        ...run,
        state: 'finished',
        finishedAt: finishedAt(),
        changed: changed.length,
        inspectionIds: changed.slice(0, 100).map((row) => row.id),
      };
    } catch (error) {
      // A record cut short by the server stopping is no failure of the check.
      if (this.stopped) return;
      this.log.error({ err: error, inspectionId: at }, 'signature check failed');
      this.current = {
        ...run,
        state: 'failed',
        finishedAt: finishedAt(),
        error: at
          ? `Record ${at} could not be built; the server log says why.`
          : 'The signed records could not be read; the server log says why.',
      };
    }
  }
}
