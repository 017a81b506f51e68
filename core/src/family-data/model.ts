import { Context, type Effect, type Option } from "effect";
import type { DataExportStatus } from "./lifecycle.ts";

/** A row as the database holds it, for the archive's JSON (secrets never included by the adapter). */
export type Row = Readonly<Record<string, unknown>>;

export interface DataExport {
  readonly id: string;
  readonly userId: string;
  readonly status: DataExportStatus;
  readonly itemsDone: number;
  readonly itemsTotal: number;
  readonly blobKey: string | null;
  readonly size: number | null;
  readonly linkDigest: string | null;
  readonly createdAt: Date;
  readonly readyAt: Date | null;
  readonly expiresAt: Date | null;
  readonly downloadedAt: Date | null;
}

export interface DataExportsPort {
  readonly insert: (e: DataExport) => Effect.Effect<void>;
  readonly find: (id: string) => Effect.Effect<Option.Option<DataExport>>;
  /** The user's exports, newest first (at most `limit`). */
  readonly forUser: (userId: string, limit: number) => Effect.Effect<ReadonlyArray<DataExport>>;
  readonly progress: (id: string, done: number, total: number) => Effect.Effect<void>;
  readonly update: (id: string, change: Partial<Omit<DataExport, "id" | "userId" | "createdAt">>) => Effect.Effect<void>;
  /**
   * Uses the link once, atomically: an available export of `userId` with this digest whose 24 hours
   * have not passed becomes downloaded and is returned; None otherwise (and for a second use).
   */
  readonly consume: (id: string, userId: string, digest: string, at: Date) => Effect.Effect<Option.Option<DataExport>>;
  /** Exports whose archive is still stored and whose time ended by `at`. */
  readonly lapsing: (at: Date, limit: number) => Effect.Effect<ReadonlyArray<DataExport>>;
}
export class DataExports extends Context.Tag("crown/DataExports")<DataExports, DataExportsPort>() {}

/** Everything Crown holds about a parent and their children, read in one go for the archive. */
export interface FamilySnapshot {
  readonly profile: Row & { readonly photo_key?: string | null };
  readonly children: ReadonlyArray<{
    readonly baby: Row & { readonly id: string };
    readonly reports: ReadonlyArray<{
      readonly report: Row & { readonly id: string; readonly version: number };
      readonly attachments: ReadonlyArray<Row & { readonly id: string; readonly blob_key: string; readonly file_name: string; readonly extension: string }>;
      readonly measurements: ReadonlyArray<Row>;
      readonly versions: ReadonlyArray<Row & { readonly version: number; readonly blob_key: string }>;
    }>;
  }>;
  readonly notifications: ReadonlyArray<Row>;
  readonly conversations: ReadonlyArray<Row>;
  readonly messages: ReadonlyArray<Row>;
  readonly chatAttachments: ReadonlyArray<Row & { readonly id: string; readonly blob_key: string; readonly file_name: string }>;
  /** What the parent agreed to or answered: the disclaimer, practices' link requests, marketing details, sign-in sessions. */
  readonly consents: Row;
}

/** What an erasure removed from the database: the identifiers it names and the blobs no row names any more. */
export interface ErasedFamily {
  readonly userId: string;
  readonly babyIds: ReadonlyArray<string>;
  readonly reportIds: ReadonlyArray<string>;
  readonly attachmentIds: ReadonlyArray<string>;
  /** Blob keys the deleted rows named (originals, PDFs, chat files, the profile photo, export archives). */
  readonly blobKeys: ReadonlyArray<string>;
}

export interface FamilyRecordsPort {
  readonly snapshot: (userId: string) => Effect.Effect<FamilySnapshot>;
  /**
   * Inside the erasure's transaction: deletes every row of the account and its children (and the
   * notifications, live events and queued mails that name them), and leaves in the audit log only
   * identifiers for entries about them. Returns what it removed.
   */
  readonly erase: (userId: string) => Effect.Effect<ErasedFamily>;
}
export class FamilyRecords extends Context.Tag("crown/FamilyRecords")<FamilyRecords, FamilyRecordsPort>() {}

/** One file of the archive: bytes made here, or a blob copied from the store (skipped when gone). */
export type ArchiveEntry = { readonly path: string; readonly bytes: Uint8Array } | { readonly path: string; readonly blobKey: string };

/** Writes a zip archive straight into the blob store, entry by entry (a maintained zip library in an adapter). */
export interface ArchiveMakerPort {
  readonly write: (key: string, entries: ReadonlyArray<ArchiveEntry>, onEntry: (done: number) => Effect.Effect<void>) => Effect.Effect<{ readonly size: number }>;
}
export class ArchiveMaker extends Context.Tag("crown/ArchiveMaker")<ArchiveMaker, ArchiveMakerPort>() {}
