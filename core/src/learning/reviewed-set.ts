import { Effect, Option } from "effect";
import { QUALITY_REASONS } from "../measurement/verdict.ts";
import { isPublished, statusesWhere } from "../report/lifecycle.ts";
import { Images } from "../report/model.ts";
import { agreementRowOf } from "./agreement.ts";
import { reportSettings } from "../report/policy.ts";
import { BlobStore, now, Random } from "../shared/ports.ts";
import { RETENTION_YEARS } from "./consent-text.ts";
import { consented, type ReviewedPhoto, ReviewedSets } from "./model.ts";

/**
 * The reviewed set (issue 41): every photo of a published report's last round, as its reviewer left
 * it, for the children whose parent consented, within the retention period. Each becomes a labelled
 * example in the format models/head-contour evaluates on (images and truth.json, as
 * tests/bench/generalisation.bench.ts reads): the reviewer's outline, nose tip, figures, decision
 * and reason as the truth, the model's own answer beside it, and nothing that names the child.
 */

export const SET_FORMAT = "crown-reviewed-set/1";

/** One example's line of truth.json (image names are random: they lead back to no one). */
export const truthOf = (p: ReviewedPhoto, image: string, stickerMm: number) => {
  const m = p.measurement;
  const g = m.geometry!;
  // The reviewer's side as the agreement reads it (model-page.ts): one rule for both.
  const reviewer = agreementRowOf(p).truth;
  const model = m.modelAnswer ?? { ci: m.ci, cvai: m.cvai, cvaMm: m.cvaMm, geometry: g };
  return {
    image,
    width: g.imageWidth,
    height: g.imageHeight,
    ci: m.ci,
    cvai: m.cvai,
    cva_mm: m.cvaMm,
    reasons: [...reviewer.reasons],
    // A real photo's sticker is the kit's (on the cap); the bench reads its size from here.
    cap: g.sticker !== null,
    sticker: g.sticker === null ? null : { mm: stickerMm, centre: g.sticker.centre, radius: g.sticker.radius },
    outline: g.outline,
    nose: g.noseTip,
    decision: reviewer.accepted ? ("accept" as const) : ("reject" as const),
    confirmed: m.decision !== null ? "explicit" : "implicit",
    corrected: { outline: m.outlineCorrected, nose: m.noseCorrected },
    model: {
      name: m.model?.name ?? null,
      version: m.model?.version ?? null,
      verdict: m.verdict,
      reasons: m.reasons.map((r) => (QUALITY_REASONS as ReadonlyArray<string>).indexOf(r)).filter((i) => i >= 0),
      ci: model.ci,
      cvai: model.cvai,
      cva_mm: model.cvaMm,
      outline: model.geometry.outline,
      nose: model.geometry.noseTip,
    },
  };
};
export type TruthItem = ReturnType<typeof truthOf>;

/** A set's counts from its truth items (also after a withdrawal took some out). */
export const setCounts = (items: ReadonlyArray<Pick<TruthItem, "decision" | "confirmed" | "corrected" | "sticker" | "reasons">>) => {
  const count = (f: (t: (typeof items)[number]) => boolean) => items.filter(f).length;
  return {
    examples: items.length,
    accepted: count((t) => t.decision === "accept"),
    rejected: count((t) => t.decision === "reject"),
    confirmed_explicitly: count((t) => t.confirmed === "explicit"),
    outline_corrected: count((t) => t.corrected.outline),
    nose_corrected: count((t) => t.corrected.nose),
    with_sticker: count((t) => t.sticker !== null),
    by_reason: Object.fromEntries(QUALITY_REASONS.map((r, i) => [r, count((t) => t.reasons.includes(i))])),
  };
};

/** The reviewed photos as they stand, each with whether it may go into a set (and why not). */
export const reviewedPhotos = Effect.gen(function* () {
  const photos = yield* (yield* ReviewedSets).reviewedPhotos(statusesWhere(isPublished));
  const at = yield* now;
  const oldest = new Date(at.getTime() - RETENTION_YEARS * 365.25 * 86_400_000);
  return photos.map((p) => ({
    photo: p,
    usable: consented(p.consent) && p.measurement.geometry !== null && p.measurement.error === null && p.measurement.createdAt >= oldest,
  }));
});

