// Resumable, verified video uploads (tus 1.0.0, docs/capture.md). @tus/server speaks the protocol;
// this file decides everything else: who may upload what, where the bytes go (the project's
// Storage, under uploads/), the container check on the first bytes, the SHA-256 check at the end,
// expiry, and the audit trail (upload.create, upload.complete, video verify, upload.reject,
// upload.expire).
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, type Hash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { Server } from '@tus/server';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import { and, count, eq, isNull, lt } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { Value } from 'typebox/value';
import { audit } from '../audit/audit.ts';
import type { AppContext } from '../context.ts';
import type { Db, Tx } from '../db/client.ts';
import { uploads, videos } from '../db/schema.ts';
import { denied } from '../http/auth-hook.ts';
import { HttpError } from '../http/errors.ts';
import { storageFailure, storageFailureMessage } from '../http/storage-errors.ts';
import { BODY_RULES, refusedText } from '../http/text-guard.ts';
import { validationMessage } from '../http/validation-message.ts';
import { sendWebResponse, webRequest } from '../http/web-request.ts';
import { newId } from '../ids.ts';
import { inspectionsOfVideo, refreshSummaries } from '../reports/report.ts';
import { refuseIfSignedEvidence, SignedEvidenceError } from '../reports/signed-evidence.ts';
import { CHECKSUM_MISMATCH, UploadMetadata } from '../schemas/uploads.ts';
import { sha256Stored } from '../storage/storage.ts';
import { arrivedFileKey, isAssigned, SAME_FILE, SameFile, sameFileAs } from './capture.ts';
import { hiddenRecord, refusedRead, visibleTo } from './scope.ts';

/** The API request being served, for the store's methods, which @tus/server calls without it. */
const current = new AsyncLocalStorage<FastifyRequest>();

type UploadRow = typeof uploads.$inferSelect;
type Container = 'webm' | 'mp4';

const LATE_FILE = 'its file can no longer be added: discard the recording on the device';
const FILE_TAKEN = 'The video file has already been uploaded and verified';
/** Unfinished uploads one video may have at once. */
export const MAX_OPEN_UPLOADS = 5;

/** Another upload of the same video committed its file first. */
class FileTaken extends Error {
  constructor() {
    super(FILE_TAKEN);
  }
}

/**
 * Why no file may be added to this video any more (its inspection was signed before the file
 * arrived, and the file would change the signed record), or null.
 */
async function lateFileRefusal(db: Db | Tx, videoId: string): Promise<string | null> {
  try {
    await refuseIfSignedEvidence(db, videoId, LATE_FILE);
    return null;
  } catch (error) {
    if (error instanceof SignedEvidenceError) return error.message;
    throw error;
  }
}

/** An error @tus/server answers as it is: `status_code` and a plain-text body. */
class TusError extends Error {
  readonly body: string;
  constructor(
    readonly status_code: number,
    message: string,
  ) {
    super(message);
    this.body = `${message}\n`;
  }
}

/** A video is at least this long (the container check reads this many first bytes). */
export const MIN_VIDEO_BYTES = 64;
const HEAD_BYTES = 12;

/** The container the first bytes announce: EBML magic (WebM) or an ISO-BMFF `ftyp` box (MP4). */
export function sniffContainer(head: Buffer): Container | null {
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  if (head.length >= 8 && head.toString('latin1', 4, 8) === 'ftyp') return 'mp4';
  return null;
}

/** The container of a recording's MIME type (`video/webm;codecs=vp9` → webm), or null. */
export function containerOf(mimeType: string): Container | null {
  const match = /^video\/(webm|mp4)(?:\s*;.*)?$/i.exec(mimeType.trim());
  return match ? (match[1]?.toLowerCase() as Container) : null;
}

