// Inspection reports (docs/reports.md): one report as JSON or PDF, and the /reports list with its
// CSV export. Every caller sees what its scope allows (operators their own, LC managers their
// lines, the rest everything); a report outside it answers 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { auditExport, exportFilters } from '../audit/exports.ts';
import { inspections } from '../db/schema.ts';
import { currentUser } from '../http/auth-hook.ts';
import { sendCsvInTurn, sendDownload } from '../http/download.ts';
import { errorResponses } from '../http/error-responses.ts';
import { notFound } from '../http/errors.ts';
import { inTurn } from '../http/heavy-work.ts';
import { iso } from '../ids.ts';
import { SignatureChecks } from '../reports/check-signatures.ts';
import { electronicCopy } from '../reports/electronic-copy.ts';
import { checkEvidenceFiles, keyframesReader } from '../reports/evidence.ts';
import { listReports, reportFilters, reportsCsv } from '../reports/list.ts';
import { reportPdf } from '../reports/pdf.ts';
import { readRecord } from '../reports/record.ts';
import { buildReport } from '../reports/report.ts';
import { IdParams } from '../schemas/common.ts';
import {
  EvidenceCheck,
  InspectionReport,
  ReportFilters,
  ReportPage,
  ReportsQuery,
  SignatureCheck,
} from '../schemas/reports.ts';
import { hiddenRecord, visibleTo } from '../services/scope.ts';

const readers = ['operator', 'lc_manager', 'audit', 'factory_manager', 'admin'] as const;

/**
 * The CSV's file name, with its export time in UTC ('inspection-reports-2026-11-29T051633Z.csv'),
 * so that two saved exports are told apart, and sort by when they were made.
 */
const reportsCsvName = (exportedAt: Date) =>
  `inspection-reports-${iso(exportedAt).slice(0, 19).replaceAll(':', '')}Z.csv`;

/** What selects and orders the CSV's reports (it has no pages: `after` and `limit` are not its). */
const CSV_FILTERS = [
  'from',
  'to',
  'lineClearanceId',
  'operatorId',
  'status',
  'flagged',
  'changedAfterSigning',
  'sort',
] as const;
const errors = errorResponses;

