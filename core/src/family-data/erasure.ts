import { Effect, Option } from "effect";
import { erasable, RemovalRequests } from "../accounts/removal.ts";
import { Users } from "../accounts/model.ts";
import { derivedKeysOf } from "../report/derived.ts";
import { localizedPdfKey } from "../report/notices.ts";
import { LANGUAGES } from "../shared/i18n.ts";
import { discardBlobs, retireBlobs } from "../shared/pending-blobs.ts";
import { audit, now, transaction } from "../shared/ports.ts";
import { holdsArchive, LAPSED_EXPORT } from "./lifecycle.ts";
import { DataExports, FamilyRecords } from "./model.ts";
import { ReviewedSets, SetFiles } from "../learning/model.ts";

/**
 * Account erasure carried out (issue 44, ADR 0150). A scheduled job (`ERASE_DUE_ACCOUNTS_JOB`,
 * queued every few minutes by the server) takes each removal request whose grace period has ended
 * and that no administrator holds, and erases the account in ONE transaction: every row of the
 * account and its children goes, the audit log keeps only identifiers, and the blobs those rows
 * named become pending (the ledger of ADR 0051/0064) in that same transaction. After the commit the
 * blobs are removed; a crash before that leaves them to the sweep, and a crash before the commit
 * leaves everything as it was, for the next run. Nothing is half kept either way.
 */

export const ERASE_DUE_ACCOUNTS_JOB = "erase-due-accounts";
/** Accounts erased per run (the next run takes the rest). */
export const ERASURES_PER_RUN = 20;

/** Every blob key the erased rows named, with the copies made from them (served photos, other languages' PDFs). */
const blobsOf = (erased: { attachmentIds: ReadonlyArray<string>; blobKeys: ReadonlyArray<string> }) => {
  const keys = new Set<string>();
  for (const key of erased.blobKeys) {
    keys.add(key);
    if (key.endsWith(".pdf")) for (const language of LANGUAGES) keys.add(localizedPdfKey(key, language));
  }
  for (const id of erased.attachmentIds) for (const key of derivedKeysOf(id)) keys.add(key);
  return [...keys];
};

/** Erases one account now, whatever its request says (the caller decided it is due). */
export const eraseAccount = (userId: string, requestId: string) =>
  Effect.gen(function* () {
    const { erased, blobs, fromSets } = yield* transaction(
      Effect.gen(function* () {
        const erased = yield* (yield* FamilyRecords).erase(userId);
        // The children leave every reviewed set no shipped model has used, as a withdrawn consent does (ADR 0137).
        const sets = yield* ReviewedSets;
        const fromSets = (yield* Effect.forEach(erased.babyIds, (id) => sets.removeChild(id))).flat();
        const blobs = blobsOf(erased);
        yield* retireBlobs(blobs);
        // Written after the redaction: identifiers only.
        yield* audit({
          action: "account.erased",
          actorId: null,
          subjectId: userId,
          details: { request: requestId, babies: erased.babyIds, reports: erased.reportIds, files: blobs.length },
        });
        return { erased, blobs, fromSets };
      }),
    );
    yield* discardBlobs(blobs);
    const files = yield* SetFiles;
    for (const set of fromSets) yield* files.removeExamples(set.directory, set.images);
    return erased;
  });

/** The scheduled run: erases every due, unheld request of an erasable account; answers how many. */
export const eraseDueAccounts = Effect.gen(function* () {
  const at = yield* now;
  const due = yield* (yield* RemovalRequests).due(at, ERASURES_PER_RUN);
  const users = yield* Users;
  let erased = 0;
  for (const request of due) {
    const user = yield* users.findById(request.userId);
    if (Option.isNone(user) || !erasable(user.value)) continue;
    yield* eraseAccount(request.userId, request.id);
    erased += 1;
  }
  return erased;
});

/** Removes export archives whose 24 hours have passed (in the same scheduled run). */
export const lapseExports = Effect.gen(function* () {
  const exports = yield* DataExports;
  const at = yield* now;
  const lapsing = (yield* exports.lapsing(at, 100)).filter((e) => holdsArchive(e.status) && e.blobKey !== null);
  for (const e of lapsing) {
    const key = e.blobKey!;
    yield* transaction(Effect.zipRight(exports.update(e.id, { status: LAPSED_EXPORT, blobKey: null, linkDigest: null }), retireBlobs([key])));
    yield* discardBlobs([key]);
  }
  return lapsing.length;
});

/** The job's body: due erasures, then lapsed archives. */
export const runDataRights = Effect.gen(function* () {
  const erased = yield* eraseDueAccounts;
  const lapsed = yield* lapseExports;
  return { erased, lapsed };
});
