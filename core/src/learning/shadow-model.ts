import { Context, Effect, Option } from "effect";
import type { AnalyzeOptions } from "../measurement/analyze.ts";
import { analyzePhoto } from "../measurement/analyze.ts";
import type { MeasurementError } from "../measurement/agreement.ts";
import type { Point } from "../measurement/image.ts";
import { HeadContourModel } from "../measurement/model.ts";
import type { VerdictOutcome } from "../measurement/verdict.ts";
import { requireType } from "../accounts/access.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { JobQueue } from "../shared/jobs.ts";
import { discardBlobs, keepBlobs, putPending } from "../shared/pending-blobs.ts";
import { audit, BlobStore, now, Random, transaction } from "../shared/ports.ts";
import { Attachments, ContentHasher, Images, ReportConfig, Reports } from "../report/model.ts";
import { reportSettings } from "../report/policy.ts";
import { LEARNING_MESSAGES } from "./requests.ts";
import { ReviewedSets } from "./model.ts";

/**
 * The shadow model (issue 41, item 5; ADR 0159). An admin installs a candidate beside the shipped
 * model; after a report is analysed by the shipped one, a job of its own measures every photo of
 * that round with the candidate and keeps the answer in `shadow_measurements`, which no report,
 * Observation or PDF reads. Promotion makes the candidate the shipped model (the old one kept as
 * `previous` for a rollback). Which model has which role is in the database: every worker process
 * asks it for each job, and keeps only the loaded sessions (by checksum) in memory.
 */

export const MODEL_ROLES = ["shipped", "shadow", "previous", "retired"] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

export interface InstalledModel {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  /** Null with `blobKey` for the release's own model (CROWN_MODEL), recorded when a candidate first replaces it. */
  readonly sha256: string | null;
  readonly blobKey: string | null;
  readonly size: number | null;
  readonly card: Readonly<Record<string, unknown>> | null;
  readonly role: ModelRole;
  readonly installedBy: string | null;
  readonly installedAt: Date;
  readonly roleSince: Date;
}

export interface InstalledModelsPort {
  readonly list: () => Effect.Effect<ReadonlyArray<InstalledModel>>;
  readonly inRole: (role: Exclude<ModelRole, "retired">) => Effect.Effect<Option.Option<InstalledModel>>;
  readonly insert: (model: InstalledModel) => Effect.Effect<void>;
  readonly setRole: (id: string, role: ModelRole, at: Date) => Effect.Effect<void>;
  /** Serialises installs, promotions and rollbacks (a transaction-scoped lock). */
  readonly lockRoles: () => Effect.Effect<void>;
}
export class InstalledModels extends Context.Tag("crown/InstalledModels")<InstalledModels, InstalledModelsPort>() {}

/** The shadow's answer for one photo: what the shipped model's measurement holds, and nothing a report reads. */
export interface ShadowAnswer {
  readonly attachmentId: string;
  readonly modelId: string;
  readonly reportId: string;
  readonly round: number;
  readonly verdict: VerdictOutcome;
  readonly reasons: ReadonlyArray<string>;
  readonly ci: number | null;
  readonly cvai: number | null;
  readonly cvaMm: number | null;
  readonly outline: ReadonlyArray<Point> | null;
  readonly noseTip: Point | null;
  readonly error: string | null;
  /** Decoding and measuring this photo with the shadow, in milliseconds. */
  readonly ms: number;
  readonly createdAt: Date;
}

export interface ShadowMeasurementsPort {
  readonly listByReport: (reportId: string) => Effect.Effect<ReadonlyArray<ShadowAnswer>>;
  readonly listByModel: (modelId: string) => Effect.Effect<ReadonlyArray<ShadowAnswer>>;
  /** Once per photo and model: a retried job's second answer is dropped. */
  readonly insert: (answer: ShadowAnswer) => Effect.Effect<void>;
}
export class ShadowMeasurements extends Context.Tag("crown/ShadowMeasurements")<ShadowMeasurements, ShadowMeasurementsPort>() {}

/** A model ready to measure, with the analysis options and error its card implies. */
export interface OpenedModel {
  readonly model: HeadContourModel;
  readonly analyze: AnalyzeOptions;
  readonly measurementError?: MeasurementError;
}

