import { type Static, Type } from 'typebox';
import { ChangeReason, DeleteReasonBody } from './change-reason.ts';
import { Id, OneLine } from './common.ts';
import { LineNamedIn } from './named-records.ts';
import { ExpectedVersion, Version } from './version.ts';

export const LineClearanceStatus = Type.Union([
  Type.Literal('active'),
  Type.Literal('inactive'),
  Type.Literal('maintenance'),
]);
export type LineClearanceStatus = Static<typeof LineClearanceStatus>;

/** A line's status in a sentence ('the line is under maintenance'), for the server and the app. */
export const lineStatusWords = (status: string) =>
  status === 'maintenance' ? 'under maintenance' : status;

/** A line clearance (also called an area). */
export const LineClearance = Type.Object({
  _id: Id,
  name: Type.String(),
  description: Type.String(),
  location: Type.String(),
  status: LineClearanceStatus,
  managerId: Type.Union([Id, Type.Null()]),
  assignedOperators: Type.Array(Id),
  version: Version,
  /** GET /api/line-clearances to admins, factory managers and LC managers only. */
  namedIn: Type.Optional(LineNamedIn),
});
export type LineClearance = Static<typeof LineClearance>;

/** The most characters each typed field takes (the web app's fields say them as they are typed). */
export const LINE_CLEARANCE_LIMITS = { name: 200, text: 2000 } as const;
const Name = OneLine(LINE_CLEARANCE_LIMITS.name);
const Text = Type.String({ maxLength: LINE_CLEARANCE_LIMITS.text });

/** POST /api/line-clearances and POST /api/areas. An LC manager always becomes the manager. */
export const LineClearanceCreate = Type.Object({
  name: Name,
  description: Type.Optional(Text),
  location: Type.Optional(Text),
  status: Type.Optional(LineClearanceStatus),
  managerId: Type.Optional(Type.Union([Id, Type.Null()])),
  assignedOperators: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
});
export type LineClearanceCreate = Static<typeof LineClearanceCreate>;

/**
 * PUT /api/line-clearances/{id}: the whole edited record (a create's fields and the version it was
 * opened at) and why it is changed; `_id` and unknown fields are ignored, missing optional fields
 * keep their values.
 */
export const LineClearanceUpdate = Type.Object({
  ...LineClearanceCreate.properties,
  version: ExpectedVersion,
  reason: ChangeReason('line clearance', 'changed'),
});
export type LineClearanceUpdate = Static<typeof LineClearanceUpdate>;

/** DELETE /api/line-clearances/{id}: why (optional). */
export const LineClearanceDelete = DeleteReasonBody('line clearance');
