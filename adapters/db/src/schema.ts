import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
import type {
  AuthorKind,
  ConsentStatus,
  ConversationStatus,
  Gender,
  LiveEventType,
  NotificationKind,
  QuizMode,
  Race,
  Relation,
  StaffType,
  TokenPurpose,
  UserStatus,
  UserType,
} from "@crown/core";
import type { AnalysisSummary, Attachment, ModelAnswer, PhotoGeometry, ReportStatus, UploadCut } from "@crown/core/report/index";
import type { Language } from "@crown/core/shared/i18n";
import type { DataExportStatus } from "@crown/core/family-data/lifecycle";
import type { CeremonyPurpose } from "@crown/core/accounts/second-factor-model";
import type { NoticeKey, NoticeParams } from "@crown/core/i18n/mails/notices";

/**
 * Table types of the database, as Kysely sees them: every table of the migrations, in one `Database`
 * (repositories query any of them through the one `run` of executor.ts). Columns are snake_case; repositories map rows
 * to the core's camelCase objects at the edge. Timestamps are `timestamptz` and come back as `Date`.
 * Driver conventions (both PostgreSQL and PGlite, see connect.ts): `int8` and `numeric` come back
 * as `number`, `date` as a `YYYY-MM-DD` string.
 */

/** A timestamptz column: read as Date, written as Date (or an ISO string). */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamptz column with a database default (`now()`). */
export type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** A `created_at` column: set by the database default (or given once), never updated. */
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** A jsonb column: written as JSON text, read back parsed by both drivers. */
export type Json<T> = ColumnType<T, string, string>;
/** An int8 column (the drivers read it as a number). */
export type BigCount = ColumnType<number, number, number>;

export interface UsersTable {
  /** The ULID identifier used on the wire. */
  id: string;
  /** Always lower-case (a check constraint holds it). */
  email: string;
  password_hash: string;
  type: UserType;
  status: UserStatus;
  first_name: string;
  last_name: string;
  phone: string | null;
  fax_number: string | null;
  email_verified_at: Timestamp | null;
  password_changed_at: Timestamp;
  photo_key: string | null;
  photo_type: string | null;
  disclaimer_accepted_at: Timestamp | null;
  baa_signed_at: Timestamp | null;
  quiz_passed_at: Timestamp | null;
  npi: string | null;
  practice_verified_at: Timestamp | null;
  practice_verified_by: string | null;
  /** The account's language (ADR 77); a check constraint keeps it to Crown's languages. */
  language: ColumnType<Language, Language | undefined, Language>;
  /** Since when the account has a second factor (issue 44); null: none. */
  second_factor_at: Timestamp | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: GeneratedTimestamp;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token_digest: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  idle_timeout_seconds: number | null;
  revoked_at: Timestamp | null;
  device_type: string;
  last_proof_at: Timestamp;
  second_factor_at: Timestamp | null;
}

/** An account's authenticator app (issue 44): sealed secrets only, a new app pending until its first code. */
export interface TotpFactorsTable {
  user_id: string;
  sealed_secret: string | null;
  confirmed_at: Timestamp | null;
  last_step: ColumnType<string | number | null, number | null, number | null>;
  pending_secret: string | null;
  pending_at: Timestamp | null;
}

/** Recovery codes as keyed digests, each spent once. */
export interface RecoveryCodesTable {
  user_id: string;
  digest: string;
  created_at: Timestamp;
  used_at: Timestamp | null;
}