/** The metadata a client sent, checked field by field; a 400 names the first bad one. */
function parseMetadata(raw: Record<string, string | null> | undefined): UploadMetadata {
  const metadata = raw ?? {};
  for (const [key, value] of Object.entries(metadata)) {
    // Only the MIME type may hold a slash; nothing may hold NUL or a backslash.
    if (value !== null && (key === 'filetype' ? /[\0\\]/ : /[\0/\\]/).test(value)) {
      throw new TusError(400, `Upload-Metadata.${key} must not contain NUL or a path separator`);
    }
  }
  // Stored in the audit trail and shown: the JSON bodies' rule (no text that displays as other text).
  const refused = refusedText(metadata, 'Upload-Metadata', BODY_RULES);
  if (refused) throw new TusError(400, refused);
  const candidate = Object.fromEntries(
    Object.entries(metadata).filter(([key]) => key in UploadMetadata.properties),
  );
  if (!Value.Check(UploadMetadata, candidate)) {
    const problems = [...Value.Errors(UploadMetadata, candidate)];
    throw new TusError(
      400,
      validationMessage(problems as unknown as FastifySchemaValidationError[], 'Upload-Metadata'),
    );
  }
  return candidate;
}

function requestNow(): FastifyRequest {
  const request = current.getStore();
  if (!request?.user) throw new HttpError(401, 'Authentication required');
  return request;
}

/** The tus data store over the project's Storage and the `uploads` table. */
class VideoUploadStore extends DataStore {
  /** Running hashes of uploads received in order by this process: the end needs no re-read. */
  private readonly hashes = new Map<string, { hash: Hash; offset: number }>();
  /** The row getUpload read for a PATCH, under that request's upload lock: write reads it once. */
  private readonly lockedRows = new WeakMap<FastifyRequest, UploadRow>();

  constructor(private readonly ctx: AppContext) {
    super();
    this.extensions = ['creation', 'expiration'];
  }

  override getExpiration(): number {
    return this.ctx.config.uploadExpiryHours * 3600 * 1000;
  }

  async row(id: string): Promise<UploadRow> {
    const [row] = await this.ctx.db.select().from(uploads).where(eq(uploads.id, id));
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    return row;
  }