/** Checks and opens installed models (onnxruntime-node); sessions are kept per checksum, roles never. */
export interface ModelRuntimePort {
  /**
   * Loads the candidate, checks its inputs and outputs against the head-contour contract the shipped
   * model follows (and its card against core's reasons), runs it once, and releases it. A refusal is
   * the reason, for the admin.
   */
  readonly inspect: (bytes: Uint8Array, card: unknown) => Effect.Effect<{ readonly name: string; readonly version: string; readonly card: Readonly<Record<string, unknown>> }, ValidationFailed>;
  /** The opened model of this checksum, if this process has it already. */
  readonly cached: (sha256: string) => Effect.Effect<Option.Option<OpenedModel>>;
  readonly open: (sha256: string, bytes: Uint8Array, card: unknown) => Effect.Effect<OpenedModel>;
}
export class ModelRuntime extends Context.Tag("crown/ModelRuntime")<ModelRuntime, ModelRuntimePort>() {}

export const SHADOW_MEASURE_JOB = "shadow-measure";
const shadowJobKey = (reportId: string, round: number, modelId: string) => `${SHADOW_MEASURE_JOB}:${reportId}:${round}:${modelId}`;

/** Where an installed model's bytes are kept: by checksum, so one model is stored once. */
export const modelBlobKey = (sha256: string) => `models/${sha256}.onnx`;

/** An installed model's session, opened from the object store the first time this process needs it. */
const openInstalled = (m: InstalledModel) =>
  Effect.gen(function* () {
    const runtime = yield* ModelRuntime;
    const cached = yield* runtime.cached(m.sha256!);
    if (Option.isSome(cached)) return cached.value;
    const blob = yield* (yield* BlobStore).get(m.blobKey!);
    if (Option.isNone(blob)) return yield* Effect.dieMessage(`The bytes of model ${m.name} ${m.version} are missing from the object store (${m.blobKey})`);
    const bytes = new Uint8Array(yield* Effect.promise(() => new Response(blob.value.body).arrayBuffer()));
    return yield* runtime.open(m.sha256!, bytes, m.card);
  });

/** A model with bytes of its own (not the release's, whose session every process opened at start). */
const hasBytes = (m: InstalledModel) => m.blobKey !== null && m.sha256 !== null;

/**
 * Runs `effect` with the shipped model as the database names it now: a promoted candidate (opened
 * from the object store), or the release's own model when none was promoted or after a rollback to it.
 */
export const withShippedModel = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const shipped = yield* (yield* InstalledModels).inRole("shipped");
    if (Option.isNone(shipped) || !hasBytes(shipped.value)) return yield* effect;
    const opened = yield* openInstalled(shipped.value);
    const base = yield* reportSettings;
    return yield* effect.pipe(
      Effect.provideService(HeadContourModel, opened.model),
      Effect.provideService(ReportConfig, { ...base, analyze: opened.analyze, measurementError: opened.measurementError ?? base.measurementError }),
    );
  });

/** After the shipped model analysed a report: its shadow job, when a shadow is installed (a repeat is a no-op). */
export const queueShadowMeasurement = (reportId: string) =>
  Effect.gen(function* () {
    const shadow = yield* (yield* InstalledModels).inRole("shadow");
    if (Option.isNone(shadow)) return false;
    const report = yield* (yield* Reports).findById(reportId);
    if (Option.isNone(report)) return false;
    yield* (yield* JobQueue).enqueue({
      name: SHADOW_MEASURE_JOB,
      payload: { reportId, round: report.value.round, modelId: shadow.value.id },
      key: shadowJobKey(reportId, report.value.round, shadow.value.id),
      maxAttempts: 3,
    });
    return true;
  });

const SHADOW_UNREADABLE = "The photo could not be decoded";

/**
 * The shadow job: every photo (and kept video frame) of the report's round measured by the shadow
 * installed now, each answer stored apart as it is made. Nothing here touches the report.
 */
