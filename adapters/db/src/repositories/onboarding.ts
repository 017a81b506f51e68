import {
  ACTIVE_STATUS,
  PatientLinkRequests,
  Babies,
  BaaSignatures,
  Delegations,
  MarketingLeads,
  Notifications,
  PhysicianDirectory,
  QuizAttempts,
  type BabiesPort,
  type Baby,
  type BabyPatch,
  type BaaSignaturesPort,
  type Delegation,
  type DelegationsPort,
  type MarketingLeadsPort,
  type Notification,
  type NotificationKind,
  type NotificationsPort,
  type PhysicianDirectoryPort,
  type QuizAttemptsPort,
  type QuizMode,
  type Race,
  type Relation,
  type Gender,
  type StaffType,
} from "@crown/core";
import { Effect, Layer, Option } from "effect";
import { type Kysely, type Selectable, sql } from "kysely";
import { contains, type Executor, run } from "../executor.ts";
import { countOf } from "../paging.ts";
import { makePatientLinkRequests } from "./link-requests.ts";
import { userFromRow } from "./accounts.ts";
import type { BabiesTable, Database, DelegationsTable, NotificationsTable } from "../schema.ts";

/*
 * Repositories of onboarding, the practice and notifications (migration 2026-11-22T0500). Their
 * tables are in schema.ts.
 */


// ---- Babies --------------------------------------------------------------------------------------------

export const babyFromRow = (row: Selectable<BabiesTable>): Baby => ({
  id: row.id,
  parentId: row.parent_id,
  physicianId: row.physician_id,
  firstName: row.first_name,
  middleName: row.middle_name,
  lastName: row.last_name,
  dateOfBirth: row.date_of_birth,
  relation: row.relation,
  gender: row.gender,
  ethnicity: row.ethnicity,
  nicuTime: row.nicu_time,
  previousCondition: row.previous_condition,
  referralCode: row.referral_code,
  caregiverEmail: row.caregiver_email,
  caregiverPhone: row.caregiver_phone,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const babyColumns = {
  parentId: "parent_id",
  physicianId: "physician_id",
  firstName: "first_name",
  middleName: "middle_name",
  lastName: "last_name",
  dateOfBirth: "date_of_birth",
  relation: "relation",
  gender: "gender",
  ethnicity: "ethnicity",
  nicuTime: "nicu_time",
  previousCondition: "previous_condition",
  referralCode: "referral_code",
  caregiverEmail: "caregiver_email",
  caregiverPhone: "caregiver_phone",
  updatedAt: "updated_at",
} as const;

/** The columns of the given fields of a baby (a whole baby, or a patch). */
const babyRow = (fields: BabyPatch): Record<string, unknown> => {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(babyColumns)) {
    const value = fields[key as keyof typeof babyColumns];
    if (value !== undefined) row[column] = value;
  }
  return row;
};

export const makeBabies = (db: Kysely<Database>): BabiesPort => ({
  insert: (baby) =>
    run(db, (ex) =>
      ex
        .insertInto("babies")
        .values({ id: baby.id, created_by: baby.createdBy, created_at: baby.createdAt, ...babyRow(baby) } as never)
        .execute(),
    ).pipe(Effect.asVoid),
  update: (id, patch) => {
    const row = babyRow(patch);
    if (Object.keys(row).length === 0) return Effect.void;
    return run(db, (ex) => ex.updateTable("babies").set(row).where("id", "=", id).execute()).pipe(Effect.asVoid);
  },
  findById: (id) =>
    run(db, (ex) => ex.selectFrom("babies").selectAll().where("id", "=", id).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), babyFromRow)),
    ),
  listByParent: (parentId) =>
    run(db, (ex) => ex.selectFrom("babies").selectAll().where("parent_id", "=", parentId).orderBy("created_at", "asc").orderBy("id", "asc").execute()).pipe(
      Effect.map((rows) => rows.map(babyFromRow)),
    ),
  listByPhysician: (physicianId, search, page) =>
    run(db, async (ex) => {
      let base = ex.selectFrom("babies").where("physician_id", "=", physicianId);
      if (search !== null) {
        const pattern = contains(search);
        // The expressions of the trigram indexes (migration 2026-11-24T1620): concat_ws cannot be indexed.
        // Equal to concat_ws(' ', first, middle, last) and concat_ws(' ', first, last): both names are never null.
        base = base.where((eb) =>
          eb.or([
            eb(sql<string>`(first_name || ' ' || coalesce(middle_name || ' ', '') || last_name)`, "ilike", pattern),
            eb(sql<string>`(first_name || ' ' || last_name)`, "ilike", pattern),
            eb("caregiver_email", "ilike", pattern),
          ]),
        );
      }
      const [rows, total] = await Promise.all([
        base
          .selectAll()
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(page.perPage)
          .offset((page.page - 1) * page.perPage)
          .execute(),
        countOf(ex, `patients:${physicianId}:${search ?? ""}`, base),
      ]);
      return { data: rows.map(babyFromRow), total };
    }),
});

