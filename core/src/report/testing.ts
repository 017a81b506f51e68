import { Effect, Exit, Layer, Option } from "effect";
import type { Caller, User } from "../accounts/model.ts";
import type { HeadContourModel } from "../measurement/model.ts";
import { HeadContourModel as HeadContourModelTag } from "../measurement/model.ts";
import type { RgbImage } from "../measurement/image.ts";
import type { Baby } from "../onboarding/model.ts";
import { BlobStore } from "../shared/ports.ts";
import { CurrentUser } from "../accounts/model.ts";
import { type EnqueueJob, JobQueue } from "../shared/jobs.ts";
import { rollbackOnFailure } from "../testing/rollback.ts";
import { INITIAL_REPORT_STATUS, reviewable } from "./lifecycle.ts";
import { type OnboardingWorld } from "../testing/onboarding-memory.ts";
import { aBaby } from "../testing/babies.ts";
import { makeTestWorld } from "../testing/memory.ts";
import { makeOnboardingWorld } from "../testing/onboarding-memory.ts";
import { analyzeReport } from "./analyze-report.ts";
import { finalizeReport } from "./finalize-report.ts";
import { prepareReport } from "./prepare-report.ts";
import { type UploadPart, uploadAttachments } from "./upload.ts";
import {
  type Attachment,
  Attachments,
  ContentHasher,
  FrameExtractor,
  Images,
  type Measurement,
  Measurements,
  ReadFlags,
  type Report,
  ReportConfig,
  defaultReportSettings,
  ReportRenderer,
  Reports,
  type ReportVersion,
  ReportVersions,
  type ReviewAction,
  ReviewActions,
} from "./model.ts";

/**
 * In-memory report ports over the onboarding world, for unit and property tests: plain maps a
 * test can read, a Transactor that restores them when a transaction fails, and a crash switch
 * that kills the process (a defect) at the n-th write, to prove every step can be retried.
 *
 * Photos are tiny fakes: PNG magic bytes then `head:<rx>:<ry>:<salt>`; `Images.decode` draws that
 * head (skin-coloured ellipse, red nose) and a colour-reading stand-in for the model measures it.
 */

export const fakePhoto = (rx: number, ry: number, salt = 0): Uint8Array =>
  new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new TextEncoder().encode(`head:${rx}:${ry}:${salt}`)]);

const drawHead = (rx: number, ry: number): RgbImage => {
  const width = 160;
  const height = 200;
  const data = new Uint8Array(width * height * 3);
  const cx = width / 2;
  const cy = height / 2 + 8;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const head = ((x + 0.5 - cx) / rx) ** 2 + ((y + 0.5 - cy) / ry) ** 2 <= 1;
      const nose = (x + 0.5 - cx) ** 2 + (y + 0.5 - (cy - ry - 4)) ** 2 <= 16;
      const [r, g, b] = nose ? [220, 20, 20] : head ? [240, 190, 150] : [30, 40, 80];
      data[i] = r;
      data[i + 1] = g;
      data[i + 2] = b;
    }
  }
  return { width, height, data, channels: 3 };
};

const decodeFake = (bytes: Uint8Array): Option.Option<RgbImage> => {
  const text = new TextDecoder().decode(bytes.subarray(8));
  const m = /^head:(\d+):(\d+):/.exec(text);
  return m ? Option.some(drawHead(Number(m[1]), Number(m[2]))) : Option.none();
};

/** Skin is head, red is the nose, no sticker, every quality logit says fine. */
export const colourModel = (size = 160): HeadContourModel => ({
  async run(input, n) {
    const plane = size * size;
    const mask = new Float32Array(n * plane);
    const nose = new Float32Array(n * plane);
    for (let i = 0; i < n; i++) {
      for (let p = 0; p < plane; p++) {
        const r = input[i * 3 * plane + p]!;
        const g = input[i * 3 * plane + plane + p]!;
        const b = input[i * 3 * plane + 2 * plane + p]!;
        mask[i * plane + p] = r > 0.75 && g > 0.55 && g < 0.9 && b > 0.4 && b < 0.75 ? 8 : -8;
        nose[i * plane + p] = r > 0.6 && g < 0.35 && b < 0.35 ? 6 : -8;
      }
    }
    return { mask, nose, sticker: new Float32Array(n * plane).fill(-10), quality: new Float32Array(n * 8).fill(-6) };
  },
});