export const measureShadow = (reportId: string) =>
  Effect.gen(function* () {
    const shadow = yield* (yield* InstalledModels).inRole("shadow");
    if (Option.isNone(shadow) || !hasBytes(shadow.value)) return { measured: 0 };
    const report = yield* (yield* Reports).findById(reportId);
    if (Option.isNone(report)) return { measured: 0 };
    const store = yield* ShadowMeasurements;
    const done = new Set((yield* store.listByReport(reportId)).filter((a) => a.modelId === shadow.value.id).map((a) => a.attachmentId));
    const photos = (yield* (yield* Attachments).listByReport(reportId)).filter((a) => a.round === report.value.round && (a.kind === "image" || a.kind === "frame") && !done.has(a.id));
    if (photos.length === 0) return { measured: 0 };
    const opened = yield* openInstalled(shadow.value);
    const config = yield* reportSettings;
    const images = yield* Images;
    const blobs = yield* BlobStore;
    let measured = 0;
    for (const photo of photos) {
      const started = performance.now();
      const blob = yield* blobs.get(photo.blobKey);
      const bytes = Option.isNone(blob) ? null : new Uint8Array(yield* Effect.promise(() => new Response(blob.value.body).arrayBuffer()));
      const image = bytes === null ? Option.none() : yield* images.decode(bytes, config.analysisMaxSide);
      const analysis = Option.isNone(image) ? null : yield* Effect.promise(() => analyzePhoto(image.value, opened.model, opened.analyze));
      const ms = performance.now() - started;
      yield* store.insert({
        attachmentId: photo.id,
        modelId: shadow.value.id,
        reportId,
        round: photo.round,
        verdict: analysis?.verdict ?? "retake",
        reasons: analysis?.reasons ?? [],
        ci: analysis?.ci ?? null,
        cvai: analysis?.cvai ?? null,
        cvaMm: analysis?.cva_mm ?? null,
        outline: analysis?.outline ?? null,
        noseTip: analysis?.noseTip ?? null,
        error: analysis ? null : SHADOW_UNREADABLE,
        ms,
        createdAt: yield* now,
      });
      measured++;
    }
    // The job read the child's photos: audited like every read.
    yield* audit({ action: "model.shadow_measured", actorId: null, subjectId: reportId, details: { model: `${shadow.value.name} ${shadow.value.version}`, photos: measured } });
    return { measured };
  });

const summaryOf = (m: InstalledModel) => ({
  identifier: m.id,
  name: m.name,
  version: m.version,
  sha256: m.sha256,
  size: m.size,
  role: m.role,
  /** The release's own model (CROWN_MODEL) rather than one installed through Crown. */
  release_model: !hasBytes(m),
  installed_at: m.installedAt.toISOString(),
  role_since: m.roleSince.toISOString(),
});
export type InstalledModelSummary = ReturnType<typeof summaryOf>;

/**
 * Installs a candidate as the shadow model: checked by the runtime, stored in the object store by
 * checksum, recorded (the shadow it replaces is retired) and audited. `actorId` null: the CLI.
 */
export const installShadow = (input: { readonly bytes: Uint8Array; readonly card: unknown }, actorId: string | null) =>
  Effect.gen(function* () {
    if (input.bytes.byteLength === 0) return yield* ValidationFailed.field("model", "The model file is empty.");
    const checked = yield* (yield* ModelRuntime).inspect(input.bytes, input.card);
    const digest = (yield* ContentHasher).sha256();
    digest.update(input.bytes);
    const sha256 = digest.hex();
    const models = yield* InstalledModels;
    const known = yield* models.list();
    const same = known.find((m) => m.sha256 === sha256 && m.role !== "retired");
    if (same) return yield* ValidationFailed.field("model", `This model is already installed as the ${same.role} model (${same.name} ${same.version}).`);
    const clash = known.find((m) => m.version === checked.version && m.sha256 !== sha256);
    if (clash) return yield* ValidationFailed.field("model", `Version ${checked.version} already names another model: give the candidate's model.json a version of its own.`);
    const key = modelBlobKey(sha256);
    yield* putPending(key, input.bytes, "application/octet-stream");
    const at = yield* now;
    const model: InstalledModel = {
      id: (yield* Random).identifier(),
      name: checked.name,
      version: checked.version,
      sha256,
      blobKey: key,
      size: input.bytes.byteLength,
      card: checked.card,
      role: "shadow",
      installedBy: actorId,
      installedAt: at,
      roleSince: at,
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* models.lockRoles();
        const old = yield* models.inRole("shadow");
        if (Option.isSome(old)) yield* models.setRole(old.value.id, "retired", at);
        yield* models.insert(model);
        yield* keepBlobs([key]);
        yield* audit({ action: "model.shadow_installed", actorId, subjectId: model.id, details: { name: model.name, version: model.version, sha256, replaced: Option.isSome(old) ? old.value.version : null } });
      }),
    ).pipe(Effect.tapErrorCause(() => discardBlobs([key])));
    return summaryOf(model);
  });