/** The examples of a new set: the usable photos with fresh random image names, their truth, and the manifest. */
export const newReviewedSet = Effect.gen(function* () {
  const all = yield* reviewedPhotos;
  const random = yield* Random;
  const stickerMm = (yield* reportSettings).analyze.stickerDiameterMm ?? 30;
  const at = yield* now;
  const usable = all.filter((x) => x.usable).map((x) => x.photo);
  const examples = usable.map((p) => {
    const image = `images/${random.identifier().toLowerCase()}.jpg`;
    return { photo: p, image, truth: truthOf(p, image, stickerMm) };
  });
  const id = random.identifier();
  const models = new Map<string, { name: string | null; version: string | null; examples: number }>();
  for (const e of examples) {
    const key = `${e.truth.model.name}@${e.truth.model.version}`;
    const row = models.get(key) ?? { name: e.truth.model.name, version: e.truth.model.version, examples: 0 };
    models.set(key, { ...row, examples: row.examples + 1 });
  }
  const times = usable.map((p) => p.reviewedAt.getTime());
  const manifest = {
    format: SET_FORMAT,
    set: id,
    created_at: at.toISOString(),
    counts: { ...setCounts(examples.map((e) => e.truth)), reviewed_photos: all.length, left_out: all.length - examples.length },
    models: [...models.values()],
    dates: { first_review: times.length ? new Date(Math.min(...times)).toISOString() : null, last_review: times.length ? new Date(Math.max(...times)).toISOString() : null },
    // Consent at export time, per example: no child named, only that a parent granted it, when, and the text they read.
    consent: examples.map((e) => ({ image: e.image, granted_at: e.photo.consent?.chosenAt?.toISOString() ?? null, text_version: e.photo.consent?.textVersion ?? null })),
    retention_years: RETENTION_YEARS,
  };
  return { id, examples, manifest, truth: { seed: 0, renderer: "reviewed", items: examples.map((e) => e.truth) } };
});

/** Records a written set, so a withdrawal can take a child out of it while no shipped model has used it. */
export const recordReviewedSet = (set: Effect.Effect.Success<typeof newReviewedSet>, directory: string) =>
  Effect.gen(function* () {
    yield* (yield* ReviewedSets).record({
      id: set.id,
      directory,
      createdAt: new Date(set.manifest.created_at),
      manifest: set.manifest,
      usedByModel: null,
      examples: set.examples.map((e) => ({ attachmentId: e.photo.attachmentId, babyId: e.photo.babyId, image: e.image })),
    });
  });

/** `crown dataset:stats`: the counts, without writing anything. */
export const reviewedSetStats = Effect.gen(function* () {
  const all = yield* reviewedPhotos;
  const choice = (c: string | null) => all.filter((x) => (x.photo.consent?.choice ?? null) === c).length;
  const set = yield* newReviewedSet;
  const sets = yield* (yield* ReviewedSets).list();
  return {
    reviewed_photos: all.length,
    consent: { granted: choice("granted"), none: choice(null), declined: choice("declined"), withdrawn: choice("withdrawn") },
    next_set: set.manifest.counts,
    models: set.manifest.models,
    dates: set.manifest.dates,
    sets: sets.map((s) => ({ id: s.id, directory: s.directory, created_at: s.createdAt.toISOString(), examples: s.examples, used_by_model: s.usedByModel })),
  };
});

/** An example's photo as the set keeps it: EXIF orientation applied, every metadata block gone, at the outline's pixel size. */
export const exampleImage = (photo: ReviewedPhoto) =>
  Effect.gen(function* () {
    const blob = yield* (yield* BlobStore).get(photo.blobKey);
    if (Option.isNone(blob)) return Option.none<Uint8Array>();
    const bytes = new Uint8Array(yield* Effect.promise(() => new Response(blob.value.body).arrayBuffer()));
    const g = photo.measurement.geometry!;
    return yield* (yield* Images).clean(bytes, Math.max(g.imageWidth, g.imageHeight));
  });
