import { Effect, Option } from "effect";
import { type Caller, CurrentUser, type Session, type User, Users } from "../accounts/model.ts";
import { reportDocument } from "../fhir/report-document.ts";
import { composeIn, greeting, mailText } from "../i18n/mails/index.ts";
import { localizedPdfKey } from "../report/notices.ts";
import { requireActive } from "../accounts/access.ts";
import { Conflict, type DomainError, NotFound } from "../shared/errors.ts";
import { formatMoment } from "../shared/dates.ts";
import { LANGUAGES } from "../shared/i18n.ts";
import { JobQueue } from "../shared/jobs.ts";
import { queueMail } from "../shared/mail-jobs.ts";
import { keepBlobs, PendingBlobs } from "../shared/pending-blobs.ts";
import { audit, BlobStore, now, Random, Secrets, transaction } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { AccountsConfig } from "../accounts/model.ts";
import { AVAILABLE_EXPORT, exportAfter, exportInProgress, PREPARING_EXPORT } from "./lifecycle.ts";
import { ArchiveMaker, type ArchiveEntry, type DataExport, DataExports, FamilyRecords, type FamilySnapshot } from "./model.ts";
import { DownloadExportRequest, FAMILY_DATA_MESSAGES } from "./requests.ts";
import { requireRecentProof } from "../accounts/recent-proof.ts";

/**
 * A family's own data (issue 44): a parent asks, a background job writes one zip archive of
 * everything Crown holds about them and each child into the object store (progress shown on My
 * data), and an e-mailed link downloads it once, within 24 hours, after a fresh sign-in. Nothing
 * of another family: the archive is read from the parent's own rows (FamilyRecords.snapshot).
 */

export const PREPARE_DATA_EXPORT_JOB = "prepare-data-export";
/** How long the e-mailed link works. */
export const EXPORT_LINK_HOURS = 24;
/** Exports listed on My data. */
const LISTED = 5;

const presentExport = (e: DataExport) => ({
  identifier: e.id,
  status: e.status,
  items_done: e.itemsDone,
  items_total: e.itemsTotal,
  size: e.size,
  requested_at: e.createdAt.toISOString(),
  ready_at: e.readyAt?.toISOString() ?? null,
  expires_at: e.expiresAt?.toISOString() ?? null,
  downloaded_at: e.downloadedAt?.toISOString() ?? null,
});

/** `POST /user/data-exports`: parents; a fresh proof; one at a time. The job is queued with the row. */
export const requestExport = Effect.gen(function* () {
  const caller = yield* requireActive("parent");
  yield* requireRecentProof;
  const exports = yield* DataExports;
  const at = yield* now;
  const [latest] = yield* exports.forUser(caller.user.id, 1);
  if (latest !== undefined && exportInProgress(latest.status)) return { message: FAMILY_DATA_MESSAGES.exportInProgress, results: presentExport(latest) };
  const created: DataExport = {
    id: (yield* Random).identifier(),
    userId: caller.user.id,
    status: PREPARING_EXPORT,
    itemsDone: 0,
    itemsTotal: 0,
    blobKey: null,
    size: null,
    linkDigest: null,
    createdAt: at,
    readyAt: null,
    expiresAt: null,
    downloadedAt: null,
  };
  yield* transaction(
    Effect.gen(function* () {
      yield* exports.insert(created);
      yield* (yield* JobQueue).enqueue({ name: PREPARE_DATA_EXPORT_JOB, payload: { exportId: created.id }, key: created.id, maxAttempts: 3 });
      yield* audit({ action: "data.export_requested", actorId: caller.user.id, subjectId: caller.user.id, details: { export: created.id } });
    }),
  );
  return { message: FAMILY_DATA_MESSAGES.exportRequested, results: presentExport(created) };
});

/** `GET /user/data-exports`: the caller's latest exports with their progress. */
export const listExports = Effect.gen(function* () {
  const { user } = yield* CurrentUser;
  return (yield* (yield* DataExports).forUser(user.id, LISTED)).map(presentExport);
});

const json = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
/** A name safe inside a zip (no folders, no control characters). */
const safeName = (name: string) => name.replace(/[\\/\u0000-\u001f]+/g, "_").slice(0, 120) || "file";

