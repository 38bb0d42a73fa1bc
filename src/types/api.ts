// API shapes come from the server's TypeBox schemas (one source of truth, design.md), imported
// as types only so no server code reaches the browser bundle.
export type { Me as CurrentUser } from '../../server/schemas/auth.ts';
export type { Role } from '../../server/schemas/common.ts';
export type {
  Device,
  DeviceStatus,
  DeviceType,
  DeviceUpdate,
} from '../../server/schemas/devices.ts';
export type { Inspection, InspectionStatus } from '../../server/schemas/inspections.ts';
export type {
  LineClearance,
  LineClearanceCreate,
  LineClearanceStatus,
  LineClearanceUpdate,
} from '../../server/schemas/line-clearances.ts';
export type { User, UserCreate, UserUpdate } from '../../server/schemas/users.ts';
export type {
  Video,
  VideoDeleteResponse as VideoDeletion,
  VideoStatus,
} from '../../server/schemas/videos.ts';