/** What the release itself measures with, as a row, the first time a candidate replaces it (so a rollback can name it). */
const releaseModelRow = (at: Date) =>
  Effect.gen(function* () {
    const own = yield* Effect.serviceOption(HeadContourModel);
    const identity = Option.isSome(own) ? own.value.identity : undefined;
    return {
      id: (yield* Random).identifier(),
      name: identity?.name ?? "The release's model",
      version: identity?.version ?? "unknown",
      sha256: null,
      blobKey: null,
      size: null,
      card: null,
      role: "previous",
      installedBy: null,
      installedAt: at,
      roleSince: at,
    } satisfies InstalledModel;
  });

/**
 * Makes the shadow the shipped model: the next report is measured by it, in every worker. The
 * shipped model is kept as `previous` for a rollback; reports already made keep naming the model
 * that measured them (each measurement records it). Sets the candidate's card says it was trained
 * or validated on are marked as used by it (a withdrawal no longer takes a child out of them).
 */
export const promoteShadow = (actorId: string | null) =>
  transaction(
    Effect.gen(function* () {
      const models = yield* InstalledModels;
      yield* models.lockRoles();
      const shadow = yield* models.inRole("shadow");
      if (Option.isNone(shadow)) return yield* ValidationFailed.field("model", LEARNING_MESSAGES.noShadow);
      const at = yield* now;
      const previous = yield* models.inRole("previous");
      if (Option.isSome(previous)) yield* models.setRole(previous.value.id, "retired", at);
      const shipped = yield* models.inRole("shipped");
      const before = Option.isSome(shipped) ? shipped.value : yield* releaseModelRow(at);
      if (Option.isSome(shipped)) yield* models.setRole(shipped.value.id, "previous", at);
      else yield* models.insert(before);
      yield* models.setRole(shadow.value.id, "shipped", at);
      const sets = shadow.value.card?.reviewed_sets;
      const used = Array.isArray(sets) ? sets.filter((s): s is string => typeof s === "string") : [];
      if (used.length > 0) yield* (yield* ReviewedSets).markUsed(used, `${shadow.value.name} ${shadow.value.version}`);
      yield* audit({ action: "model.promoted", actorId, subjectId: shadow.value.id, details: { shipped: shadow.value.version, previous: before.version, reviewed_sets: used } });
      return { shipped: summaryOf({ ...shadow.value, role: "shipped", roleSince: at }), previous: summaryOf({ ...before, role: "previous", roleSince: at }) };
    }),
  );

/** Goes back to the model shipped before the last promotion; the rolled-back one is retired (kept, listed). */
export const rollbackModel = (actorId: string | null) =>
  transaction(
    Effect.gen(function* () {
      const models = yield* InstalledModels;
      yield* models.lockRoles();
      const previous = yield* models.inRole("previous");
      if (Option.isNone(previous)) return yield* ValidationFailed.field("model", LEARNING_MESSAGES.noPrevious);
      const at = yield* now;
      const shipped = yield* models.inRole("shipped");
      if (Option.isSome(shipped)) yield* models.setRole(shipped.value.id, "retired", at);
      yield* models.setRole(previous.value.id, "shipped", at);
      yield* audit({ action: "model.rolled_back", actorId, subjectId: previous.value.id, details: { shipped: previous.value.version, retired: Option.isSome(shipped) ? shipped.value.version : null } });
      return { shipped: summaryOf({ ...previous.value, role: "shipped", roleSince: at }), retired: Option.isSome(shipped) ? summaryOf({ ...shipped.value, role: "retired", roleSince: at }) : null };
    }),
  );

/** Every installed model with its role, live roles first. */
export const installedModels = Effect.gen(function* () {
  const all = yield* (yield* InstalledModels).list();
  const rank = (r: ModelRole) => MODEL_ROLES.indexOf(r);
  return [...all].sort((a, b) => rank(a.role) - rank(b.role) || b.roleSince.getTime() - a.roleSince.getTime()).map(summaryOf);
});

/** The admin console's switches are the admins' (a reviewer sees the figures, not the switches). */
export const requireAdmin = Effect.asVoid(requireType("admin"));

// The admin console's calls: admins only (a reviewer sees the figures, not the switches).
export const installShadowAsAdmin = (input: { readonly bytes: Uint8Array; readonly card: unknown }) =>
  Effect.flatMap(requireType("admin"), (caller) => installShadow(input, caller.user.id));
export const promoteAsAdmin = Effect.flatMap(requireType("admin"), (caller) => promoteShadow(caller.user.id));
export const rollbackAsAdmin = Effect.flatMap(requireType("admin"), (caller) => rollbackModel(caller.user.id));