  override async create(upload: Upload): Promise<Upload> {
    const request = requestNow();
    const metadata = parseMetadata(upload.metadata);
    const container = containerOf(metadata.filetype) as Container;
    await this.ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(uploads)
        .values({
          id: upload.id,
          videoId: metadata.videoId,
          userId: request.user?.id ?? '',
          size: upload.size ?? 0,
          sha256: metadata.sha256,
          container,
          storageKey: `uploads/${upload.id}`,
        })
        .returning();
      await audit(tx, request, {
        action: 'upload.create',
        entity: 'upload',
        entityId: upload.id,
        newValue: { ...row, filename: metadata.filename ?? null },
      });
    });
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const row = await this.row(id);
    const request = current.getStore();
    if (request) this.lockedRows.set(request, row);
    const offset =
      row.status === 'verified'
        ? row.size
        : ((await this.ctx.storage.stat(row.storageKey))?.size ?? 0);
    // Every byte is here but unverified: the server stopped inside the PATCH that brought the last
    // one. The device resumes with a HEAD, reads a complete upload and deletes its copy, so that
    // HEAD verifies first (and answers the refusal if the file does not match; tus holds the lock).
    if (row.status === 'receiving' && offset === row.size && request?.method === 'HEAD') {
      await this.finish(id);
    }
    return new Upload({
      id,
      size: row.size,
      offset,
      metadata: { videoId: row.videoId, sha256: row.sha256 },
      creation_date: row.createdAt.toISOString(),
    });
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const request = current.getStore();
    const locked = request && this.lockedRows.get(request);
    const row = locked?.id === id ? locked : await this.row(id);
    if (row.status === 'verified') return row.size;
    const running = offset === 0 ? { hash: createHash('sha256'), offset: 0 } : this.hashes.get(id);
    const hashing = running && running.offset === offset ? running : undefined;
    this.hashes.delete(id);
    let head: Buffer | null = offset === 0 ? Buffer.alloc(0) : null;
    let refused: string | null = null;
    let passed = 0;
    const inspect = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        let out = chunk;
        if (head) {
          head = Buffer.concat([head, chunk]);
          // Nothing is written before the first bytes show the container.
          if (head.length < HEAD_BYTES) return done();
          const found = sniffContainer(head);
          if (found !== row.container) {
            refused = found
              ? `The file is ${found}, not the declared ${row.container}`
              : 'The file is not a WebM or MP4 video';
            return done(new TusError(415, refused));
          }
          out = head;
          head = null;
        }
        hashing?.hash.update(out);
        passed += out.length;
        done(null, out);
      },
    });
    stream.on('error', (error) => inspect.destroy(error));
    // A refusal is reported below; the listener keeps an early one (before storage reads) handled.
    inspect.on('error', () => {});
    let size = offset;
    let failure: unknown = null;
    try {
      ({ size } = await this.ctx.storage.append(row.storageKey, stream.pipe(inspect)));
    } catch (error) {
      failure = error;
    }
    if (refused) {
      await this.reject(row, refused);
      throw new TusError(415, refused);
    }
    if (failure) throw failure;
    // Keep the running hash only if exactly what it saw is what the store now holds.
    if (hashing && size === offset + passed)
      this.hashes.set(id, { hash: hashing.hash, offset: size });
    return size;
  }

  /** Hashes the received file (from the running hash when it covers it) and, if it matches, makes it the video's. */
  async finish(id: string): Promise<void> {
    const request = requestNow();
    const row = await this.row(id);
    if (row.status === 'verified') return;
    const running = this.hashes.get(id);
    this.hashes.delete(id);
    const sha256 =
      running && running.offset === row.size
        ? running.hash.digest('hex')
        : await sha256Stored(this.ctx.storage, row.storageKey);
    await audit(this.ctx.db, request, {
      action: 'upload.complete',
      entity: 'upload',
      entityId: id,
      newValue: { videoId: row.videoId, size: row.size, sha256 },
    });
    if (sha256 !== row.sha256) {
      const reason = `SHA-256 mismatch: the server received ${sha256}, the device declared ${row.sha256}`;
      await this.reject(row, reason);
      throw new TusError(
        CHECKSUM_MISMATCH,
        'The received file does not match the SHA-256 the device computed; nothing was kept, upload it again',
      );
    }
    const [video] = await this.ctx.db.select().from(videos).where(eq(videos.id, row.videoId));
    if (!video) throw ERRORS.FILE_NOT_FOUND;
    const late = video.sha256 ? FILE_TAKEN : await lateFileRefusal(this.ctx.db, video.id);
    if (late) {
      await this.reject(row, late);
      throw new TusError(409, late);
    }
    // The file moves first: if the commit below fails, the device still holds its copy and uploads
    // again. Its key is this upload's own; only the one the commit names becomes the video's file.
    const fileKey = arrivedFileKey(video.id, id, path.extname(video.storageKey));
    await this.ctx.storage.move(row.storageKey, fileKey);
    try {
      await this.commitFile(request, row, video, sha256, fileKey);
    } catch (error) {
      // Signed meanwhile, another upload of the video won, or the file is another video's: this
      // file does not join the record.
      const refused =
        error instanceof SignedEvidenceError ||
        error instanceof FileTaken ||
        error instanceof SameFile;
      if (!refused) throw error;
      await this.ctx.storage.delete(fileKey);
      await this.reject(
        row,
        error instanceof SameFile
          ? `${error.message} (video ${error.otherVideoId})`
          : error.message,
      );
      throw new TusError(409, error.message);
    }
    this.ctx.caches?.videoLists.invalidate();
    this.ctx.analysis.wake();
    // The report no longer waits for the file; its analysis will update the summary again.
    await refreshSummaries(this.ctx, await inspectionsOfVideo(this.ctx.db, video.id), request.log);
  }

  /** Makes the moved file the video's, audited, with its analysis queued: one transaction. */
  private async commitFile(
    request: FastifyRequest,
    row: UploadRow,
    video: typeof videos.$inferSelect,
    sha256: string,
    fileKey: string,
  ): Promise<void> {
    const { id } = row;
    await this.ctx.db.transaction(async (tx) => {
      // Under the inspection's lock: a signature given since the check above wins.
      await refuseIfSignedEvidence(tx, video.id, LATE_FILE);
      const [updated] = await tx
        .update(videos)
        .set({ sha256, size: row.size, storageKey: fileKey })
        .where(and(eq(videos.id, video.id), isNull(videos.sha256)))
        .returning();
      if (!updated) throw new FileTaken();
      // Checked under the commit, so two uploads of one file for two videos cannot both land.
      const other = await sameFileAs(tx, sha256, video.id);
      if (other) throw new SameFile(other);
      await tx.update(uploads).set({ status: 'verified' }).where(eq(uploads.id, id));
      await audit(tx, request, {
        action: 'verify',
        entity: 'video',
        entityId: video.id,
        oldValue: { sha256: video.sha256, size: video.size, storageKey: video.storageKey },
        newValue: { sha256, size: row.size, storageKey: fileKey, upload: id },
      });
      // Queued in the same transaction: a verified video is never left without its analysis.
      await this.ctx.analysis.enqueue(video.id, request.user?.id ?? null, tx);
    });
  }

  /** Removes a refused upload, its bytes and its running hash; the audit log keeps why. */
  private async reject(row: UploadRow, reason: string): Promise<void> {
    this.hashes.delete(row.id);
    await this.ctx.db.transaction(async (tx) => {
      await tx.delete(uploads).where(eq(uploads.id, row.id));
      await audit(tx, current.getStore() ?? null, {
        action: 'upload.reject',
        entity: 'upload',
        entityId: row.id,
        oldValue: row,
        newValue: { reason },
      });
    });
    await this.ctx.storage.delete(row.storageKey);
  }

  override async deleteExpired(): Promise<number> {
    const cutoff = new Date(Date.now() - this.getExpiration());
    const expired = await this.ctx.db
      .select()
      .from(uploads)
      .where(and(eq(uploads.status, 'receiving'), lt(uploads.createdAt, cutoff)));
    for (const row of expired) {
      this.hashes.delete(row.id);
      const received = (await this.ctx.storage.stat(row.storageKey))?.size ?? 0;
      await this.ctx.db.transaction(async (tx) => {
        await tx.delete(uploads).where(eq(uploads.id, row.id));
        await audit(tx, null, {
          action: 'upload.expire',
          entity: 'upload',
          entityId: row.id,
          oldValue: row,
          newValue: { received },
        });
      });
      await this.ctx.storage.delete(row.storageKey);
    }
    return expired.length;
  }
}

