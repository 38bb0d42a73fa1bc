// Reports benchmark (issue 18): the /reports first page at 10^5 against 10^3 inspections (PGlite
// and, when reachable, PostgreSQL), the PDF of a report with 200 detections against one, and the
// audit trail's chain check against hashing the same bytes in one pass. Ratios are measured in one
// process with alternating rounds (bench/lib/rounds.ts). Prints a table, writes
// bench/results/reports.json. Run: node --expose-gc --import tsx bench/reports.bench.ts
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import {
  type ChainRow,
  checkChain,
  GENESIS_HASH,
  readChain,
  verifyTrail,
} from '../server/audit/verify-trail.ts';
import type { Db } from '../server/db/client.ts';
import { inspections, users } from '../server/db/schema.ts';
import type { DemoDataset } from '../server/demo/dataset-types.ts';
import { loadDemo } from '../server/demo/load-demo.ts';
import { checkEvidenceFiles } from '../server/reports/evidence.ts';
import { reportPdf } from '../server/reports/pdf.ts';
import { readRecord } from '../server/reports/record.ts';
import { buildReport, REPORT_RULES_VERSION } from '../server/reports/report.ts';
import type { InspectionReport } from '../server/schemas/reports.ts';
import { build, type TestApp } from '../server/test/build.ts';
import { createUser } from '../server/test/fixtures.ts';
import { benchPostgresUrl, postgresAvailable } from './lib/postgres.ts';
import { formatSize, formatSpread, type TargetRow } from './lib/report.ts';
import { quickRun, startBenchRun } from './lib/results.ts';
import { alternate, type Measured, ratioSpread } from './lib/rounds.ts';
import { quantile, spread } from './lib/stats.ts';

/** BENCH_PARTS=list,pdf,trail (the default: all) runs some of the three. */
const parts = new Set((process.env.BENCH_PARTS ?? 'list,pdf,trail').split(','));
const run = startBenchRun(parts.size === 3 ? 'reports' : `reports-${[...parts].join('-')}`);
// BENCH_QUICK: two rounds, a 10^4-inspection list and a 10^4-row trail, only to prove it runs.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quickRun ? 2 : 7));
const LIST_CALLS = quickRun ? 10 : 40;
const LARGE_LIST = quickRun ? 1e4 : 1e5;
const TRAIL_ENTRIES = Number(process.env.BENCH_TRAIL_ENTRIES ?? (quickRun ? 1e4 : 1e6));
/**
 * `count` inspections over 5 lines (the manager's line one of them) and 20 operators, one every
 * 7 minutes, a third each pending, approved and rejected, with report summaries (a quarter
 * unflagged), written in one statement each.
 */
async function seedInspections(db: Db, count: number, managerId: string): Promise<void> {
  await db.execute(sql`
    insert into line_clearances (id, name, manager_id)
    select lpad(to_hex(l), 24, '0'), 'Line ' || l, case when l = 1 then ${managerId} end
    from generate_series(1, 5) l`);
  await db.execute(sql`
    insert into inspections (id, line_clearance_id, operator_id, start_time, status)
    select lpad(to_hex(1000000 + i), 24, '0'), lpad(to_hex(1 + i % 5), 24, '0'),
      lpad(to_hex(2000000 + i % 20), 24, '0'),
      timestamptz '2024-01-01' + i * interval '7 minutes',
      (array['pending', 'approved', 'rejected'])[1 + i % 3]
    from generate_series(1, ${count}::int) i`);
  await db.execute(sql`
    insert into report_summaries (inspection_id, flags, critical_flags, tags_scanned, tags_total,
      zones_visited, zones_total, detections, rules)
    select id, (abs(hashtext(id)) % 4), 0, 5, 8, 3, 5, 10, ${REPORT_RULES_VERSION}::int
    from inspections`);
  await db.execute(sql`analyze`);
}

interface ListSetup {
  app: TestApp;
  auth: { authorization: string };
}

async function listSetup(count: number, postgres: string | null): Promise<ListSetup> {
  const app = await build({}, { postgresUrl: postgres });
  const manager = await createUser(app, 'bench-manager', ['lc_manager']);
  await seedInspections(app.services.ctx.db, count, manager.id);
  return { app, auth: manager.auth };
}

/** The first page an LC manager sees filtered (pending, flagged) and sorted newest first. */
const FIRST_PAGE = '/api/reports?status=pending&flagged=true&sort=-startTime&limit=50';

/** p95 of LIST_CALLS sequential calls, as one sample. */
async function firstPageP95(setup: ListSetup): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < LIST_CALLS; i++) {
    const start = performance.now();
    const res = await setup.app.app.inject({ url: FIRST_PAGE, headers: setup.auth });
    times.push(performance.now() - start);
    if (res.statusCode !== 200) throw new Error(`/api/reports answered ${res.statusCode}`);
    // An empty page is fast at any size (the seeded summaries once went uncounted by the filter).
    if (i === 0 && res.json().rows.length < 50) throw new Error('/api/reports: a short first page');
  }
  return quantile(times, 0.95);
}