const README = (user: User, at: Date) =>
  [
    `Crown: everything Crown holds about ${user.firstName} ${user.lastName} (${user.email}) and their children, as of ${at.toISOString()}.`,
    "",
    "profile.json            your account (no password: Crown keeps only a one-way hash of it, which is not included)",
    "consents.json           the disclaimer you accepted, practices' requests to link your children and your answers, marketing details, sign-in sessions",
    "notifications.json      the notifications Crown showed you",
    "chat/                   your support conversations, their messages and attached files",
    "children/<id>/child.json                      each child's details",
    "children/<id>/reports/<id>/report.json        each report with its measurements (measurements.json)",
    "children/<id>/reports/<id>/files/             the photos and videos sent",
    "children/<id>/reports/<id>/report-v<n>.pdf    each published version of the report (and its other languages)",
    "children/<id>/reports/<id>/fhir-bundle.json   the published report as the FHIR R4 document Crown gives providers",
    "",
  ].join("\n");

/** The archive's files, in order: JSON first, then the blobs. */
const entriesOf = (user: User, snapshot: FamilySnapshot, bundles: ReadonlyMap<string, unknown>, at: Date): ArchiveEntry[] => {
  const entries: ArchiveEntry[] = [
    { path: "README.txt", bytes: new TextEncoder().encode(README(user, at)) },
    { path: "profile.json", bytes: json(snapshot.profile) },
    { path: "consents.json", bytes: json(snapshot.consents) },
    { path: "notifications.json", bytes: json(snapshot.notifications) },
    { path: "chat/conversations.json", bytes: json({ conversations: snapshot.conversations, messages: snapshot.messages, attachments: snapshot.chatAttachments }) },
  ];
  if (typeof snapshot.profile.photo_key === "string") entries.push({ path: `profile-photo.${snapshot.profile.photo_key.split(".").pop() ?? "jpg"}`, blobKey: snapshot.profile.photo_key });
  for (const a of snapshot.chatAttachments) entries.push({ path: `chat/files/${a.id}-${safeName(a.file_name)}`, blobKey: a.blob_key });
  for (const child of snapshot.children) {
    const base = `children/${child.baby.id}`;
    entries.push({ path: `${base}/child.json`, bytes: json(child.baby) });
    for (const r of child.reports) {
      const dir = `${base}/reports/${r.report.id}`;
      entries.push({ path: `${dir}/report.json`, bytes: json({ report: r.report, attachments: r.attachments, versions: r.versions }) });
      entries.push({ path: `${dir}/measurements.json`, bytes: json(r.measurements) });
      const bundle = bundles.get(r.report.id);
      if (bundle !== undefined) entries.push({ path: `${dir}/fhir-bundle.json`, bytes: json(bundle) });
      for (const a of r.attachments) entries.push({ path: `${dir}/files/${a.id}.${safeName(a.extension)}`, blobKey: a.blob_key });
      for (const v of r.versions) {
        for (const language of LANGUAGES) {
          const suffix = language === "en" ? "" : `.${language}`;
          entries.push({ path: `${dir}/report-v${v.version}${suffix}.pdf`, blobKey: localizedPdfKey(v.blob_key, language) });
        }
      }
    }
  }
  return entries;
};

/** The parent as the job acts for them: reads go through the same rules (and audit) as their own calls. */
const actingAs = (user: User, exportId: string, at: Date): Caller => {
  const session: Session = {
    id: `export:${exportId}`,
    userId: user.id,
    tokenDigest: `export:${exportId}`,
    createdAt: at,
    lastSeenAt: at,
    expiresAt: at,
    idleTimeoutSeconds: null,
    revokedAt: null,
    deviceType: "export",
    lastProofAt: at,
    secondFactorAt: null,
  };
  return { user, session };
};

export const exportLinkMail = (user: User, url: string, until: Date) => {
  const t = mailText(user.language, "dataExport");
  return composeIn(user.language, {
    to: user.email,
    subject: t("subject"),
    greeting: greeting(user.language, user.firstName),
    paragraphs: [t("ready"), t("once", { until: formatMoment(until, user.language) }), t("notYou")],
    action: { label: t("action"), url },
  });
};