/** Checks a new upload: metadata, the caller's right to upload this video, its size. */
async function checkCreate(ctx: AppContext, upload: Upload): Promise<void> {
  const request = requestNow();
  const user = request.user as NonNullable<FastifyRequest['user']>;
  const metadata = parseMetadata(upload.metadata);
  if (!containerOf(metadata.filetype)) {
    throw new TusError(415, 'Upload-Metadata filetype must be a WebM or MP4 video type');
  }
  if ((upload.size ?? 0) < MIN_VIDEO_BYTES) {
    throw new TusError(400, `Upload-Length must be at least ${MIN_VIDEO_BYTES} bytes`);
  }
  const [video] = await ctx.db
    .select()
    .from(videos)
    .where(
      and(
        eq(videos.id, metadata.videoId),
        visibleTo(user, { owner: videos.userId, line: videos.lineClearanceId }),
      ),
    );
  if (!video) {
    return hiddenRecord(
      request,
      videos,
      eq(videos.id, metadata.videoId),
      new TusError(404, 'Video not found'),
    );
  }
  if (video.userId !== user.id) await denied(request, 'not the recorder of this video');
  if (!video.lineClearanceId || !(await isAssigned(ctx.db, user, video.lineClearanceId))) {
    await denied(request, 'not assigned to the video’s line');
  }
  if (video.sha256) throw new TusError(409, FILE_TAKEN);
  // Each upload may be resumed until it expires; more than a few of one video is no device's.
  const [open] = await ctx.db
    .select({ n: count() })
    .from(uploads)
    .where(and(eq(uploads.videoId, video.id), eq(uploads.status, 'receiving')));
  if ((open?.n ?? 0) >= MAX_OPEN_UPLOADS) {
    throw new TusError(
      409,
      `This video already has ${MAX_OPEN_UPLOADS} unfinished uploads: resume one of them`,
    );
  }
  const other = await sameFileAs(ctx.db, metadata.sha256, video.id);
  if (other) {
    await ctx.refusals.record(request, new SameFile(other).reason, 'evidence.protected', {
      entity: 'video',
      entityId: video.id,
    });
    throw new TusError(409, SAME_FILE);
  }
  const late = await lateFileRefusal(ctx.db, video.id);
  if (late) throw new TusError(409, late);
  if (video.status === 'error')
    throw new TusError(409, `The video is in error: ${video.statusReason}`);
  if (containerOf(metadata.filetype) !== video.filename.split('.').pop()) {
    throw new TusError(415, 'Upload-Metadata filetype does not match the video’s container');
  }
}