// ---- Physicians ------------------------------------------------------------------------------------------

export const makePhysicianDirectory = (db: Kysely<Database>): PhysicianDirectoryPort => ({
  search: (name, limit) =>
    run(db, (ex) =>
      ex
        .selectFrom("users")
        .selectAll()
        .where("type", "=", "physician")
        .where("status", "=", ACTIVE_STATUS)
        // Only a practice an admin has verified appears in the provider search (ADR 25).
        .where("practice_verified_at", "is not", null)
        .where(sql<string>`first_name || ' ' || last_name`, "ilike", contains(name))
        .orderBy("last_name")
        .orderBy("first_name")
        .orderBy("id")
        .limit(limit)
        .execute(),
    ).pipe(Effect.map((rows) => rows.map(userFromRow))),
});

// ---- Delegations -------------------------------------------------------------------------------------------

const delegationFromRow = (row: Selectable<DelegationsTable>): Delegation => ({
  id: row.id,
  physicianId: row.physician_id,
  staffId: row.staff_id,
  staffType: row.staff_type,
  createdBy: row.created_by,
  createdAt: row.created_at,
  acceptedAt: row.accepted_at,
  endedAt: row.ended_at,
  endedBy: row.ended_by,
});

/** The live delegation of a staff member for a physician: accepted or still offered (the unique live index allows one). */
const liveOf = (ex: Executor, physicianId: string, staffId: string) =>
  ex.selectFrom("delegations").selectAll().where("physician_id", "=", physicianId).where("staff_id", "=", staffId).where("ended_at", "is", null);