export class Crash extends Error {
  constructor(readonly at: number) {
    super(`simulated crash at write ${at}`);
  }
}

export interface ReportWorld {
  readonly onboarding: OnboardingWorld;
  readonly reports: Map<string, Report>;
  readonly attachments: Map<string, Attachment>;
  readonly measurements: Map<string, Measurement>;
  readonly actions: ReviewAction[];
  readonly versions: ReportVersion[];
  readonly reads: Map<string, { readBy: string; at: Date }>;
  readonly jobs: Array<EnqueueJob & { done: boolean }>;
  /** Writes so far (repository writes, blob puts, enqueues); each may be the crash point. */
  readonly writes: { count: number; crashAt: number | null };
  readonly run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>;
  readonly exit: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<Exit.Exit<A, E>>;
  readonly as: (user: User) => <A, E>(effect: Effect.Effect<A, E, any>) => Effect.Effect<A, E, any>;
  readonly addUser: (user: User) => void;
  readonly addBaby: (baby: Baby) => void;
}

export const makeReportWorld = (onboarding: OnboardingWorld, options: { model?: boolean } = {}): ReportWorld => {
  const reports = new Map<string, Report>();
  const attachments = new Map<string, Attachment>();
  const measurements = new Map<string, Measurement>();
  const actions: ReviewAction[] = [];
  const versions: ReportVersion[] = [];
  const reads = new Map<string, { readBy: string; at: Date }>();
  const jobs: Array<EnqueueJob & { done: boolean }> = [];
  const writes = { count: 0, crashAt: null as number | null };
  const write = <A>(f: () => A) =>
    Effect.suspend(() => {
      writes.count++;
      if (writes.crashAt !== null && writes.count === writes.crashAt) return Effect.die(new Crash(writes.count));
      return Effect.sync(f);
    });
  const read = <A>(f: () => A) => Effect.sync(f);
  const page = <T>(items: T[], p: { page: number; perPage: number }) => ({ data: items.slice((p.page - 1) * p.perPage, p.page * p.perPage), total: items.length });
  const time = (d: Date | null) => d?.getTime() ?? 0;
  const parentOf = (babyId: string): User | null => {
    const parentId = onboarding.babies.get(babyId)?.parentId;
    return (parentId ? onboarding.world.users.get(parentId) : undefined) ?? null;
  };

  const ports = Layer.mergeAll(
    Layer.succeed(Reports, {
      insert: (r) => write(() => void reports.set(r.id, r)),
      findById: (id) => read(() => Option.fromNullable(reports.get(id))),
      lock: (id) => read(() => Option.fromNullable(reports.get(id))),
      update: (id, patch) =>
        write(() => {
          const r = reports.get(id);
          if (r) reports.set(id, { ...r, ...patch });
        }),
      reviewQueue: (p) =>
        read(() =>
          page(
            [...reports.values()]
              .filter((r) => reviewable(r.status))
              .sort((a, b) => time(a.submittedAt) - time(b.submittedAt))
              .map((report) => ({ report, baby: onboarding.babies.get(report.babyId) ?? null })),
            p,
          ),
        ),
      publishedForBaby: (babyId) => read(() => [...reports.values()].filter((r) => r.babyId === babyId && r.version > 0).sort((a, b) => time(a.submittedAt) - time(b.submittedAt))),
      publishedForBabies: (babyIds) =>
        read(() => [...reports.values()].filter((r) => babyIds.includes(r.babyId) && r.version > 0).sort((a, b) => time(a.submittedAt) - time(b.submittedAt))),
      resultsForPhysician: (physicianId, q, p) =>
        read(() =>
          page(
            [...reports.values()]
              .filter((r) => r.physicianId === physicianId && r.version > 0)
              .map((report) => ({ report, read: reads.has(`${report.id}:${physicianId}`), parent: parentOf(report.babyId), caregiverEmail: onboarding.babies.get(report.babyId)?.caregiverEmail ?? null }))
              .filter((row) => (q.filter === "new" ? !row.read : q.filter === "reviewed" ? row.read : true))
              .filter((row) => !q.search || row.report.babyName.toLowerCase().includes(q.search.toLowerCase())),
            p,
          ),
        ),
      resultsForBabies: (ids, _q, p) => read(() => page([...reports.values()].filter((r) => ids.includes(r.babyId) && r.version > 0), p)),
      uploadsForBaby: (babyId, p) => read(() => page([...reports.values()].filter((r) => r.babyId === babyId && r.status !== INITIAL_REPORT_STATUS), p)),
      lastSubmitted: () => read(() => new Map()),
    }),
    Layer.succeed(Attachments, {
      insert: (a) =>
        write(() => {
          for (const b of attachments.values()) {
            // The database's unique index: the same bytes once per round.
            if (a.kind !== "frame" && b.kind !== "frame" && b.reportId === a.reportId && b.round === a.round && b.sha256 === a.sha256) throw new Error("duplicate sha256");
          }
          attachments.set(a.id, a);
        }),
      findById: (id) => read(() => Option.fromNullable(attachments.get(id))),
      listByReport: (reportId) => read(() => [...attachments.values()].filter((a) => a.reportId === reportId)),
      listByReports: (ids) => read(() => [...attachments.values()].filter((a) => ids.includes(a.reportId))),
      findBySha256: (reportId, round, sha) =>
        read(() => Option.fromNullable([...attachments.values()].find((a) => a.reportId === reportId && a.round === round && a.sha256 === sha && a.kind !== "frame"))),
    }),
    Layer.succeed(Measurements, {
      upsert: (m) => write(() => void measurements.set(m.attachmentId, m)),
      find: (id) => read(() => Option.fromNullable(measurements.get(id))),
      listByReport: (reportId) => read(() => [...measurements.values()].filter((m) => m.reportId === reportId)),
    }),
    Layer.succeed(ReviewActions, {
      insert: (a) => write(() => void actions.push(a)),
      listByReport: (reportId) => read(() => actions.filter((a) => a.reportId === reportId)),
    }),
    Layer.succeed(ReportVersions, {
      insert: (v) =>
        write(() => {
          if (versions.some((x) => x.reportId === v.reportId && x.version === v.version)) throw new Error("duplicate version");
          versions.push(v);
        }),
      latest: (reportId) => read(() => Option.fromNullable(versions.filter((v) => v.reportId === reportId).sort((a, b) => b.version - a.version)[0])),
      listByReports: (ids) => read(() => versions.filter((v) => ids.includes(v.reportId))),
    }),
    Layer.succeed(ReadFlags, {
      markRead: (reportId, physicianId, readBy, at) => write(() => void (reads.has(`${reportId}:${physicianId}`) || reads.set(`${reportId}:${physicianId}`, { readBy, at }))),
      isRead: (reportId, physicianId) => read(() => reads.has(`${reportId}:${physicianId}`)),
      clear: (reportId) =>
        write(() => {
          for (const key of [...reads.keys()]) if (key.startsWith(`${reportId}:`)) reads.delete(key);
        }),
    }),
    Layer.succeed(JobQueue, {
      enqueue: (job) => write(() => void (jobs.some((j) => !j.done && j.key !== undefined && j.key === job.key) || jobs.push({ ...job, done: false }))),
    }),
    Layer.succeed(ContentHasher, {
      // FNV-1a, 64 bits: enough to tell test files apart (core has no node:crypto).
      sha256: () => {
        let h = 0xcbf29ce484222325n;
        return {
          update: (chunk: Uint8Array) => {
            for (const b of chunk) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
          },
          hex: () => h.toString(16).padStart(64, "0"),
        };
      },
    }),
    Layer.succeed(Images, {
      decode: (bytes) => read(() => decodeFake(bytes)),
      clean: (bytes) => read(() => Option.some(bytes)),
      thumbnail: (bytes) => read(() => Option.some(bytes.subarray(0, 16))),
    }),
    Layer.succeed(FrameExtractor, { unavailable: () => Effect.succeed("ffmpeg is not installed (test)"), extract: () => Effect.succeed({ error: "no ffmpeg" }) }),
    Layer.succeed(ReportRenderer, { render: (doc) => Effect.sync(() => new TextEncoder().encode(`%PDF-fake ${JSON.stringify({ ci: doc.summary.ci, cvai: doc.summary.cvai, reviewer: doc.reviewer })}`)) }),
    Layer.succeed(ReportConfig, { ...defaultReportSettings, analyze: { inputSize: 160 } }),
  );
  const model = options.model === false ? Layer.empty : Layer.succeed(HeadContourModelTag, colourModel());

  const transactor = rollbackOnFailure([reports, attachments, measurements, reads], [actions, versions, jobs]);
  // Blob puts count as writes too: a crash may come after the bytes are stored and before their row.
  const blobs = Layer.effect(
    BlobStore,
    Effect.map(BlobStore, (inner) => ({
      ...inner,
      put: (key: string, body: Uint8Array | ReadableStream<Uint8Array>, type: string) => Effect.zipRight(write(() => undefined), inner.put(key, body, type)),
    })),
  );
  const layer = Layer.mergeAll(ports, model, transactor, blobs);
  const provide = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(Effect.provide(effect, layer), onboarding.layer) as Effect.Effect<A, E, any>;
  return {
    onboarding,
    reports,
    attachments,
    measurements,
    actions,
    versions,
    reads,
    jobs,
    writes,
    run: (effect) => onboarding.world.run(provide(effect)),
    exit: (effect) => onboarding.world.exit(provide(effect)),
    as: (user) => (effect) => Effect.provideService(effect, CurrentUser, { user, session: { id: `s-${user.id}`, userId: user.id } } as unknown as Caller),
    addUser: (user) => void onboarding.world.users.set(user.id, user),
    addBaby: (baby) => void onboarding.babies.set(baby.id, baby),
  };
};