export interface PasskeysTable {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: Buffer;
  counter: ColumnType<string | number, number, number>;
  transports: ColumnType<string[], unknown, unknown>;
  device_type: string;
  backed_up: boolean;
  name: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

export interface PasskeyCeremoniesTable {
  digest: string;
  purpose: CeremonyPurpose;
  user_id: string | null;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
}

export interface OneTimeTokensTable {
  id: string;
  user_id: string;
  purpose: TokenPurpose;
  digest: string;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/** Append-only: a trigger refuses UPDATE, DELETE and TRUNCATE. */
export interface AuditEventsTable {
  id: Generated<number>;
  at: ColumnType<Date, Date | string | undefined, never>;
  action: ColumnType<string, string, never>;
  actor_id: ColumnType<string | null, string | null | undefined, never>;
  subject_id: ColumnType<string | null, string | null | undefined, never>;
  ip: ColumnType<string | null, string | null | undefined, never>;
  request_id: ColumnType<string | null, string | null | undefined, never>;
  /** The physician a staff member (or kiosk) acted for. */
  on_behalf_of: ColumnType<string | null, string | null | undefined, never>;
  /** Written as a JSON string (see repositories), read back as an object. */
  details: ColumnType<Record<string, unknown>, string | undefined, never>;
}

/** A call made with an Idempotency-Key and its answer (ADR 0141). */
export interface IdempotencyKeysTable {
  user_id: string;
  operation: string;
  key: string;
  answer: unknown;
  created_at: Generated<Timestamp>;
}

export interface RateLimitBucketsTable {
  key: string;
  window_start: Timestamp;
  count: number;
}

// ---- chat (queried by repositories/chat.ts) ------------------------------------------------------------------------

export interface ChatConversationsTable {
  id: string;
  user_id: string | null;
  visitor_email: string | null;
  visitor_name: string | null;
  status: ConversationStatus;
  assignee_id: string | null;
  last_message_at: Timestamp | null;
  closed_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ChatMessagesTable {
  id: string;
  conversation_id: string;
  author_kind: AuthorKind;
  author_id: string | null;
  text: string;
  created_at: CreatedAt;
  read_at: Timestamp | null;
  emailed_at: Timestamp | null;
}

export interface ChatAttachmentsTable {
  id: string;
  message_id: string;
  conversation_id: string;
  blob_key: string;
  mime: string;
  size: number;
  file_name: string;
  created_at: CreatedAt;
}

export interface ChatVisitorTokensTable {
  id: string;
  conversation_id: string;
  digest: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
}


// ---- kiosk (queried by repositories/kiosk.ts) ------------------------------------------------------------------------

export interface KioskDevicesTable {
  id: string;
  physician_id: string;
  name: string;
  created_by: string | null;
  created_at: CreatedAt;
  pairing_digest: string | null;
  pairing_expires_at: Timestamp | null;
  credential_digest: string | null;
  paired_at: Timestamp | null;
  last_seen_at: Timestamp | null;
  revoked_at: Timestamp | null;
  revoked_by: string | null;
  /** One of core's REVOCATION_REASONS; null when none was given (migration 2026-11-29T0300). */
  revocation_reason: string | null;
}

export interface KioskPinsTable {
  user_id: string;
  pin_hash: string;
  updated_at: Timestamp;
}

export interface KioskSessionsTable {
  id: string;
  device_id: string;
  staff_id: string;
  physician_id: string;
  token_digest: string;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  ended_at: Timestamp | null;
}

/** Migration 2026-11-23T1940: a parent's single-use code for the kiosk. */
export interface KioskBabyCodesTable {
  digest: string;
  baby_id: string;
  issued_by: string | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}


// ---- onboarding (queried by repositories/onboarding.ts) ------------------------------------------------------------------------

export interface BabiesTable {
  id: string;
  parent_id: string | null;
  physician_id: string | null;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  /** `date`: read back as `YYYY-MM-DD` text (connect.ts). */
  date_of_birth: string;
  relation: Relation | null;
  gender: Gender | null;
  ethnicity: Race | null;
  nicu_time: number | null;
  previous_condition: string | null;
  referral_code: string | null;
  caregiver_email: string | null;
  caregiver_phone: string | null;
  created_by: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface DelegationsTable {
  id: string;
  physician_id: string;
  staff_id: string;
  staff_type: StaffType;
  created_by: string;
  created_at: CreatedAt;
  /** Null while an existing account has not accepted the practice's offer (ADR 56). */
  accepted_at: Timestamp | null;
  ended_at: Timestamp | null;
  ended_by: string | null;
}

/** A practice's request to link a patient to an existing parent's account (ADR 56). */
export interface PatientLinkRequestsTable {
  id: string;
  baby_id: string;
  physician_id: string;
  parent_id: string;
  requested_by: string;
  status: ConsentStatus;
  created_at: CreatedAt;
  answered_at: Timestamp | null;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  kind: NotificationKind;
  text: string;
  /** The message's key and parameters (migration 2026-11-24T1600); null on older notifications. */
  message_key: NoticeKey | null;
  message_params: Json<NoticeParams> | null;
  subject_id: string | null;
  read_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface BaaSignaturesTable {
  id: string;
  user_id: string;
  name: string;
  email: string;
  covered_entity: string;
  text_version: string;
  ip: string | null;
  signed_at: Timestamp;
}

export interface QuizAttemptsTable {
  id: string;
  user_id: string;
  mode: QuizMode;
  score: number;
  total: number;
  passed: boolean;
  at: Timestamp;
}

export interface MarketingLeadsTable {
  id: string;
  parent_id: string;
  physician_name: string | null;
  baby_name: string | null;
  created_at: CreatedAt;
}


// ---- removal (queried by repositories/removal.ts) ------------------------------------------------------------------------

export interface AccountRemovalRequestsTable {
  id: string;
  user_id: string;
  reason: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  /** Migration 2026-11-28T2033: the end of the grace period, and an administrator's legal hold. */
  erase_after: Timestamp;
  held_at: Timestamp | null;
  held_by: string | null;
  hold_reason: string | null;
}

/** Migration 2026-11-28T2031: what a session was opened from (the profile's signed-in devices). */
export interface SessionDevicesTable {
  session_id: string;
  user_agent: string | null;
  address: string | null;
}

/** Migration 2026-11-28T2032: a parent's archive of their family's data. */
export interface DataExportsTable {
  id: string;
  user_id: string;
  status: DataExportStatus;
  items_done: number;
  items_total: number;
  blob_key: string | null;
  size: ColumnType<string | number | null, number | null | undefined, number | null>;
  link_digest: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  ready_at: Timestamp | null;
  expires_at: Timestamp | null;
  downloaded_at: Timestamp | null;
}


// ---- reports (queried by repositories/reports.ts) ------------------------------------------------------------------------

export interface ReportsTable {
  id: string;
  baby_id: string;
  baby_name: string;
  uploader_id: string;
  physician_id: string | null;
  analysis_type: string;
  status: ReportStatus;
  round: number;
  submitted_at: Timestamp | null;
  analyzed_at: Timestamp | null;
  published_at: Timestamp | null;
  reviewer_id: string | null;
  review_note: string | null;
  recapture_reasons: Json<string[]>;
  analysis: Json<AnalysisSummary> | null;
  upload_cut: Json<UploadCut> | null;
  version: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AttachmentsTable {
  id: string;
  report_id: string;
  round: number;
  kind: Attachment["kind"];
  file_name: string;
  extension: string;
  mime: string;
  size: BigCount;
  sha256: string;
  blob_key: string;
  source_id: string | null;
  frame_time: number | null;
  created_at: Timestamp;
}

export interface MeasurementsTable {
  attachment_id: string;
  report_id: string;
  round: number;
  accepted: boolean;
  /** null only on rows written before the verdict had three outcomes (the migration fills them). */
  verdict: "accept" | "retake" | "refer" | null;
  reasons: Json<string[]>;
  quality_margin: number | null;
  ci: number | null;
  cvai: number | null;
  cva_mm: number | null;
  geometry: Json<PhotoGeometry> | null;
  error: string | null;
  decision: "accepted" | "rejected" | null;
  nose_corrected: boolean;
  /** The model that measured, at measuring time (migration 2026-11-24T1520); null before it was recorded. */
  model_name: string | null;
  model_version: string | null;
  /** A reviewer's correction (migration 2026-11-28T2010): the model's own answer kept beside it. */
  outline_corrected: Generated<boolean>;
  model_answer: Json<ModelAnswer> | null;
  corrected_by: string | null;
  corrected_at: Timestamp | null;
  decision_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A parent's choice per child whether the child's reviewed photos may improve Crown (migration 2026-11-28T2011). */
export interface ResearchConsentsTable {
  baby_id: string;
  choice: "granted" | "declined" | "withdrawn" | null;
  chosen_by: string | null;
  chosen_at: Timestamp | null;
  text_version: string | null;
  asked_at: Timestamp | null;
}

/** Every model installed through Crown, with its role now (migration 2026-11-29T0100, ADR 0159). */
export interface InstalledModelsTable {
  id: string;
  name: string;
  version: string;
  sha256: string | null;
  blob_key: string | null;
  size: number | null;
  card: Json<Record<string, unknown>> | null;
  role: "shipped" | "shadow" | "previous" | "retired";
  installed_by: string | null;
  installed_at: Timestamp;
  role_since: Timestamp;
}

/** The shadow model's answer per photo, apart from `measurements` (migration 2026-11-29T0100). */
export interface ShadowMeasurementsTable {
  attachment_id: string;
  model_id: string;
  report_id: string;
  round: number;
  verdict: "accept" | "retake" | "refer";
  reasons: Json<string[]>;
  ci: number | null;
  cvai: number | null;
  cva_mm: number | null;
  outline: Json<Array<{ x: number; y: number }>> | null;
  nose_tip: Json<{ x: number; y: number }> | null;
  error: string | null;
  ms: number;
  created_at: Timestamp;
}

/** An exported reviewed set and its examples (migration 2026-11-28T2011). */
export interface ReviewedSetsTable {
  id: string;
  directory: string;
  created_at: Timestamp;
  manifest: Json<Record<string, unknown>>;
  used_by_model: string | null;
}
export interface ReviewedSetExamplesTable {
  set_id: string;
  attachment_id: string;
  baby_id: string;
  image: string;
}

export interface ReviewActionsTable {
  id: string;
  report_id: string;
  reviewer_id: string;
  action: string;
  details: Json<Record<string, unknown>>;
  at: Timestamp;
}

export interface ReportVersionsTable {
  id: string;
  report_id: string;
  version: number;
  blob_key: string;
  sha256: string;
  size: BigCount;
  published_by: string;
  published_at: Timestamp;
  summary: Json<AnalysisSummary>;
}

export interface ReportReadsTable {
  report_id: string;
  physician_id: string;
  read_by: string;
  read_at: Timestamp;
}


// ---- live (queried by live.ts) ------------------------------------------------------------------------

export interface LiveEventCursorsTable {
  user_id: string;
  last_id: number;
}
export interface LiveEventsTable {
  user_id: string;
  id: number;
  type: LiveEventType;
  data: ColumnType<Record<string, unknown>, string, never>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  passkey_ceremonies: PasskeyCeremoniesTable;
  one_time_tokens: OneTimeTokensTable;
  audit_events: AuditEventsTable;
  rate_limit_buckets: RateLimitBucketsTable;
  idempotency_keys: IdempotencyKeysTable;
  account_removal_requests: AccountRemovalRequestsTable;
  session_devices: SessionDevicesTable;
  data_exports: DataExportsTable;
  babies: BabiesTable;
  delegations: DelegationsTable;
  patient_link_requests: PatientLinkRequestsTable;
  notifications: NotificationsTable;
  baa_signatures: BaaSignaturesTable;
  quiz_attempts: QuizAttemptsTable;
  marketing_leads: MarketingLeadsTable;
  reports: ReportsTable;
  attachments: AttachmentsTable;
  measurements: MeasurementsTable;
  review_actions: ReviewActionsTable;
  research_consents: ResearchConsentsTable;
  installed_models: InstalledModelsTable;
  shadow_measurements: ShadowMeasurementsTable;
  reviewed_sets: ReviewedSetsTable;
  reviewed_set_examples: ReviewedSetExamplesTable;
  report_versions: ReportVersionsTable;
  report_reads: ReportReadsTable;
  chat_conversations: ChatConversationsTable;
  chat_messages: ChatMessagesTable;
  chat_attachments: ChatAttachmentsTable;
  chat_visitor_tokens: ChatVisitorTokensTable;
  live_event_cursors: LiveEventCursorsTable;
  live_events: LiveEventsTable;
  kiosk_devices: KioskDevicesTable;
  kiosk_pins: KioskPinsTable;
  kiosk_sessions: KioskSessionsTable;
  kiosk_baby_codes: KioskBabyCodesTable;
  // `jobs` (migration 2026-11-22T0600) is left unused since the job queue moved to pg-boss's own schema.
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserRowUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type OneTimeTokenRow = Selectable<OneTimeTokensTable>;
export type AuditEventRow = Selectable<AuditEventsTable>;
export type RateLimitBucketRow = Selectable<RateLimitBucketsTable>;
