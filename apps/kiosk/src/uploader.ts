import type { KioskContext, KioskEvent } from "@crown/core/kiosk/machine";
import i18next from "i18next";
import { ApiError, deviceRefused, kioskApi, sessionEnded } from "./crown.ts";

/**
 * prepare → upload (one shot per request, so each one leaves the queue as soon as the server has
 * it) → finalize. A dropped network keeps the rest of the queue in memory
 * and retries by itself; the machine's `resumeUpload` restarts from what is left.
 */
let inFlight: AbortController | null = null;
let retryTimer: number | null = null;
const RETRY_MS = 4000;

/**
 * Leaving `uploading` (revoked, session ended, failed, done) aborts the requests in flight and the
 * pending retry, so no reference to the shots outlives the machine's wipe.
 */
export const cancelUpload = () => {
  inFlight?.abort();
  inFlight = null;
  if (retryTimer !== null) window.clearTimeout(retryTimer);
  retryTimer = null;
};

export const runUpload = async (context: KioskContext, send: (event: KioskEvent) => void) => {
  if (inFlight || !context.session || !context.patient) return;
  const run = new AbortController();
  inFlight = run;
  const { signal } = run;
  const session = context.session;
  const total = context.shots.length;
  let report = context.upload?.reportIdentifier ?? null;
  let sent = total - context.queue.length;
  try {
    if (!report) {
      send({ type: "UPLOAD_PROGRESS", progress: { step: "prepare", sent, total, reportIdentifier: null } });
      report = (await kioskApi.prepare(session, context.patient.identifier, signal)).report_identifier;
    }
    for (const shot of context.queue) {
      if (signal.aborted) return;
      send({ type: "UPLOAD_PROGRESS", progress: { step: "upload", sent, total, reportIdentifier: report } });
      await kioskApi.upload(session, report, shot.image as Blob, `kiosk-${shot.id}.jpg`, signal);
      sent += 1;
      send({ type: "SHOT_SENT", id: shot.id });
    }
    if (signal.aborted) return;
    send({ type: "UPLOAD_PROGRESS", progress: { step: "finalize", sent, total, reportIdentifier: report } });
    await kioskApi.finalize(session, report, signal);
    // One patient, one session: `done` wipes the token and the app ends the session on the server.
    send({ type: "UPLOAD_SUCCEEDED" });
  } catch (error) {
    // Cancelled by the machine: it has already moved on and wiped the shots.
    if (signal.aborted) return;
    if (error instanceof ApiError && error.offline) {
      send({ type: "NETWORK_DOWN" });
      // The `online` event resumes at once; this retries when the server, not the tablet, was unreachable.
      if (retryTimer !== null) window.clearTimeout(retryTimer);
      retryTimer = window.setTimeout(() => {
        retryTimer = null;
        if (navigator.onLine) send({ type: "NETWORK_UP" });
      }, RETRY_MS);
    } else if (deviceRefused(error)) send({ type: "REVOKED" });
    else if (sessionEnded(error)) send({ type: "SESSION_ENDED" });
    else send({ type: "UPLOAD_FAILED", message: error instanceof Error ? error.message : i18next.t("errors.oops") });
  } finally {
    // Freed so that NETWORK_UP can resume from what is left of the queue.
    if (inFlight === run) inFlight = null;
  }
};
