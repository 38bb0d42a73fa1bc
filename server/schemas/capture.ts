// What the operator's phone records beside the video (docs/design: "The inspection loop"): the
// line's checklist as it stood when the inspection began, the QR scans and the motion samples,
// all on the video's clock. Capture writes these records; the analysis reads them; the
// inspection report shows them.
import { type Static, Type } from 'typebox';
import { HotZone, Tag } from './floorplan-configs.ts';

/** Seconds from the start of the recording (the video's own clock). */
const VideoTime = Type.Number({ minimum: 0, maximum: 86_400 });

/**
 * The line's floor-plan configuration items at the start of the inspection, copied so that a later
 * edit of the configuration never changes what this inspection was checked against. Positions are
 * the configuration's display pixels; `index` is the item's position in the configuration.
 */
export const ChecklistSnapshot = Type.Object({
  floorplanConfigId: Type.Union([Type.String({ maxLength: 24 }), Type.Null()]),
  tags: Type.Array(Type.Intersect([Tag, Type.Object({ index: Type.Integer({ minimum: 0 }) })]), {
    maxItems: 1000,
  }),
  hotZones: Type.Array(
    Type.Intersect([HotZone, Type.Object({ index: Type.Integer({ minimum: 0 }) })]),
    { maxItems: 1000 },
  ),
});
export type ChecklistSnapshot = Static<typeof ChecklistSnapshot>;

/** One decoded QR code. A repeat scan of the same tag is kept (it is evidence), not counted twice. */
export const QrScan = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 1000 }),
  videoTime: VideoTime,
  /** When the phone decoded it (UTC). */
  at: Type.String({ format: 'date-time' }),
  /** Index into the checklist's tags when the code is one of this line's tags, else null. */
  tagIndex: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
});
export type QrScan = Static<typeof QrScan>;

/** At most 30 minutes at 60 Hz. */
export const maxMotionSamples = 108_000;
const Column = (description: string) =>
  Type.Array(Type.Number(), { maxItems: maxMotionSamples, description });

/**
 * Device motion and orientation, one column per quantity and one entry per sample (columns, not
 * objects: a 10-minute walk at 60 Hz is 36,000 samples). All columns have the same length.
 */
export const MotionSamples = Type.Object({
  t: Column('video time of the sample, seconds, non-decreasing'),
  /** DeviceMotionEvent.accelerationIncludingGravity, m/s², device frame. */
  ax: Column('acceleration including gravity along the device x axis, m/s²'),
  ay: Column('acceleration including gravity along the device y axis, m/s²'),
  az: Column('acceleration including gravity along the device z axis, m/s²'),
  /** DeviceOrientationEvent alpha/beta/gamma, degrees (alpha: compass-like heading about z). */
  alpha: Column('orientation alpha, degrees 0–360'),
  beta: Column('orientation beta, degrees −180–180'),
  gamma: Column('orientation gamma, degrees −90–90'),
  /** True when alpha is relative to magnetic north (deviceorientationabsolute or iOS compass). */
  absolute: Type.Boolean(),
});
export type MotionSamples = Static<typeof MotionSamples>;

export const CaptureData = Type.Object({
  scans: Type.Array(QrScan, { maxItems: 10_000 }),
  motion: Type.Union([MotionSamples, Type.Null()]),
});
export type CaptureData = Static<typeof CaptureData>;
