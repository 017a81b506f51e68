import type { PatientLinkRequest, PatientLinkRequestsPort } from "@crown/core";
import { Effect, Option } from "effect";
import type { Kysely, Selectable } from "kysely";
import { run } from "../executor.ts";
import type { Database, PatientLinkRequestsTable } from "../schema.ts";

const fromRow = (row: Selectable<PatientLinkRequestsTable>): PatientLinkRequest => ({
  id: row.id,
  babyId: row.baby_id,
  physicianId: row.physician_id,
  parentId: row.parent_id,
  requestedBy: row.requested_by,
  status: row.status,
  createdAt: row.created_at,
  answeredAt: row.answered_at,
});

/** A practice's requests to link a patient to an existing parent's account (ADR 56). */
export const makePatientLinkRequests = (db: Kysely<Database>): PatientLinkRequestsPort => ({
  insert: (r) =>
    run(db, (ex) =>
      ex
        .insertInto("patient_link_requests")
        .values({
          id: r.id,
          baby_id: r.babyId,
          physician_id: r.physicianId,
          parent_id: r.parentId,
          requested_by: r.requestedBy,
          status: r.status,
          created_at: r.createdAt,
          answered_at: r.answeredAt,
        })
        .execute(),
    ).pipe(Effect.asVoid),
  findById: (id) =>
    run(db, (ex) => ex.selectFrom("patient_link_requests").selectAll().where("id", "=", id).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), fromRow)),
    ),
  listForParent: (parentId, status) =>
    run(db, (ex) =>
      ex.selectFrom("patient_link_requests").selectAll().where("parent_id", "=", parentId).where("status", "=", status).orderBy("created_at").orderBy("id").execute(),
    ).pipe(Effect.map((rows) => rows.map(fromRow))),
  // Compare and set: of two answers racing, one moves the request and the other finds it answered.
  answer: (id, from, to, at) =>
    run(db, (ex) => ex.updateTable("patient_link_requests").set({ status: to, answered_at: at }).where("id", "=", id).where("status", "=", from).executeTakeFirst()).pipe(
      Effect.map((r) => Number(r.numUpdatedRows) === 1),
    ),
});