/** Only the user who created an upload may resume, inspect or finish it; others get 404. */
async function checkOwner(store: VideoUploadStore, id: string): Promise<void> {
  const request = requestNow();
  const row = await store.row(id);
  if (row.userId !== request.user?.id) {
    await refusedRead(request, 'an upload');
    throw ERRORS.FILE_NOT_FOUND;
  }
}

export interface VideoUploads {
  /** Serves one tus request (the caller has authenticated it and handed over the raw streams). */
  handle(request: FastifyRequest, res: ServerResponse): Promise<void>;
  /** Removes unfinished uploads older than the expiry; answers how many. */
  expire(): Promise<number>;
}

export function createVideoUploads(
  ctx: AppContext,
  log: FastifyBaseLogger,
  path: string,
): VideoUploads {
  const store = new VideoUploadStore(ctx);
  const tus = new Server({
    path,
    datastore: store,
    relativeLocation: true,
    maxSize: ctx.config.maxVideoBytes,
    namingFunction: () => newId(),
    onUploadCreate: async (_req, upload) => {
      await checkCreate(ctx, upload);
      return {};
    },
    onIncomingRequest: async (req, id) => {
      if (req.method !== 'POST') await checkOwner(store, id);
    },
    onUploadFinish: async (_req, upload) => {
      await store.finish(upload.id);
      return {};
    },
    onResponseError: (req, error) => {
      if (error instanceof HttpError)
        return { status_code: error.statusCode, body: `${error.message}\n` };
      if ('status_code' in error) return undefined;
      // A full or read-only disk is the administrator's to fix: 507 in the words of the app's
      // error handler (app.ts), the upload resumable from what reached the disk. Anything else is
      // our fault (500). Details go to the log, never to the client.
      const storage = storageFailure(error);
      log.error(
        { err: error },
        storage
          ? `upload request failed: the storage is ${storage.problem}`
          : 'upload request failed',
      );
      if (storage) {
        return { status_code: 507, body: `${storageFailureMessage(storage, req.method, true)}\n` };
      }
      return { status_code: 500, body: 'Internal server error\n' };
    },
  });
  return {
    handle: (request, res) =>
      current.run(request, async () =>
        sendWebResponse(res, await tus.handleWeb(webRequest(request.raw))),
      ),
    expire: () => store.deleteExpired(),
  };
}