// A parent, their physician, a reviewer and a baby, for the use-case tests of reports.
export const at = new Date("2026-11-01T09:00:00Z");
export const aUser = (id: string, type: User["type"], firstName: string): User => ({
  id,
  email: `${id}@example.org`,
  passwordHash: "x",
  type,
  status: "Active",
  firstName,
  lastName: "Test",
  phone: null,
  faxNumber: null,
  emailVerifiedAt: at,
  passwordChangedAt: at,
  photoKey: null,
  photoType: null,
  disclaimerAcceptedAt: at,
  baaSignedAt: at,
  quizPassedAt: at,
  npi: null,
  practiceVerifiedAt: type === "physician" ? at : null,
  language: "en",
  secondFactorAt: at,
  createdAt: at,
});
export const PARENT = aUser("parent-1", "parent", "Pat");
export const PHYSICIAN = aUser("physician-1", "physician", "Phil");
export const REVIEWER = aUser("reviewer-1", "reviewer", "Rae");
export const BABY: Baby = aBaby({
  id: "baby-1",
  parentId: PARENT.id,
  physicianId: PHYSICIAN.id,
  firstName: "Mia",
  lastName: "Test",
  dateOfBirth: "2026-07-01",
  createdBy: PARENT.id,
  createdAt: at,
});