async function benchList(label: string, postgres: string | null): Promise<TargetRow[]> {
  console.log(`/reports on ${label}: seeding 10^3 and ${formatSize(LARGE_LIST)} inspections`);
  const small = await listSetup(1e3, postgres);
  const large = await listSetup(LARGE_LIST, postgres);
  try {
    const samples = { small: [] as number[], large: [] as number[] };
    await firstPageP95(small);
    await firstPageP95(large);
    for (let r = 0; r < ROUNDS; r++) {
      // Alternating order per round, as bench/lib/rounds.ts does for synchronous work.
      const order = r % 2 ? (['large', 'small'] as const) : (['small', 'large'] as const);
      for (const which of order) {
        samples[which].push(await firstPageP95(which === 'small' ? small : large));
      }
    }
    const ratios = spread(samples.large.map((ms, i) => ms / (samples.small[i] as number)));
    return [
      {
        target: `/reports first page p95, ${formatSize(LARGE_LIST)} ÷ 10^3 inspections (${label})`,
        size: '',
        value: ratios.median,
        spread: ratios,
        measured: formatSpread(ratios, '×'),
        goal: '≤ 2×',
        pass: ratios.median <= 2,
      },
      ...(['small', 'large'] as const).map(
        (which): TargetRow => ({
          target: `/reports first page p95 at ${which === 'small' ? '10^3' : formatSize(LARGE_LIST)} (${label}, info)`,
          size: '',
          value: spread(samples[which]).median,
          spread: spread(samples[which]),
          measured: formatSpread(spread(samples[which]), ' ms'),
          goal: '',
          pass: null,
        }),
      ),
    ];
  } finally {
    await small.app.close();
    await large.app.close();
  }
}

/** A copy of `report` with `count` flagged detections, cycling over its keyframe images. */
function withDetections(report: InspectionReport, count: number): InspectionReport {
  const source = report.detections;
  const detections = Array.from({ length: count }, (_, i) => {
    const from = source[i % source.length];
    if (!from) throw new Error('the demo report has no detections');
    return {
      ...from,
      predictionId: i.toString(16).padStart(24, '0'),
      flagged: true,
      disposition: null,
    };
  });
  return { ...report, detections, flags: report.flags.filter((f) => f.kind !== 'detection') };
}

async function benchPdf(): Promise<TargetRow[]> {
  console.log('PDF: building a demo report');
  const app = await build();
  try {
    const dataset = JSON.parse(
      fs.readFileSync(new URL('../server/demo/dataset.json', import.meta.url), 'utf8'),
    ) as DemoDataset;
    await loadDemo(
      app.services.ctx,
      dataset,
      new URL('../server/demo/files/', import.meta.url).pathname,
    );
    const [admin] = await app.services.ctx.db.select().from(users).limit(1);
    const rows = await app.services.ctx.db.select().from(inspections);
    const target = rows.find((row) => row.startTime.toISOString() === '2026-11-18T22:10:00.000Z');
    if (!admin || !target) throw new Error('the demo data did not load');
    const record = await readRecord(app.services.ctx.db, target.id);
    const base = await buildReport(app.services.ctx, { ...admin, roles: ['admin'] }, record);
    const reports = { one: withDetections(base, 1), many: withDetections(base, 200) };
    const sizes = { one: 0, many: 0 };
    const at = new Date('2026-11-26T12:00:00Z');
    // Hashed once: the ratio is of the rendering, which the detections' count changes.
    const printing = {
      at,
      by: { name: 'Bench Auditor', email: 'bench@example.com' },
      evidence: await checkEvidenceFiles(app.services.ctx.storage, record, at),
    };
    const render = async (which: 'one' | 'many') => {
      const bytes = await reportPdf(app.services.ctx, reports[which], printing);
      sizes[which] = bytes.length;
    };
    const samples = { one: [] as number[], many: [] as number[] };
    await render('one');
    await render('many');
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 ? (['many', 'one'] as const) : (['one', 'many'] as const);
      for (const which of order) {
        const start = performance.now();
        await render(which);
        samples[which].push(performance.now() - start);
      }
    }
    const time = spread(samples.many.map((ms, i) => ms / (samples.one[i] as number)));
    const size = sizes.many / sizes.one;
    return [
      {
        target: 'PDF time, 200 detections ÷ 1',
        size: '',
        value: time.median,
        spread: time,
        measured: formatSpread(time, '×'),
        goal: '≤ 20×',
        pass: time.median <= 20,
      },
      {
        target: 'PDF size, 200 detections ÷ 1',
        size: '',
        value: size,
        spread: null,
        measured: `${size.toFixed(2)}× (${sizes.many} ÷ ${sizes.one} bytes)`,
        goal: '≤ 20×',
        pass: size <= 20,
      },
      ...(['one', 'many'] as const).map(
        (which): TargetRow => ({
          target: `PDF with ${which === 'one' ? '1 detection' : '200 detections'} (info)`,
          size: '',
          value: spread(samples[which]).median,
          spread: spread(samples[which]),
          measured: `${formatSpread(spread(samples[which]), ' ms')}, ${sizes[which]} bytes`,
          goal: '',
          pass: null,
        }),
      ),
    ];
  } finally {
    await app.close();
  }
}

