import { type Static, Type } from 'typebox';
import { ChangeReason, DeleteReasonBody } from './change-reason.ts';
import { Id, OneLine } from './common.ts';
import { DeviceNamedIn } from './named-records.ts';
import { ExpectedVersion, Version } from './version.ts';

export const DeviceType = Type.Union([
  Type.Literal('camera'),
  Type.Literal('sensor'),
  Type.Literal('monitor'),
  Type.Literal('controller'),
]);
export type DeviceType = Static<typeof DeviceType>;

export const DeviceStatus = Type.Union([
  Type.Literal('active'),
  Type.Literal('inactive'),
  Type.Literal('maintenance'),
  Type.Literal('offline'),
]);
export type DeviceStatus = Static<typeof DeviceStatus>;

export const Device = Type.Object({
  _id: Id,
  name: Type.String(),
  type: Type.Union([DeviceType, Type.Null()]),
  status: DeviceStatus,
  qrCode: Type.String(),
  version: Version,
  /** GET /api/devices to admins and factory managers only. */
  namedIn: Type.Optional(DeviceNamedIn),
});
export type Device = Static<typeof Device>;

export const MAX_DEVICE_NAME_LENGTH = 200;
const Name = OneLine(MAX_DEVICE_NAME_LENGTH);

/**
 * PUT /api/devices/{id}: the whole device and why it is changed; `_id`, `qrCode` and unknown fields
 * are ignored.
 */
export const DeviceUpdate = Type.Object({
  name: Name,
  type: Type.Optional(Type.Union([DeviceType, Type.Null()])),
  status: Type.Optional(DeviceStatus),
  version: ExpectedVersion,
  reason: ChangeReason('device', 'changed'),
});
export type DeviceUpdate = Static<typeof DeviceUpdate>;

/** DELETE /api/devices/{id}: why (optional). */
export const DeviceDelete = DeleteReasonBody('device');

/**
 * POST /api/devices: register the device whose QR label was scanned. `qrCode` is the label's text
 * exactly as decoded: either a bare serial (letters, digits, `.`, `_`, `:`, `-`) or JSON
 * `{"serial": "...", "name"?: "...", "type"?: "camera"|...}` (docs/server.md). Registering a
 * known serial again answers the existing device with 200; a new one gets 201.
 */
export const DeviceRegister = Type.Object({
  qrCode: Type.String({ minLength: 1, maxLength: 1000 }),
});
export type DeviceRegister = Static<typeof DeviceRegister>;