export const makeDelegations = (db: Kysely<Database>): DelegationsPort => ({
  insert: (d) =>
    run(db, (ex) =>
      ex
        .insertInto("delegations")
        .values({
          id: d.id,
          physician_id: d.physicianId,
          staff_id: d.staffId,
          staff_type: d.staffType,
          created_by: d.createdBy,
          created_at: d.createdAt,
          accepted_at: d.acceptedAt,
          ended_at: d.endedAt,
          ended_by: d.endedBy,
        })
        .execute(),
    ).pipe(Effect.asVoid),
  findActive: (physicianId, staffId) =>
    run(db, (ex) => liveOf(ex, physicianId, staffId).where("accepted_at", "is not", null).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), delegationFromRow)),
    ),
  findLive: (physicianId, staffId) =>
    run(db, (ex) => liveOf(ex, physicianId, staffId).executeTakeFirst()).pipe(Effect.map((row) => Option.map(Option.fromNullable(row), delegationFromRow))),
  findById: (id) =>
    run(db, (ex) => ex.selectFrom("delegations").selectAll().where("id", "=", id).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), delegationFromRow)),
    ),
  listActiveForStaff: (staffId) =>
    run(db, (ex) =>
      ex
        .selectFrom("delegations")
        .selectAll()
        .where("staff_id", "=", staffId)
        .where("ended_at", "is", null)
        .where("accepted_at", "is not", null)
        .orderBy("created_at")
        .orderBy("id")
        .execute(),
    ).pipe(Effect.map((rows) => rows.map(delegationFromRow))),
  listOffered: (staffId) =>
    run(db, (ex) =>
      ex.selectFrom("delegations").selectAll().where("staff_id", "=", staffId).where("ended_at", "is", null).where("accepted_at", "is", null).orderBy("created_at").orderBy("id").execute(),
    ).pipe(Effect.map((rows) => rows.map(delegationFromRow))),
  accept: (id, at) =>
    run(db, (ex) =>
      ex.updateTable("delegations").set({ accepted_at: at }).where("id", "=", id).where("ended_at", "is", null).where("accepted_at", "is", null).executeTakeFirst(),
    ).pipe(Effect.map((r) => Number(r.numUpdatedRows) === 1)),
  listStaff: (physicianId, types, page) =>
    run(db, async (ex) => {
      if (types.length === 0) return { data: [], total: 0 };
      const base = ex
        .selectFrom("delegations as d")
        .innerJoin("users as u", "u.id", "d.staff_id")
        .where("d.physician_id", "=", physicianId)
        .where("d.ended_at", "is", null)
        .where("d.staff_type", "in", [...types]);
      const [rows, count] = await Promise.all([
        base
          .selectAll("u")
          .select([
            "d.id as d_id",
            "d.physician_id as d_physician_id",
            "d.staff_id as d_staff_id",
            "d.staff_type as d_staff_type",
            "d.created_by as d_created_by",
            "d.created_at as d_created_at",
            "d.accepted_at as d_accepted_at",
            "d.ended_at as d_ended_at",
            "d.ended_by as d_ended_by",
          ])
          .orderBy("d.created_at")
          .orderBy("d.id")
          .limit(page.perPage)
          .offset((page.page - 1) * page.perPage)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
      ]);
      return {
        data: rows.map((row) => ({
          user: userFromRow(row),
          delegation: delegationFromRow({
            id: row.d_id,
            physician_id: row.d_physician_id,
            staff_id: row.d_staff_id,
            staff_type: row.d_staff_type,
            created_by: row.d_created_by,
            created_at: row.d_created_at,
            accepted_at: row.d_accepted_at,
            ended_at: row.d_ended_at,
            ended_by: row.d_ended_by,
          }),
        })),
        total: Number(count.n),
      };
    }),
  end: (id, at, endedBy) =>
    run(db, (ex) => ex.updateTable("delegations").set({ ended_at: at, ended_by: endedBy }).where("id", "=", id).where("ended_at", "is", null).execute()).pipe(
      Effect.asVoid,
    ),
});

// ---- Notifications ------------------------------------------------------------------------------------------

const notificationFromRow = (row: Selectable<NotificationsTable>): Notification => ({
  id: row.id,
  userId: row.user_id,
  kind: row.kind,
  text: row.text,
  message: row.message_key !== null && row.message_params !== null ? { key: row.message_key, params: row.message_params } : null,
  subjectId: row.subject_id,
  readAt: row.read_at,
  createdAt: row.created_at,
});

