// Devices: register from a QR label, list, edit, delete (spec §7).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { asc, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { audit } from '../audit/audit.ts';
import { changeReason, noBodyAsEmpty, unchanged, withReason } from '../audit/change-reason.ts';
import { deviceHolders, devices } from '../db/schema.ts';
import { currentUser } from '../http/auth-hook.ts';
import { errorResponses } from '../http/error-responses.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { newId } from '../ids.ts';
import { IdParams, MessageResponse } from '../schemas/common.ts';
import {
  Device,
  DeviceDelete,
  DeviceRegister,
  type DeviceStatus,
  type DeviceType,
  DeviceUpdate,
} from '../schemas/devices.ts';
import { hasRole } from '../services/access.ts';
import { parseDeviceQr } from '../services/device-qr.ts';
import { deleteUnlessNamed, deviceNamedRecords } from '../services/named-records.ts';
import { atVersion, notUpdated } from '../services/record-version.ts';
import { checkpointsByCode, lockCheckpointCodes } from '../services/tag-codes.ts';

type Row = typeof devices.$inferSelect;

export const toDevice = (row: Row): Device => ({
  _id: row.id,
  name: row.name,
  type: row.type as DeviceType | null,
  status: row.status as DeviceStatus,
  qrCode: row.qrCode,
  version: row.version,
});

const errors = errorResponses;
const EDITORS = ['admin', 'factory_manager'] as const;

export const deviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  async function find(id: string) {
    const [row] = await db.select().from(devices).where(eq(devices.id, id));
    if (!row) throw notFound('Device');
    return row;
  }

  app.get(
    '/devices',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['devices'], response: { 200: Type.Array(Device), ...errors } },
    },
    async (request) => {
      const rows = await db.select().from(devices).orderBy(asc(devices.name));
      if (!hasRole(currentUser(request), ...EDITORS)) return rows.map(toDevice);
      // Those who may delete a device see what it recorded, so its card says so before a 409 would.
      const namedRecords = await deviceNamedRecords(db);
      return rows.map((row) => ({ ...toDevice(row), namedIn: namedRecords(row.id) }));
    },
  );

  app.post(
    '/devices',
    {
      config: { access: ['operator', 'lc_manager', 'factory_manager', 'admin'] },
      schema: {
        tags: ['devices'],
        body: DeviceRegister,
        response: { 200: Device, 201: Device, ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const label = parseDeviceQr(request.body.qrCode);
      const row = await db.transaction(async (tx) => {
        // A line checkpoint's label is not a device: scanned as one, it would stay both.
        await lockCheckpointCodes(tx);
        const checkpoint = (await checkpointsByCode(tx)).get(label.serial);
        if (checkpoint) {
          throw badRequest(
            `This QR code is the checkpoint '${checkpoint.tag}' of ${checkpoint.line}, not a device label: scan the label on the phone or tablet`,
          );
        }
        const [created] = await tx
          .insert(devices)
          .values({
            id: newId(),
            name: label.name ?? `Device ${label.serial}`,
            type: label.type,
            status: 'active',
            qrCode: label.serial,
            registeredBy: user.id,
          })
          .onConflictDoNothing({ target: devices.qrCode })
          .returning();
        // Scanning a registered label again is not an error: the device is simply known, and
        // joins this user's list (a shared tablet is every one of its users').
        const device =
          created ?? (await tx.select().from(devices).where(eq(devices.qrCode, label.serial)))[0];
        if (!device) throw notFound('Device');
        const [held] = await tx
          .insert(deviceHolders)
          .values({ deviceId: device.id, userId: user.id })
          .onConflictDoNothing()
          .returning();
        if (created || held) {
          await audit(tx, request, {
            action: created ? 'create' : 'register',
            entity: 'device',
            entityId: device.id,
            newValue: created ? toDevice(created) : { registeredBy: user.id },
          });
        }
        return { device, created: Boolean(created) };
      });
      return reply.status(row.created ? 201 : 200).send(toDevice(row.device));
    },
  );

  app.put(
    '/devices/:id',
    {
      config: { access: EDITORS },
      schema: {
        tags: ['devices'],
        params: IdParams,
        body: DeviceUpdate,
        response: { 200: Device, ...errors },
      },
    },
    async (request) => {
      const body = request.body;
      const reason = changeReason(body.reason, 'the device is changed');
      const old = await find(request.params.id);
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(devices)
          .set({
            name: body.name.trim(),
            type: body.type === undefined ? old.type : body.type,
            status: body.status ?? old.status,
          })
          .where(atVersion('device', old.id, body.version))
          .returning();
        if (!row) throw await notUpdated(tx, request, 'device', old.id, 'Device');
        const [before, after] = [toDevice(old), toDevice(row)];
        if (!unchanged(before, after)) {
          await audit(tx, request, {
            action: 'update',
            entity: 'device',
            entityId: row.id,
            ...withReason(reason, before, after),
          });
        }
        return after;
      });
    },
  );

  app.delete(
    '/devices/:id',
    {
      config: { access: EDITORS },
      preValidation: noBodyAsEmpty,
      schema: {
        tags: ['devices'],
        params: IdParams,
        body: DeviceDelete,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      const reason = changeReason(request.body.reason, 'the device is deleted');
      const old = await find(request.params.id);
      // A video (an inspection's evidence) names the device that recorded it: the device is
      // retired, not deleted, or its records would name an unknown device.
      await deleteUnlessNamed(request, 'device', old.id, async (tx) => {
        await tx.delete(devices).where(eq(devices.id, old.id));
        await audit(tx, request, {
          action: 'delete',
          entity: 'device',
          entityId: old.id,
          ...withReason(reason, toDevice(old)),
        });
      });
      return { message: 'Device deleted' };
    },
  );
};
