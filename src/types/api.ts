// API shapes come from the server's TypeBox schemas (one source of truth, design.md), imported
// as types only so no server code reaches the browser bundle.
export type { AnalysisRow } from '../../server/schemas/analysis.ts';
export type {
  AuditEntry,
  AuditFacets,
  AuditQuery,
  TrailVerification,
} from '../../server/schemas/audit-log.ts';
export type {
  LoginResponse,
  LogoutReason,
  Me as CurrentUser,
  RenewResponse,
} from '../../server/schemas/auth.ts';
export type {
  CaptureData,
  ChecklistSnapshot,
  MotionSamples,
  QrScan,
} from '../../server/schemas/capture.ts';
export type { Role } from '../../server/schemas/common.ts';
export type {
  Device,
  DeviceStatus,
  DeviceType,
  DeviceUpdate,
} from '../../server/schemas/devices.ts';
export type {
  Camera,
  CoordinateSystem,
  FloorplanConfig,
  FloorplanConfigSave,
  FloorplanConfiguration,
  HotZone,
  Tag,
} from '../../server/schemas/floorplan-configs.ts';
export type { Floorplan } from '../../server/schemas/floorplans.ts';
export type {
  Inspection,
  InspectionCreate,
  InspectionCreated,
  InspectionStatus,
  ListedInspection,
} from '../../server/schemas/inspections.ts';
export type {
  LineClearance,
  LineClearanceCreate,
  LineClearanceStatus,
  LineClearanceUpdate,
} from '../../server/schemas/line-clearances.ts';
export type {
  MyInspection,
  MyLine,
  MyLineDetail,
} from '../../server/schemas/operator.ts';
export type { Prediction } from '../../server/schemas/predictions.ts';
export type {
  ChecklistTag,
  ChecklistZone,
  Coverage,
  Disposition,
  Flag,
  InspectionReport,
  ReplacedDecision,
  ReportDetection,
  ReportFilters,
  ReportPage,
  ReportRow,
  ReportsQuery,
  SignatureCheck,
} from '../../server/schemas/reports.ts';
export type { LineOverview, LinesOverview } from '../../server/schemas/reports-overview.ts';
export type {
  LockedAccount,
  SecurityAlerts,
  SecurityAlertsReview,
} from '../../server/schemas/security-alerts.ts';
export type { Signature } from '../../server/schemas/signatures.ts';
export type {
  User,
  UserCreate,
  UserStatus,
  UserUpdate,
} from '../../server/schemas/users.ts';
export type {
  AdminVideo,
  Video,
  VideoDeleteResponse as VideoDeletion,
  VideoStatus,
} from '../../server/schemas/videos.ts';
