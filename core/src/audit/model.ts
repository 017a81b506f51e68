import { Context, type Effect } from "effect";

/**
 * The audit trail read back for Crown's administrators. Writing stays with the append-only
 * `AuditLog` port (shared/ports.ts); this port only reads, newest first, a page at a time by the
 * entry's sequence number (keyset paging: a page costs the same however deep it is).
 */

export interface AuditSearch {
  readonly actorId: string | null;
  readonly subjectId: string | null;
  readonly action: string | null;
  /** Entries at or after `from`, and before `until`. */
  readonly from: Date | null;
  readonly until: Date | null;
  /** Only entries older than this sequence number (the previous page's last). */
  readonly before: number | null;
  readonly limit: number;
}

export interface AuditEvent {
  readonly sequence: number;
  readonly at: Date;
  readonly action: string;
  readonly actorId: string | null;
  /** The actor's e-mail, when the actor is an account (read in the same query). */
  readonly actorEmail: string | null;
  readonly subjectId: string | null;
  readonly ip: string | null;
  readonly details: Readonly<Record<string, unknown>>;
}

export interface AuditTrailPort {
  readonly search: (query: AuditSearch) => Effect.Effect<ReadonlyArray<AuditEvent>>;
}
export class AuditTrail extends Context.Tag("crown/AuditTrail")<AuditTrail, AuditTrailPort>() {}
