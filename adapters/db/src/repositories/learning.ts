import { Learning } from "@crown/core";
import type { ReportStatus } from "@crown/core/report/lifecycle";
import { Effect, Layer, Option } from "effect";
import { type Kysely, type Selectable, sql } from "kysely";
import { run } from "../executor.ts";
import type { Database, InstalledModelsTable, ResearchConsentsTable, ShadowMeasurementsTable } from "../schema.ts";
import { measurementFromRow } from "./reports.ts";

/** Consent per child and the reviewed sets (issue 41). */

const json = <T>(value: unknown): T => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T));

const consentFromRow = (row: Selectable<ResearchConsentsTable>): Learning.ResearchConsent => ({
  babyId: row.baby_id,
  choice: row.choice,
  chosenBy: row.chosen_by,
  chosenAt: row.chosen_at,
  textVersion: row.text_version,
  askedAt: row.asked_at,
});

export const makeResearchConsents = (db: Kysely<Database>): Learning.ResearchConsentsPort => ({
  find: (babyId) =>
    run(db, (ex) => ex.selectFrom("research_consents").selectAll().where("baby_id", "=", babyId).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), consentFromRow)),
    ),
  listByBabies: (babyIds) =>
    babyIds.length === 0
      ? Effect.succeed([])
      : run(db, (ex) => ex.selectFrom("research_consents").selectAll().where("baby_id", "in", babyIds).execute()).pipe(Effect.map((rows) => rows.map(consentFromRow))),
  save: (c) => {
    const values = { baby_id: c.babyId, choice: c.choice, chosen_by: c.chosenBy, chosen_at: c.chosenAt, text_version: c.textVersion, asked_at: c.askedAt };
    const { baby_id: _id, ...changes } = values;
    return Effect.asVoid(run(db, (ex) => ex.insertInto("research_consents").values(values).onConflict((oc) => oc.column("baby_id").doUpdateSet(changes)).execute()));
  },
});

export const makeReviewedSets = (db: Kysely<Database>): Learning.ReviewedSetsPort => ({
  reviewedPhotos: (statuses: ReadonlyArray<ReportStatus>) =>
    statuses.length === 0
      ? Effect.succeed([])
      : run(db, (ex) =>
          ex
            .selectFrom("measurements as m")
            .innerJoin("reports as r", (j) => j.onRef("r.id", "=", "m.report_id").onRef("r.round", "=", "m.round"))
            .innerJoin("attachments as a", "a.id", "m.attachment_id")
            .leftJoin("research_consents as c", "c.baby_id", "r.baby_id")
            .selectAll("m")
            .select(["r.baby_id as r_baby_id", "r.updated_at as r_reviewed_at", "a.blob_key as a_blob_key"])
            .select(["c.baby_id as c_baby_id", "c.choice as c_choice", "c.chosen_by as c_chosen_by", "c.chosen_at as c_chosen_at", "c.text_version as c_text_version", "c.asked_at as c_asked_at"])
            .where("r.status", "in", statuses)
            .where("m.error", "is", null)
            .orderBy("m.created_at")
            .orderBy("m.attachment_id")
            .execute(),
        ).pipe(
          Effect.map((rows) =>
            rows.map((row) => ({
              attachmentId: row.attachment_id,
              babyId: row.r_baby_id,
              blobKey: row.a_blob_key,
              reviewedAt: row.corrected_at ?? row.r_reviewed_at,
              measurement: measurementFromRow(row),
              consent:
                row.c_baby_id === null
                  ? null
                  : consentFromRow({ baby_id: row.c_baby_id, choice: row.c_choice, chosen_by: row.c_chosen_by, chosen_at: row.c_chosen_at, text_version: row.c_text_version, asked_at: row.c_asked_at }),
            })),
          ),
        ),
  record: (set) =>
    Effect.asVoid(
      run(db, async (ex) => {
        await ex.insertInto("reviewed_sets").values({ id: set.id, directory: set.directory, created_at: set.createdAt, manifest: JSON.stringify(set.manifest), used_by_model: set.usedByModel }).execute();
        // In slices: a clinic's set may hold thousands of examples, and a statement has a bound on its parameters.
        for (let i = 0; i < set.examples.length; i += 1000) {
          const slice = set.examples.slice(i, i + 1000).map((e) => ({ set_id: set.id, attachment_id: e.attachmentId, baby_id: e.babyId, image: e.image }));
          await ex.insertInto("reviewed_set_examples").values(slice).execute();
        }
      }),
    ),
  removeChild: (babyId) =>
    run(db, (ex) =>
      ex
        .deleteFrom("reviewed_set_examples as e")
        .using("reviewed_sets as s")
        .whereRef("s.id", "=", "e.set_id")
        .where("e.baby_id", "=", babyId)
        .where("s.used_by_model", "is", null)
        .returning(["s.directory", "e.image"])
        .execute(),
    ).pipe(
      Effect.map((rows) => {
        const byDirectory = new Map<string, string[]>();
        for (const r of rows) byDirectory.set(r.directory, [...(byDirectory.get(r.directory) ?? []), r.image]);
        return [...byDirectory].map(([directory, images]) => ({ directory, images }));
      }),
    ),
  list: () =>
    run(db, (ex) =>
      ex
        .selectFrom("reviewed_sets as s")
        .leftJoin("reviewed_set_examples as e", "e.set_id", "s.id")
        .select(["s.id", "s.directory", "s.created_at", "s.manifest", "s.used_by_model"])
        .select((eb) => eb.fn.count<string>("e.attachment_id").as("examples"))
        .groupBy(["s.id", "s.directory", "s.created_at", "s.manifest", "s.used_by_model"])
        .orderBy("s.created_at")
        .execute(),
    ).pipe(
      Effect.map((rows) =>
        rows.map((r) => ({ id: r.id, directory: r.directory, createdAt: r.created_at, manifest: json<Record<string, unknown>>(r.manifest), usedByModel: r.used_by_model, examples: Number(r.examples) })),
      ),
    ),
  markUsed: (setIds, model) =>
    setIds.length === 0
      ? Effect.void
      : Effect.asVoid(run(db, (ex) => ex.updateTable("reviewed_sets").set({ used_by_model: model }).where("id", "in", setIds).where("used_by_model", "is", null).execute())),
});

