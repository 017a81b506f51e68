import { Learning } from "@crown/core";
import type { ReportStatus } from "@crown/core/report/lifecycle";
import { Effect, Layer, Option } from "effect";
import type { Kysely, Selectable } from "kysely";
import { run } from "../executor.ts";
import type { Database, ResearchConsentsTable } from "../schema.ts";
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
});

export const makeLearningLayer = (db: Kysely<Database>) =>
  Layer.mergeAll(Layer.succeed(Learning.ResearchConsents, makeResearchConsents(db)), Layer.succeed(Learning.ReviewedSets, makeReviewedSets(db)));
