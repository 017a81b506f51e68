import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
import type { TokenPurpose, UserStatus, UserType } from "@crown/core";

/**
 * Table types of the database, as Kysely sees them. Columns are snake_case; repositories map rows
 * to the core's camelCase objects at the edge. Timestamps are `timestamptz` and come back as `Date`.
 * Driver conventions (both PostgreSQL and PGlite, see connect.ts): `int8` and `numeric` come back
 * as `number`, `date` as a `YYYY-MM-DD` string.
 */

/** A timestamptz column: read as Date, written as Date (or an ISO string). */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamptz column with a database default (`now()`). */
export type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

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

export interface RateLimitBucketsTable {
  key: string;
  window_start: Timestamp;
  count: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  one_time_tokens: OneTimeTokensTable;
  audit_events: AuditEventsTable;
  rate_limit_buckets: RateLimitBucketsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserRowUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type OneTimeTokenRow = Selectable<OneTimeTokensTable>;
export type AuditEventRow = Selectable<AuditEventsTable>;
export type RateLimitBucketRow = Selectable<RateLimitBucketsTable>;
