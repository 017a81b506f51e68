import { type AuditEvent, AuditTrail, type AuditTrailPort } from "@crown/core/audit/model";
import { Effect, Layer } from "effect";
import type { Kysely } from "kysely";
import { executor } from "../executor.ts";
import type { Database } from "../schema.ts";

/**
 * Reads `audit_events` for the admin console: one query per page, the actor's e-mail joined in,
 * newest first by the bigserial id, paged by keyset (`id < before`) so deep pages cost no more.
 */
const search: (db: Kysely<Database>) => AuditTrailPort["search"] = (db) => (q) =>
  Effect.flatMap(executor(db), (ex) =>
    Effect.promise(async () => {
      let query = ex
        .selectFrom("audit_events as a")
        .leftJoin("users as u", "u.id", "a.actor_id")
        .select(["a.id", "a.at", "a.action", "a.actor_id", "a.subject_id", "a.ip", "a.details", "u.email as actor_email"]);
      if (q.actorId) query = query.where("a.actor_id", "=", q.actorId);
      if (q.subjectId) query = query.where("a.subject_id", "=", q.subjectId);
      if (q.action) query = query.where("a.action", "=", q.action);
      if (q.from) query = query.where("a.at", ">=", q.from);
      if (q.until) query = query.where("a.at", "<", q.until);
      if (q.before !== null) query = query.where("a.id", "<", q.before);
      const rows = await query.orderBy("a.id", "desc").limit(q.limit).execute();
      return rows.map(
        (r): AuditEvent => ({
          sequence: Number(r.id),
          at: r.at,
          action: r.action,
          actorId: r.actor_id,
          actorEmail: r.actor_email ?? null,
          subjectId: r.subject_id,
          ip: r.ip,
          details: r.details ?? {},
        }),
      );
    }),
  );

export const makeAuditTrailLayer = (db: Kysely<Database>) => Layer.succeed(AuditTrail, { search: search(db) });