export const makeNotifications = (db: Kysely<Database>): NotificationsPort => ({
  insert: (n) =>
    run(db, (ex) =>
      ex
        .insertInto("notifications")
        .values({
          id: n.id,
          user_id: n.userId,
          kind: n.kind,
          text: n.text,
          message_key: n.message?.key ?? null,
          message_params: n.message ? JSON.stringify(n.message.params) : null,
          subject_id: n.subjectId,
          read_at: n.readAt,
          created_at: n.createdAt,
        })
        .execute(),
    ).pipe(Effect.asVoid),
  list: (userId, page) =>
    run(db, async (ex) => {
      const [rows, count] = await Promise.all([
        ex
          .selectFrom("notifications")
          .selectAll()
          .where("user_id", "=", userId)
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(page.perPage)
          .offset((page.page - 1) * page.perPage)
          .execute(),
        ex.selectFrom("notifications").where("user_id", "=", userId).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
      ]);
      return { data: rows.map(notificationFromRow), total: Number(count.n) };
    }),
  countUnread: (userId) =>
    run(db, (ex) =>
      ex
        .selectFrom("notifications")
        .where("user_id", "=", userId)
        .where("read_at", "is", null)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow(),
    ).pipe(Effect.map((row) => Number(row.n))),
  markRead: (userId, ids, at) =>
    ids !== null && ids.length === 0
      ? Effect.succeed(0)
      : run(db, async (ex) => {
          let update = ex.updateTable("notifications").set({ read_at: at }).where("user_id", "=", userId).where("read_at", "is", null);
          if (ids !== null) update = update.where("id", "in", [...ids]);
          const result = await update.executeTakeFirst();
          return Number(result.numUpdatedRows);
        }),
});

// ---- BAA, quiz, leads ----------------------------------------------------------------------------------------

export const makeBaaSignatures = (db: Kysely<Database>): BaaSignaturesPort => ({
  insert: (s) =>
    run(db, (ex) =>
      ex
        .insertInto("baa_signatures")
        .values({ id: s.id, user_id: s.userId, name: s.name, email: s.email, covered_entity: s.coveredEntity, text_version: s.textVersion, ip: s.ip, signed_at: s.signedAt })
        .execute(),
    ).pipe(Effect.asVoid),
  latestFor: (userId) =>
    run(db, (ex) => ex.selectFrom("baa_signatures").selectAll().where("user_id", "=", userId).orderBy("signed_at", "desc").orderBy("id", "desc").executeTakeFirst()).pipe(
      Effect.map((row) =>
        Option.map(Option.fromNullable(row), (r) => ({
          id: r.id,
          userId: r.user_id,
          name: r.name,
          email: r.email,
          coveredEntity: r.covered_entity,
          textVersion: r.text_version,
          ip: r.ip,
          signedAt: r.signed_at,
        })),
      ),
    ),
});

export const makeQuizAttempts = (db: Kysely<Database>): QuizAttemptsPort => ({
  insert: (a) =>
    run(db, (ex) =>
      ex.insertInto("quiz_attempts").values({ id: a.id, user_id: a.userId, mode: a.mode, score: a.score, total: a.total, passed: a.passed, at: a.at }).execute(),
    ).pipe(Effect.asVoid),
  listFor: (userId) =>
    run(db, (ex) => ex.selectFrom("quiz_attempts").selectAll().where("user_id", "=", userId).orderBy("at").orderBy("id").execute()).pipe(
      Effect.map((rows) => rows.map((r) => ({ id: r.id, userId: r.user_id, mode: r.mode, score: r.score, total: r.total, passed: r.passed, at: r.at }))),
    ),
});

export const makeMarketingLeads = (db: Kysely<Database>): MarketingLeadsPort => ({
  insert: (l) =>
    run(db, (ex) =>
      ex.insertInto("marketing_leads").values({ id: l.id, parent_id: l.parentId, physician_name: l.physicianName, baby_name: l.babyName, created_at: l.createdAt }).execute(),
    ).pipe(Effect.asVoid),
});

/** The onboarding, practice and notification ports over `db` (merged into makeDatabaseLayer). */
export const makeOnboardingLayer = (db: Kysely<Database>) =>
  Layer.mergeAll(
    Layer.succeed(Babies, makeBabies(db)),
    Layer.succeed(PhysicianDirectory, makePhysicianDirectory(db)),
    Layer.succeed(Delegations, makeDelegations(db)),
    Layer.succeed(PatientLinkRequests, makePatientLinkRequests(db)),
    Layer.succeed(Notifications, makeNotifications(db)),
    Layer.succeed(BaaSignatures, makeBaaSignatures(db)),
    Layer.succeed(QuizAttempts, makeQuizAttempts(db)),
    Layer.succeed(MarketingLeads, makeMarketingLeads(db)),
  );