const installedFromRow = (row: Selectable<InstalledModelsTable>): Learning.InstalledModel => ({
  id: row.id,
  name: row.name,
  version: row.version,
  sha256: row.sha256,
  blobKey: row.blob_key,
  size: row.size,
  card: row.card === null ? null : json<Record<string, unknown>>(row.card),
  role: row.role,
  installedBy: row.installed_by,
  installedAt: row.installed_at,
  roleSince: row.role_since,
});

/** Which model has which role (issue 41, item 5): read for every job by every worker. */
export const makeInstalledModels = (db: Kysely<Database>): Learning.InstalledModelsPort => ({
  list: () => run(db, (ex) => ex.selectFrom("installed_models").selectAll().orderBy("installed_at").execute()).pipe(Effect.map((rows) => rows.map(installedFromRow))),
  inRole: (role) =>
    run(db, (ex) => ex.selectFrom("installed_models").selectAll().where("role", "=", role).executeTakeFirst()).pipe(Effect.map((row) => Option.map(Option.fromNullable(row), installedFromRow))),
  insert: (m) =>
    Effect.asVoid(
      run(db, (ex) =>
        ex
          .insertInto("installed_models")
          .values({
            id: m.id,
            name: m.name,
            version: m.version,
            sha256: m.sha256,
            blob_key: m.blobKey,
            size: m.size,
            card: m.card === null ? null : JSON.stringify(m.card),
            role: m.role,
            installed_by: m.installedBy,
            installed_at: m.installedAt,
            role_since: m.roleSince,
          })
          .execute(),
      ),
    ),
  setRole: (id, role, at) => Effect.asVoid(run(db, (ex) => ex.updateTable("installed_models").set({ role, role_since: at }).where("id", "=", id).execute())),
  // One key for every change of roles: two admins promoting at once take turns.
  lockRoles: () => Effect.asVoid(run(db, (ex) => sql`select pg_advisory_xact_lock(hashtext('crown.installed_models'))`.execute(ex))),
});

const answerFromRow = (row: Selectable<ShadowMeasurementsTable>): Learning.ShadowAnswer => ({
  attachmentId: row.attachment_id,
  modelId: row.model_id,
  reportId: row.report_id,
  round: row.round,
  verdict: row.verdict,
  reasons: json<string[]>(row.reasons),
  ci: row.ci,
  cvai: row.cvai,
  cvaMm: row.cva_mm,
  outline: row.outline === null ? null : json<Array<{ x: number; y: number }>>(row.outline),
  noseTip: row.nose_tip === null ? null : json<{ x: number; y: number }>(row.nose_tip),
  error: row.error,
  ms: row.ms,
  createdAt: row.created_at,
});

/** The shadow's answers, apart from `measurements`: nothing that builds a report reads this table. */
export const makeShadowMeasurements = (db: Kysely<Database>): Learning.ShadowMeasurementsPort => ({
  listByReport: (reportId) =>
    run(db, (ex) => ex.selectFrom("shadow_measurements").selectAll().where("report_id", "=", reportId).orderBy("created_at").execute()).pipe(Effect.map((rows) => rows.map(answerFromRow))),
  listByModel: (modelId) =>
    run(db, (ex) => ex.selectFrom("shadow_measurements").selectAll().where("model_id", "=", modelId).orderBy("created_at").execute()).pipe(Effect.map((rows) => rows.map(answerFromRow))),
  insert: (a) =>
    Effect.asVoid(
      run(db, (ex) =>
        ex
          .insertInto("shadow_measurements")
          .values({
            attachment_id: a.attachmentId,
            model_id: a.modelId,
            report_id: a.reportId,
            round: a.round,
            verdict: a.verdict,
            reasons: JSON.stringify(a.reasons),
            ci: a.ci,
            cvai: a.cvai,
            cva_mm: a.cvaMm,
            outline: a.outline === null ? null : JSON.stringify(a.outline),
            nose_tip: a.noseTip === null ? null : JSON.stringify(a.noseTip),
            error: a.error,
            ms: a.ms,
            created_at: a.createdAt,
          })
          .onConflict((oc) => oc.columns(["attachment_id", "model_id"]).doNothing())
          .execute(),
      ),
    ),
});

export const makeLearningLayer = (db: Kysely<Database>) =>
  Layer.mergeAll(
    Layer.succeed(Learning.ResearchConsents, makeResearchConsents(db)),
    Layer.succeed(Learning.ReviewedSets, makeReviewedSets(db)),
    Layer.succeed(Learning.InstalledModels, makeInstalledModels(db)),
    Layer.succeed(Learning.ShadowMeasurements, makeShadowMeasurements(db)),
  );
