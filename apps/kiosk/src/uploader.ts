import type { KioskContext, KioskEvent } from "@crown/core/kiosk/machine";
import { ApiError, kioskApi } from "./api.ts";

/**
 * prepare → upload (one shot per request, so each one leaves the queue as soon as the server has
 * it) → finalize. A dropped network keeps the rest of the queue in memory
 * and retries by itself; the machine's `resumeUpload` restarts from what is left.
 */
let running = false;
const RETRY_MS = 4000;

export const runUpload = async (context: KioskContext, send: (event: KioskEvent) => void) => {
  if (running || !context.session || !context.patient) return;
  running = true;
  const session = context.session;
  const total = context.shots.length;
  let report = context.upload?.reportIdentifier ?? null;
  let sent = total - context.queue.length;
  try {
    if (!report) {
      send({ type: "UPLOAD_PROGRESS", progress: { step: "prepare", sent, total, reportIdentifier: null } });
      report = (await kioskApi.prepare(session, context.patient.identifier)).report_identifier;
    }
    for (const shot of context.queue) {
      send({ type: "UPLOAD_PROGRESS", progress: { step: "upload", sent, total, reportIdentifier: report } });
      await kioskApi.upload(session, report, shot.image as Blob, `kiosk-${shot.id}.jpg`);
      sent += 1;
      send({ type: "SHOT_SENT", id: shot.id });
    }
    send({ type: "UPLOAD_PROGRESS", progress: { step: "finalize", sent, total, reportIdentifier: report } });
    await kioskApi.finalize(session, report);
    // One patient, one session: `done` wipes the token and the app ends the session on the server.
    send({ type: "UPLOAD_SUCCEEDED" });
  } catch (error) {
    if (error instanceof ApiError && error.offline) {
      send({ type: "NETWORK_DOWN" });
      // The `online` event resumes at once; this retries when the server, not the tablet, was unreachable.
      window.setTimeout(() => navigator.onLine && send({ type: "NETWORK_UP" }), RETRY_MS);
    } else if (error instanceof ApiError && error.deviceRefused) send({ type: "REVOKED" });
    else if (error instanceof ApiError && error.status === 401) send({ type: "SESSION_ENDED" });
    else send({ type: "UPLOAD_FAILED", message: error instanceof Error ? error.message : "Oops! There was some error" });
  } finally {
    running = false;
  }
};
