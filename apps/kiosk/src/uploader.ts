import { failureOfAnswer, type SubmissionPorts } from "@crown/core/capture/submission";
import type { KioskContext, KioskEvent } from "@crown/core/kiosk/machine";
import i18next from "i18next";
import { ApiError, deviceRefused, kioskApi, revokedFor, sessionEnded } from "./crown.ts";

/**
 * The kiosk's calls for core's submission machine (capture/submission.ts), which the kiosk machine
 * invokes while uploading: one shot a request, so each leaves the tablet's memory as soon as the
 * server has it. A refused device or an ended session is told to the kiosk machine, which wipes.
 */
export const uploadPorts = (context: () => KioskContext, send: (event: KioskEvent) => void): SubmissionPorts => {
  const session = () => context().session ?? "";
  const told = (error: unknown): never => {
    if (deviceRefused(error)) send(revokedFor(error));
    else if (sessionEnded(error)) send({ type: "SESSION_ENDED" });
    throw error;
  };
  return {
    prepare: (signal) =>
      kioskApi
        .prepare(session(), context().patient?.identifier ?? "", signal)
        .then((r) => r.report_identifier)
        .catch(told),
    upload: (reportIdentifier, file, _onProgress, signal) =>
      kioskApi
        .upload(session(), reportIdentifier, file.content as Blob, file.name, signal)
        .then(() => undefined)
        .catch(told),
    finalize: (reportIdentifier, signal) =>
      kioskApi
        .finalize(session(), reportIdentifier, signal)
        .then(() => undefined)
        .catch(told),
    failure: (error) => (error instanceof ApiError ? failureOfAnswer(error) : { message: i18next.t("errors.oops"), transient: false, offline: false }),
  };
};
