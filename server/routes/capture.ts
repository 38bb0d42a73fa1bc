// The operator's side of the inspection loop (docs/capture.md): submit a recorded inspection,
// attach what the phone recorded beside the video, discard a recording, and the operator's own
// lines, inspections and devices. The video file itself arrives by /api/uploads (uploads.ts).
import { isDeepStrictEqual } from 'node:util';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { audit } from '../audit/audit.ts';
import {
  captures,
  deviceHolders,
  devices,
  floorplanConfigs,
  inspections,
  lineClearances,
  signatures,
  uploads,
  users,
  videos,
} from '../db/schema.ts';
import { currentUser, denied } from '../http/auth-hook.ts';
import { errorResponses } from '../http/error-responses.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { iso, newId } from '../ids.ts';
import { toSignature } from '../reports/record.ts';
import { inspectionsOfVideo, refreshSummaries, reportRules } from '../reports/report.ts';
import { CaptureData } from '../schemas/capture.ts';
import { IdParams, MessageResponse } from '../schemas/common.ts';
import { Device } from '../schemas/devices.ts';
import type { InspectionStatus } from '../schemas/inspections.ts';
import { InspectionCreate, InspectionCreated } from '../schemas/inspections.ts';
import { lineStatusWords } from '../schemas/line-clearances.ts';
import { MyInspection, MyInspectionsQuery, MyLine, MyLineDetail } from '../schemas/operator.ts';
import type { VideoStatus } from '../schemas/videos.ts';
import {
  assignedLines,
  checkCapture,
  checklistFor,
  isAssigned,
  NOT_UPLOADED_NOTE,
  submittedVideo,
} from '../services/capture.ts';
import { holdNamed } from '../services/named-records.ts';
import { hiddenRecord, visibleTo } from '../services/scope.ts';
import { toDevice } from './devices.ts';
import { toInspection } from './inspections.ts';
import { findLine, toLineClearance } from './line-clearances.ts';

/** Who records inspections: the route table's roles for /inspection/{areaId}, if assigned. */
export const RECORDERS = ['operator', 'lc_manager', 'factory_manager', 'admin'] as const;
const errors = errorResponses;
/** How far a device clock may run ahead of the server's before a start time is refused. */
const CLOCK_SKEW_MS = 10 * 60 * 1000;
/** 30 minutes of motion at 60 Hz, as JSON numbers, with room to spare. */
const CAPTURE_BODY_LIMIT = 24 * 1024 * 1024;
const DISCARDED = 'Recording discarded on the device';
/** New inspections one account may submit an hour. */
export const INSPECTIONS_PER_HOUR = 60;