export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  /** The record, when the caller's scope holds it (404 otherwise, as if there were none). */
  async function visibleRecord(request: FastifyRequest, id: string) {
    const user = currentUser(request);
    const [visible] = await db
      .select({ id: inspections.id })
      .from(inspections)
      .where(
        and(
          eq(inspections.id, id),
          visibleTo(user, { owner: inspections.operatorId, line: inspections.lineClearanceId }),
        ),
      );
    if (!visible) {
      await hiddenRecord(request, inspections, eq(inspections.id, id), notFound('Inspection'));
    }
    return readRecord(db, id);
  }

  async function visibleReport(request: FastifyRequest, id: string) {
    return buildReport(app.ctx, currentUser(request), await visibleRecord(request, id));
  }

  app.get(
    '/reports',
    {
      config: { access: readers },
      schema: {
        tags: ['reports'],
        querystring: ReportsQuery,
        response: { 200: ReportPage, ...errors },
      },
    },
    async (request) => listReports(db, currentUser(request), request.query),
  );

  app.get(
    '/reports/filters',
    {
      config: { access: readers },
      schema: { tags: ['reports'], response: { 200: ReportFilters, ...errors } },
    },
    async (request) => reportFilters(db, currentUser(request)),
  );

  // Downloads are plain links (the media cookie authorises them, like a <video src>).
  app.get(
    '/reports.csv',
    {
      config: { access: readers, media: true },
      schema: { tags: ['reports'], querystring: ReportsQuery, response: errors },
    },
    async (request, reply) => {
      const file = reportsCsvName(new Date());
      const csv = reportsCsv(db, currentUser(request), request.query);
      const filters = exportFilters(request.query, CSV_FILTERS);
      return sendCsvInTurn(app, reply, file, csv, () =>
        auditExport(db, request, { entity: 'inspection', file, filters }),
      );
    },
  );

  // One run per server, in the background and outside the heavy-work turns: it takes minutes at
  // plant scale, longer than a request may stay silent (docs/reports.md).
  const checks = new SignatureChecks(app.ctx, app.log);
  app.addHook('onClose', () => checks.stop());
  // Those who read every record: the answer lists changed records on any line.
  const checkers = ['audit', 'factory_manager', 'admin'] as const;

  app.post(
    '/reports/check-signatures',
    {
      config: { access: checkers },
      schema: {
        tags: ['reports'],
        description:
          'Starts building every signed record again in the background (or joins the run going) ' +
          'and answers its state at once; GET follows it until it says which records changed.',
        response: { 202: SignatureCheck, ...errors },
      },
    },
    async (request, reply) => reply.status(202).send(checks.start(currentUser(request))),
  );

  app.get(
    '/reports/check-signatures',
    {
      config: { access: checkers },
      schema: {
        tags: ['reports'],
        description:
          'The signature check going (checked n of total) or the last one: the records that ' +
          'no longer match their signature, or why it failed.',
        response: { 200: SignatureCheck, ...errors },
      },
    },
    async () => checks.state(),
  );

  app.get(
    '/reports/:id',
    {
      config: { access: readers },
      schema: {
        tags: ['reports'],
        params: IdParams,
        response: { 200: InspectionReport, ...errors },
      },
    },
    async (request) => visibleReport(request, request.params.id),
  );

  app.get(
    '/reports/:id/evidence-check',
    {
      config: { access: readers },
      schema: {
        tags: ['reports'],
        params: IdParams,
        description:
          'Hashes the evidence files again (docs/signatures.md): the video file against its ' +
          'SHA-256 and, for a signed record, the keyframe images against the digest its ' +
          'signature kept. Changes nothing.',
        response: { 200: EvidenceCheck, ...errors },
      },
    },
    async (request) => {
      const record = await visibleRecord(request, request.params.id);
      // A whole video read: it takes a heavy-work turn, as a PDF does.
      return inTurn(app, () => checkEvidenceFiles(app.ctx.storage, record, new Date()));
    },
  );

  app.get(
    '/reports/:id/pdf',
    {
      config: { access: readers, media: true },
      schema: { tags: ['reports'], params: IdParams, response: errors },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const record = await visibleRecord(request, request.params.id);
      // The report and the print-time check both read the keyframes file: once for the request.
      const keyframes = keyframesReader(app.ctx.storage);
      const report = await buildReport(app.ctx, user, record, keyframes);
      const file = `inspection-${report.inspectionId}.pdf`;
      const pdf = await inTurn(app, async () => {
        const at = new Date();
        const evidence = await checkEvidenceFiles(app.ctx.storage, record, at, keyframes);
        const by = { name: user.name, email: user.email };
        const bytes = await reportPdf(app.ctx, report, { at, by, evidence });
        // Once the copy exists: its print time and record hash, as its pages show them.
        await auditExport(db, request, {
          entity: 'inspection',
          entityId: report.inspectionId,
          file,
          details: { printedAt: iso(at), recordHash: report.recordHash },
        });
        return bytes;
      });
      return sendDownload(reply, 'application/pdf', file, Buffer.from(pdf));
    },
  );

  app.get(
    '/reports/:id/record.json',
    {
      config: { access: readers, media: true },
      schema: {
        tags: ['reports'],
        params: IdParams,
        description:
          'The electronic copy of the record (docs/reports.md): what its record hash is taken ' +
          'of, the report, the evidence files as checked now and the whole history from the ' +
          'trail. Audited as an export, as the PDF is.',
        response: errors,
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const record = await visibleRecord(request, request.params.id);
      const file = `inspection-${record.inspection.id}.json`;
      // The evidence check reads the whole video: a heavy-work turn, as a PDF takes.
      const copy = await inTurn(app, async () => {
        const at = new Date();
        const made = await electronicCopy(app.ctx, user, record, at);
        await auditExport(db, request, {
          entity: 'inspection',
          entityId: record.inspection.id,
          file,
          details: { exportedAt: made.exportedAt, recordHash: made.recordHash },
        });
        return made;
      });
      return sendDownload(reply, 'application/json', file, `${JSON.stringify(copy, null, 2)}\n`);
    },
  );
};