/** The job: builds the archive, then (one transaction) names it, mails the link and audits. Runs again harmlessly. */
export const prepareExport = (exportId: string) =>
  Effect.gen(function* () {
    const exports = yield* DataExports;
    const found = yield* exports.find(exportId);
    if (Option.isNone(found) || exportAfter(found.value.status, "PREPARED") === null) return;
    const user = yield* (yield* Users).findById(found.value.userId);
    if (Option.isNone(user)) return;
    const at = yield* now;
    const snapshot = yield* (yield* FamilyRecords).snapshot(user.value.id);
    // Each published report as the FHIR document Crown gives providers, read as the parent (audited).
    const caller = actingAs(user.value, exportId, at);
    const bundles = new Map<string, unknown>();
    for (const child of snapshot.children) {
      for (const r of child.reports) {
        if (r.report.version < 1) continue;
        const bundle = yield* Effect.either(Effect.provideService(reportDocument(r.report.id), CurrentUser, caller) as Effect.Effect<unknown, DomainError, never>);
        if (bundle._tag === "Right") bundles.set(r.report.id, bundle.right);
      }
    }
    const entries = entriesOf(user.value, snapshot, bundles, at);
    yield* exports.progress(exportId, 0, entries.length);
    const key = `exports/${user.value.id}/${exportId}.zip`;
    const pending = yield* Effect.serviceOption(PendingBlobs);
    if (Option.isSome(pending)) yield* pending.value.hold(key);
    const step = Math.max(1, Math.floor(entries.length / 20));
    const { size } = yield* (yield* ArchiveMaker).write(key, entries, (done) => (done % step === 0 || done === entries.length ? exports.progress(exportId, done, entries.length) : Effect.void));
    const token = (yield* Random).secret(32);
    const done = yield* now;
    const expiresAt = new Date(done.getTime() + EXPORT_LINK_HOURS * 3600_000);
    const config = yield* AccountsConfig;
    const url = `${config.publicUrl}/my-data/download?export=${encodeURIComponent(exportId)}&token=${encodeURIComponent(token)}`;
    yield* transaction(
      Effect.gen(function* () {
        yield* exports.update(exportId, {
          status: AVAILABLE_EXPORT,
          blobKey: key,
          size,
          linkDigest: (yield* Secrets).digest(token),
          readyAt: done,
          expiresAt,
          itemsDone: entries.length,
          itemsTotal: entries.length,
        });
        yield* keepBlobs([key]);
        yield* audit({ action: "data.export_prepared", actorId: null, subjectId: user.value.id, details: { export: exportId, files: entries.length, size } });
        yield* queueMail(exportLinkMail(user.value, url, expiresAt));
      }),
    );
  });

/** The job's last attempt failed: the export says so, and the parent may ask again. */
export const giveUpExport = (exportId: string) =>
  Effect.gen(function* () {
    const exports = yield* DataExports;
    const found = yield* exports.find(exportId);
    if (Option.isNone(found)) return;
    const next = exportAfter(found.value.status, "GAVE_UP");
    if (next !== null) yield* exports.update(exportId, { status: next });
  });

/**
 * `POST /user/data-exports/download` with `{ identifier, token }` from the e-mailed link: the caller's
 * own export, a fresh proof, the link once and within 24 hours. Answers the archive's stream.
 */
export const downloadExport = (input: unknown) =>
  Effect.gen(function* () {
    const body = yield* validate(DownloadExportRequest, input);
    const { user } = yield* CurrentUser;
    yield* requireRecentProof;
    const at = yield* now;
    const used = yield* (yield* DataExports).consume(body.identifier, user.id, (yield* Secrets).digest(body.token), at);
    if (Option.isNone(used) || used.value.blobKey === null) {
      yield* audit({ action: "data.export_download_refused", actorId: user.id, subjectId: user.id, details: { export: body.identifier } });
      return yield* new Conflict({ message: FAMILY_DATA_MESSAGES.linkUsed });
    }
    const blob = yield* (yield* BlobStore).get(used.value.blobKey);
    if (Option.isNone(blob)) return yield* NotFound.of("Data export");
    yield* audit({ action: "data.export_downloaded", actorId: user.id, subjectId: user.id, details: { export: used.value.id, size: used.value.size } });
    return { blob: blob.value, fileName: `crown-data-${used.value.id}.zip` };
  });