export const captureRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, storage } = app.ctx;

  /** The inspection as its recorder: 404 outside the caller's scope, 403 if not its operator. */
  async function ownInspection(request: Parameters<typeof currentUser>[0], id: string) {
    const user = currentUser(request);
    const [row] = await db
      .select()
      .from(inspections)
      .where(
        and(
          eq(inspections.id, id),
          visibleTo(user, { owner: inspections.operatorId, line: inspections.lineClearanceId }),
        ),
      );
    if (!row) {
      return hiddenRecord(request, inspections, eq(inspections.id, id), notFound('Inspection'));
    }
    if (row.operatorId !== user.id) await denied(request, 'not the operator of this inspection');
    return row;
  }

  app.post(
    '/inspections',
    {
      config: { access: RECORDERS },
      // Every inspection is a record kept for good: one account cannot flood the review queue
      // (a QA pass made 1,500 in 30 s). A shift records a few; a resubmit answers the same one.
      preHandler: app.rateLimit({
        max: INSPECTIONS_PER_HOUR,
        timeWindow: '1 hour',
        keyGenerator: (request) => `inspections ${request.user?.id ?? request.ip}`,
      }),
      schema: {
        tags: ['capture'],
        body: InspectionCreate,
        response: { 200: InspectionCreated, 201: InspectionCreated, ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const body = request.body;
      // The same recording submitted again (a lost answer) is answered with what it created.
      const replay = async (existing: typeof inspections.$inferSelect) => {
        if (existing.operatorId !== user.id) throw conflict('body.clientRef is already used');
        return reply.status(200).send(await created(existing));
      };
      const existing = await findByClientRef(body.clientRef);
      if (existing) return replay(existing);
      const line = await findLine(db, body.lineClearanceId);
      // The recording stays on the phone, so both answers say what unblocks its upload.
      if (!(await isAssigned(db, user, line.id))) {
        await denied(
          request,
          'not assigned to this line',
          'You are not assigned to this line: ask an admin, a factory manager or its LC manager to assign you, then resume the upload.',
        );
      }
      if (line.status !== 'active') {
        throw conflict(
          `${line.name} is ${lineStatusWords(line.status)}: it cannot be inspected now. Resume the upload once it is active again.`,
        );
      }
      const startTime = new Date(body.startTime);
      const endTime = new Date(body.endTime);
      // A phone clock ahead would place the recording after its own receipt (no late flag then).
      for (const [field, time] of [
        ['startTime', startTime],
        ['endTime', endTime],
      ] as const) {
        if (time.getTime() > Date.now() + CLOCK_SKEW_MS) {
          throw badRequest(`body.${field} is in the future`);
        }
      }
      if (endTime < startTime) throw badRequest('body.endTime must not be before body.startTime');
      let row: typeof inspections.$inferSelect;
      try {
        row = await db.transaction(async (tx) => {
          // Held until this commits: a deletion of the line, the device or the operator meanwhile
          // waits and then counts these records, or went first and they are not written.
          if (!(await holdNamed(tx, lineClearances, line.id))) throw notFound('Line clearance');
          if (body.deviceId && !(await holdNamed(tx, devices, body.deviceId))) {
            throw badRequest('body.deviceId names no registered device');
          }
          if (!(await holdNamed(tx, users, user.id))) throw notFound('User');
          const checklist = await checklistFor(tx, line.id);
          const videoId = newId();
          const [video] = await tx
            .insert(videos)
            .values(
              submittedVideo(videoId, {
                userId: user.id,
                deviceId: body.deviceId ?? null,
                lineClearanceId: line.id,
                startTime,
                container: body.video.container,
                duration: body.video.duration,
              }),
            )
            .returning();
          const [inspection] = await tx
            .insert(inspections)
            .values({
              id: newId(),
              lineClearanceId: line.id,
              operatorId: user.id,
              videoId,
              startTime,
              endTime,
              status: 'pending',
              operatorNotes: body.operatorNotes?.trim() ?? '',
              productLeaving: body.productLeaving.trim(),
              batchLeaving: body.batchLeaving.trim(),
              productComing: body.productComing.trim(),
              batchComing: body.batchComing.trim(),
              checklist,
              clientRef: body.clientRef,
              // The database's clock, as the trail's entry for this submit.
              receivedAt: sql`now()`,
            })
            .onConflictDoNothing({ target: inspections.clientRef })
            .returning();
          // A concurrent submit of the same recording won: roll this one back and answer that one.
          if (!inspection || !video) throw conflict('retry');
          await audit(tx, request, {
            action: 'create',
            entity: 'video',
            entityId: videoId,
            newValue: { ...video, note: NOT_UPLOADED_NOTE },
          });
          await audit(tx, request, {
            action: 'create',
            entity: 'inspection',
            entityId: inspection.id,
            newValue: toInspection(inspection, null),
          });
          return inspection;
        });
      } catch (error) {
        // A parallel submit of the same recording created it first: this one is a replay of it.
        const winner = await findByClientRef(body.clientRef);
        if (!winner) throw error;
        return replay(winner);
      }
      await refreshSummaries(app.ctx, [row.id], request.log);
      return reply.status(201).send(await created(row));
    },
  );

  async function findByClientRef(clientRef: string) {
    const [row] = await db.select().from(inspections).where(eq(inspections.clientRef, clientRef));
    return row;
  }

  async function created(row: typeof inspections.$inferSelect) {
    const [video] = row.videoId
      ? await db.select().from(videos).where(eq(videos.id, row.videoId))
      : [];
    if (!video) throw notFound('Video');
    // A repeated submit may find the inspection already signed.
    const [signature] = await db
      .select()
      .from(signatures)
      .where(eq(signatures.inspectionId, row.id));
    return {
      inspection: toInspection(row, signature ? toSignature(signature) : null),
      videoId: video.id,
      videoFilename: video.filename,
    };
  }

  app.put(
    '/inspections/:id/capture',
    {
      bodyLimit: CAPTURE_BODY_LIMIT,
      config: { access: RECORDERS },
      schema: {
        tags: ['capture'],
        description:
          'Attaches the QR scans and motion samples recorded with the video. Once only: the same data again answers 200, other data 409.',
        params: IdParams,
        body: CaptureData,
        response: { 200: CaptureData, 201: CaptureData, ...errors },
      },
    },
    async (request, reply) => {
      const inspection = await ownInspection(request, request.params.id);
      if (inspection.status !== 'pending') {
        throw conflict(`The inspection is already ${inspection.status}`);
      }
      const [video] = inspection.videoId
        ? await db.select().from(videos).where(eq(videos.id, inspection.videoId))
        : [];
      const checklist = inspection.checklist ?? { floorplanConfigId: null, tags: [], hotZones: [] };
      const data = checkCapture(request.body, checklist, video?.duration ?? 86_400);
      const [old] = await db
        .select()
        .from(captures)
        .where(eq(captures.inspectionId, inspection.id));
      if (old) {
        const same = isDeepStrictEqual({ scans: old.scans, motion: old.motion }, data);
        if (!same) throw conflict('Capture data is already attached to this inspection');
        return reply.status(200).send(data);
      }
      await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(captures)
          .values({ inspectionId: inspection.id, scans: data.scans, motion: data.motion })
          .onConflictDoNothing()
          .returning({ id: captures.inspectionId });
        if (!row) throw conflict('Capture data is already attached to this inspection');
        await audit(tx, request, {
          action: 'attach',
          entity: 'capture',
          entityId: inspection.id,
          // The scans are the evidence a reviewer reads; the motion samples are counted.
          newValue: {
            scans: data.scans,
            motionSamples: data.motion?.t.length ?? 0,
            checkpointsScanned: new Set(data.scans.map((s) => s.tagIndex).filter((i) => i !== null))
              .size,
          },
        });
      });
      await refreshSummaries(app.ctx, [inspection.id], request.log);
      return reply.status(201).send(data);
    },
  );

  app.post(
    '/videos/:id/discard',
    {
      config: { access: RECORDERS },
      schema: {
        tags: ['capture'],
        description:
          'The device discarded a recording whose file never arrived: the video becomes `error` and any unfinished upload is removed.',
        params: IdParams,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const [video] = await db
        .select()
        .from(videos)
        .where(
          and(
            eq(videos.id, request.params.id),
            visibleTo(user, { owner: videos.userId, line: videos.lineClearanceId }),
          ),
        );
      if (!video) {
        return hiddenRecord(request, videos, eq(videos.id, request.params.id), notFound('Video'));
      }
      if (video.userId !== user.id) await denied(request, 'not the recorder of this video');
      if (video.sha256) throw conflict('The video file has arrived and been verified');
      if (video.statusReason === DISCARDED) return { message: 'Recording discarded' };
      const removed = await db.transaction(async (tx) => {
        const open = await tx
          .delete(uploads)
          .where(eq(uploads.videoId, video.id))
          .returning({ id: uploads.id, storageKey: uploads.storageKey });
        const [row] = await tx
          .update(videos)
          .set({ status: 'error', statusReason: DISCARDED })
          .where(and(eq(videos.id, video.id), isNull(videos.sha256)))
          .returning();
        if (!row) throw conflict('The video file has arrived and been verified');
        await audit(tx, request, {
          action: 'discard',
          entity: 'video',
          entityId: video.id,
          oldValue: { status: video.status, statusReason: video.statusReason },
          newValue: { status: row.status, statusReason: row.statusReason, uploads: open },
        });
        return open;
      });
      // Files go only after the rows are committed.
      await Promise.all(removed.map((upload) => storage.delete(upload.storageKey)));
      await refreshSummaries(app.ctx, await inspectionsOfVideo(db, video.id), request.log);
      return { message: 'Recording discarded' };
    },
  );

  app.get(
    '/my/lines',
    {
      config: { access: RECORDERS },
      schema: { tags: ['capture'], response: { 200: Type.Array(MyLine), ...errors } },
    },
    async (request) => {
      const user = currentUser(request);
      const lines = await assignedLines(db, user);
      if (lines.length === 0) return [];
      const ids = lines.map((line) => line.id);
      // Only the latest per line: years of an operator's inspections stay in the database.
      const recent = await db
        .selectDistinctOn([inspections.lineClearanceId], {
          id: inspections.id,
          line: inspections.lineClearanceId,
          startTime: inspections.startTime,
          status: inspections.status,
        })
        .from(inspections)
        .where(and(eq(inspections.operatorId, user.id), inArray(inspections.lineClearanceId, ids)))
        // Ties on the start time are broken by id, as in /my/inspections, so both name the same one.
        .orderBy(inspections.lineClearanceId, desc(inspections.startTime), desc(inspections.id));
      return Promise.all(
        lines.map(async (line) => {
          const checklist = await checklistFor(db, line.id);
          const last = recent.find((row) => row.line === line.id);
          return {
            line: toLineClearance(line),
            hasConfiguration: checklist.floorplanConfigId !== null,
            tagCount: checklist.tags.length,
            hotZoneCount: checklist.hotZones.length,
            lastInspection: last
              ? {
                  _id: last.id,
                  startTime: iso(last.startTime),
                  status: last.status as InspectionStatus,
                }
              : null,
          };
        }),
      );
    },
  );

  app.get(
    '/my/lines/:id',
    {
      config: { access: RECORDERS },
      schema: {
        tags: ['capture'],
        params: IdParams,
        response: { 200: MyLineDetail, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const line = await findLine(db, request.params.id);
      if (!(await isAssigned(db, user, line.id))) {
        await denied(request, 'not assigned to this line');
      }
      const others = await db
        .select({ name: lineClearances.name, configuration: floorplanConfigs.configuration })
        .from(floorplanConfigs)
        .innerJoin(lineClearances, eq(lineClearances.id, floorplanConfigs.lineClearanceId))
        .where(ne(floorplanConfigs.lineClearanceId, line.id));
      return {
        line: toLineClearance(line),
        checklist: await checklistFor(db, line.id),
        otherLineTags: others.flatMap((other) =>
          other.configuration.tags.flatMap((tag) =>
            tag.qrCode ? [{ qrCode: tag.qrCode, lineName: other.name }] : [],
          ),
        ),
        minVideoSeconds: reportRules.minVideoSeconds,
      };
    },
  );

  app.get(
    '/my/inspections',
    {
      config: { access: RECORDERS },
      schema: {
        tags: ['capture'],
        querystring: MyInspectionsQuery,
        response: { 200: Type.Array(MyInspection), ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const rows = await db
        .select({
          inspection: inspections,
          lineName: lineClearances.name,
          video: {
            id: videos.id,
            filename: videos.filename,
            status: videos.status,
            statusReason: videos.statusReason,
            sha256: videos.sha256,
            size: videos.size,
          },
          capture: captures.inspectionId,
          signature: signatures,
        })
        .from(inspections)
        .leftJoin(lineClearances, eq(lineClearances.id, inspections.lineClearanceId))
        .leftJoin(videos, eq(videos.id, inspections.videoId))
        .leftJoin(captures, eq(captures.inspectionId, inspections.id))
        .leftJoin(signatures, eq(signatures.inspectionId, inspections.id))
        .where(eq(inspections.operatorId, user.id))
        .orderBy(desc(inspections.startTime), desc(inspections.id))
        .limit(request.query.limit ?? 20);
      return rows.map((row) => ({
        inspection: toInspection(row.inspection, row.signature && toSignature(row.signature)),
        lineName: row.lineName ?? 'Unknown Line',
        video: row.video
          ? {
              _id: row.video.id,
              filename: row.video.filename,
              status: row.video.status as VideoStatus,
              statusReason: row.video.statusReason,
              verified: row.video.sha256 !== null,
              sha256: row.video.sha256,
              size: row.video.size,
            }
          : null,
        hasCapture: row.capture !== null,
      }));
    },
  );

  app.get(
    '/my/devices',
    {
      config: { access: RECORDERS },
      schema: { tags: ['capture'], response: { 200: Type.Array(Device), ...errors } },
    },
    async (request) => {
      const user = currentUser(request);
      const rows = await db
        .select({ device: devices })
        .from(deviceHolders)
        .innerJoin(devices, eq(devices.id, deviceHolders.deviceId))
        .where(eq(deviceHolders.userId, user.id))
        .orderBy(desc(deviceHolders.registeredAt));
      return rows.map((row) => toDevice(row.device));
    },
  );
};
