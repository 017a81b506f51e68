import type { KioskDeviceInfo, KioskEvent } from "@crown/core/kiosk/machine";
import { readRevocation } from "@crown/core/kiosk/revocation";
import { ApiError, createClient, type Api, type ResultsOf } from "@crown/client";
import i18next from "i18next";
import { apiBase } from "./i18n/language.ts";

/**
 * The kiosk's Crown client (@crown/client, ADR 0143). The device credential is the only thing the
 * tablet stores (localStorage); the kiosk session token and everything about patients live in the
 * machine's context, in memory, and each call is handed the session. The calls go to
 * `/api/v1/<language on screen>`, so the server's messages are in the session's language.
 */

export { ApiError } from "@crown/client";

const DEVICE_KEY = "crown.kiosk.device";

export interface StoredDevice {
  readonly credential: string;
  readonly device: KioskDeviceInfo;
}

export const storedDevice = (): StoredDevice | null => {
  try {
    const raw = localStorage.getItem(DEVICE_KEY);
    return raw ? (JSON.parse(raw) as StoredDevice) : null;
  } catch {
    return null;
  }
};
export const storeDevice = (value: StoredDevice) => localStorage.setItem(DEVICE_KEY, JSON.stringify(value));
export const forgetDevice = () => localStorage.removeItem(DEVICE_KEY);

const crown = createClient({
  base: apiBase,
  headers: (): Record<string, string> => {
    const device = storedDevice();
    return device ? { "x-kiosk-device": device.credential } : {};
  },
  init: { cache: "no-store", credentials: "omit" },
  messages: { unreachable: () => i18next.t("errors.networkDown"), failed: () => i18next.t("errors.generic"), unauthorised: () => i18next.t("errors.generic") },
});

/** The device itself was refused: revoked (403 DeviceRevoked) or unknown. */
export const deviceRefused = (error: unknown): boolean => error instanceof ApiError && error.status === "DeviceRevoked";
/** The machine's REVOKED for a refused device, with the when and why of its 403 (ADR 0170) when it gave them. */
export const revokedFor = (error: unknown): KioskEvent => ({ type: "REVOKED", revocation: error instanceof ApiError ? readRevocation(error.data) : null });
/** The kiosk session is over (401). */
export const sessionEnded = (error: unknown): boolean => error instanceof ApiError && error.httpStatus === 401;

export type DeviceOverview = ResultsOf<Api["kiosk"]["device"]["$get"]>;
export type Patient = ResultsOf<Api["kiosk"]["patient-by-qr"]["$post"]>;
type NewPatient = Parameters<Api["kiosk"]["patient"]["add"]["$post"]>[0]["json"];

/** The kiosk's calls, each naming its route; `session` is the kiosk session's token. */
export const kioskApi = {
  pair: (code: string) => crown.results((api) => api.kiosk.pair.$post({ json: { pairing_code: code } })),
  device: () => crown.results((api) => api.kiosk.device.$get()),
  /** The heartbeat: answers while the device is enrolled, 403 DeviceRevoked once it is revoked. */
  status: (signal?: AbortSignal) => crown.results((api) => api.kiosk.device.status.$get(), signal ? { signal } : {}),
  signIn: (staffIdentifier: string, pin: string) => crown.results((api) => api.kiosk["staff-sign-in"].$post({ json: { staff_identifier: staffIdentifier, pin } })),
  signOut: (session: string) => crown.results((api) => api.kiosk["sign-out"].$post(), { token: session }),
  patients: (session: string, search: string) =>
    crown.results((api) => api.kiosk.patient.list.$post({ json: { per_page: 20, ...(search ? { search } : {}) }, query: { page: 1 } }), { token: session }),
  addPatient: (session: string, body: NewPatient) => crown.results((api) => api.kiosk.patient.add.$post({ json: body }), { token: session }),
  patientByQr: (session: string, code: string) => crown.results((api) => api.kiosk["patient-by-qr"].$post({ json: { code } }), { token: session }),
  prepare: (session: string, babyIdentifier: string, signal?: AbortSignal) =>
    crown.results((api) => api.kiosk.report.prepare.$post({ json: { baby_identifier: babyIdentifier, analysis_type: "head_ci_cvai_analysis" } }), { token: session, ...(signal ? { signal } : {}) }),
  upload: (session: string, reportIdentifier: string, file: Blob, name: string, signal?: AbortSignal) =>
    crown.results((api) => api.kiosk.report.upload.$post({ query: { report_identifier: reportIdentifier }, form: { report_identifier: reportIdentifier, "attachments[]": new File([file], name, { type: file.type }) } }), {
      token: session,
      ...(signal ? { signal } : {}),
    }),
  finalize: (session: string, reportIdentifier: string, signal?: AbortSignal) =>
    crown.results((api) => api.kiosk.report.finalize.$post({ json: { report_identifier: reportIdentifier } }), { token: session, ...(signal ? { signal } : {}) }),
};