async function benchTrail(): Promise<TargetRow[]> {
  console.log(`audit trail: writing ${TRAIL_ENTRIES} entries through the chaining trigger`);
  const app = await build();
  try {
    const { db } = app.services.ctx;
    const started = performance.now();
    for (let done = 0; done < TRAIL_ENTRIES; done += 50_000) {
      const n = Math.min(50_000, TRAIL_ENTRIES - done);
      await db.execute(sql`
        insert into audit_log (actor_id, actor_email, action, entity, entity_id, old_value, new_value, ip)
        select lpad(to_hex(i % 50), 24, '0'), 'user' || (i % 50) || '@example.com', 'update',
          'inspection', lpad(to_hex(i), 24, '0'), jsonb_build_object('status', 'pending'),
          jsonb_build_object('status', 'approved', 'notes', 'Approved by LC Manager'), '10.0.0.1'
        from generate_series(${done + 1}::int, ${done + n}::int) i`);
    }
    console.log(`  written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // The rows as the check reads them, held in memory for the two in-memory contenders.
    const chain: ChainRow[] = [];
    for (let after = 0; ; ) {
      const rows = await readChain(db, after, 50_000);
      chain.push(...rows);
      if (rows.length < 50_000) break;
      after = Number(rows[rows.length - 1]?.id);
    }
    const bytes = Buffer.from(chain.map((row) => row.canonical).join(''));
    const measured = alternate(
      [
        {
          name: 'check',
          run: () => {
            const result = checkChain(chain, GENESIS_HASH);
            if (!result.ok) throw new Error(`the benchmark trail is broken at ${result.id}`);
            return result;
          },
        },
        { name: 'sha256', run: () => createHash('sha256').update(bytes).digest('hex') },
      ],
      ROUNDS,
    );
    const check = measured.get('check') as Measured;
    const hash = measured.get('sha256') as Measured;
    const ratio = ratioSpread(check, hash);
    const endToEnd: number[] = [];
    for (let r = 0; r < Math.min(ROUNDS, 3); r++) {
      const start = performance.now();
      const result = await verifyTrail(db);
      endToEnd.push(performance.now() - start);
      if (!result.ok) throw new Error('the benchmark trail does not verify');
    }
    const e2e = spread(endToEnd);
    const hashMs = spread(hash.samplesMs);
    return [
      {
        target: `trail chain check ÷ one-pass SHA-256 of its bytes`,
        size: String(TRAIL_ENTRIES),
        value: ratio.median,
        spread: ratio,
        measured: formatSpread(ratio, '×'),
        goal: '≤ 3×',
        pass: ratio.median <= 3,
      },
      {
        target: 'one-pass SHA-256 of the rows (info)',
        size: String(TRAIL_ENTRIES),
        value: hashMs.median,
        spread: hashMs,
        measured: `${formatSpread(hashMs, ' ms')}, ${bytes.length} bytes`,
        goal: '',
        pass: null,
      },
      {
        target: 'GET /api/audit-log/verify end to end, PGlite (info)',
        size: String(TRAIL_ENTRIES),
        value: e2e.median,
        spread: e2e,
        measured: `${formatSpread(e2e, ' ms')} (${(e2e.median / hashMs.median).toFixed(1)}× the hashing)`,
        goal: '',
        pass: null,
      },
    ];
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  const rows: TargetRow[] = [];
  if (parts.has('list')) {
    rows.push(...(await benchList('PGlite', null)));
    if (await postgresAvailable(benchPostgresUrl)) {
      rows.push(...(await benchList('PostgreSQL', benchPostgresUrl)));
    } else console.log(`PostgreSQL not reachable at ${benchPostgresUrl}: /reports on PGlite only`);
  }
  if (parts.has('pdf')) rows.push(...(await benchPdf()));
  if (parts.has('trail')) rows.push(...(await benchTrail()));
  await run.finish(rows, { rounds: ROUNDS, trailEntries: TRAIL_ENTRIES });
}

await main();
