import { type Static, Type } from 'typebox';
import { ChangeReason } from './change-reason.ts';
import { Id, OneLine, OneLineCode } from './common.ts';
import { ExpectedVersionOrNone, Version } from './version.ts';

// Coordinates are display pixels of the calibrator (or map units for slamPoints); bounded so a
// stored configuration can always be drawn.
const Coord = Type.Number({ minimum: -1e6, maximum: 1e6 });
// Names are what the report prints ('Tag not scanned: {name}'): never blank, nothing hidden.
const Label = OneLine(200);
const Text = Type.String({ maxLength: 2000 });
const Color = Type.String({ maxLength: 50 });

export const Importance = Type.Union([
  Type.Literal('low'),
  Type.Literal('medium'),
  Type.Literal('high'),
  Type.Literal('critical'),
]);
export type Importance = Static<typeof Importance>;

export const HotZone = Type.Object({
  x: Coord,
  y: Coord,
  width: Type.Number({ minimum: 0, maximum: 1e6 }),
  height: Type.Number({ minimum: 0, maximum: 1e6 }),
  name: Label,
  description: Type.Optional(Text),
  color: Type.Optional(Color),
  importance: Type.Optional(Importance),
});
export type HotZone = Static<typeof HotZone>;

export const Tag = Type.Object({
  x: Coord,
  y: Coord,
  name: Label,
  qrCode: Type.Optional(OneLineCode(1000)),
  color: Type.Optional(Color),
  description: Type.Optional(Text),
  id: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Number()])),
  type: Type.Optional(Type.String({ maxLength: 100 })),
  status: Type.Optional(Type.String({ maxLength: 100 })),
});
export type Tag = Static<typeof Tag>;

export const CameraType = Type.Union([
  Type.Literal('thermal'),
  Type.Literal('panoramic'),
  Type.Literal('ptz'),
  Type.Literal('dome'),
  Type.Literal('bullet'),
  Type.Literal('wireless'),
  Type.Literal('standard'),
]);

export const Camera = Type.Object({
  x: Coord,
  y: Coord,
  name: Label,
  type: Type.Optional(CameraType),
  color: Type.Optional(Color),
  description: Type.Optional(Text),
});
export type Camera = Static<typeof Camera>;

export const CoordinateSystem = Type.Object({
  useSimpleMapping: Type.Optional(Type.Boolean()),
  sourceImageWidth: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6 })),
  sourceImageHeight: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6 })),
  pixelsPerMeter: Type.Optional(Type.Number({ minimum: 0.1, maximum: 1e6 })),
});
export type CoordinateSystem = Static<typeof CoordinateSystem>;

const Point = Type.Array(Coord, { minItems: 2, maxItems: 2 });

/** spec §3 configuration; slamPoints/floorplanPoints/forceAffine/yAxisFlip align the path. */
export const FloorplanConfiguration = Type.Object({
  floorplanImage: Type.Optional(Type.String({ maxLength: 2000 })),
  displaySize: Type.Object({
    width: Type.Number({ minimum: 1, maximum: 1e5 }),
    height: Type.Number({ minimum: 1, maximum: 1e5 }),
  }),
  hotZones: Type.Array(HotZone, { maxItems: 1000 }),
  tags: Type.Array(Tag, { maxItems: 1000 }),
  cameras: Type.Array(Camera, { maxItems: 1000 }),
  coordinateSystem: CoordinateSystem,
  slamPoints: Type.Optional(Type.Array(Point, { maxItems: 100 })),
  floorplanPoints: Type.Optional(Type.Array(Point, { maxItems: 100 })),
  forceAffine: Type.Optional(Type.Boolean()),
  yAxisFlip: Type.Optional(Type.Boolean()),
});
export type FloorplanConfiguration = Static<typeof FloorplanConfiguration>;

/**
 * POST /api/floorplan-configs: saves (replaces) the configuration of a line clearance. `version`:
 * the saved configuration's the wizard opened, or 0 when none was saved (docs/api-contract.md
 * "Versions").
 * `reason`: why a saved configuration is replaced (its tags and hot zones are the line's checklist).
 */
export const FloorplanConfigSave = Type.Object({
  lineClearanceId: Id,
  name: OneLine(300),
  configuration: FloorplanConfiguration,
  floorplanId: Type.Optional(Id),
  version: ExpectedVersionOrNone,
  reason: ChangeReason('floor-plan configuration', 'changed'),
});
export type FloorplanConfigSave = Static<typeof FloorplanConfigSave>;

export const FloorplanConfig = Type.Object({
  _id: Id,
  lineClearanceId: Id,
  floorplanId: Type.Union([Id, Type.Null()]),
  name: Type.String(),
  configuration: FloorplanConfiguration,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  /** Absent from a signed record's kept configuration, which is never saved again. */
  version: Type.Optional(Version),
});
export type FloorplanConfig = Static<typeof FloorplanConfig>;