/**
 * A report of `photos` (PNG bytes) uploaded by PARENT for BABY, finalized and analysed, waiting for
 * review in a fresh in-memory world with PARENT, PHYSICIAN and REVIEWER; `photo(name)` finds an upload.
 */
export const analysedTestReport = async (photos: ReadonlyArray<Uint8Array>) => {
  const w = makeReportWorld(makeOnboardingWorld(makeTestWorld()));
  for (const u of [PARENT, PHYSICIAN, REVIEWER]) w.addUser(u);
  w.addBaby(BABY);
  const id = (await w.run(w.as(PARENT)(prepareReport({ baby_identifier: BABY.id, analysis_type: "head_ci_cvai_analysis" })))).report_identifier;
  async function* parts(): AsyncGenerator<UploadPart> {
    yield { type: "field", name: "report_identifier", value: id };
    for (const [i, bytes] of photos.entries()) yield { type: "file", name: "attachments[]", fileName: `photo-${i + 1}.png`, stream: new Blob([bytes as Uint8Array<ArrayBuffer>]).stream() };
  }
  await w.run(w.as(PARENT)(uploadAttachments(parts())));
  await w.run(w.as(PARENT)(finalizeReport({ report_identifier: id })));
  await w.run(analyzeReport(id));
  const photo = (name: string) => [...w.attachments.values()].find((a) => a.reportId === id && a.fileName === name)!;
  return { w, id, photo };
};
