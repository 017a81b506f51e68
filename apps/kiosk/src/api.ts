import type { KioskDeviceInfo } from "@crown/core/kiosk/machine";
import type { Api, ResultsOf } from "@crown/http/client-types";
import i18next from "i18next";
import { apiBase } from "./i18n/language.ts";

/**
 * The kiosk's calls. The device credential is the only thing the tablet stores (localStorage); the
 * kiosk session token and everything about patients live in the machine's context, in memory. The calls
 * go to `/api/v1/<language on screen>`, so the server's messages are in the session's language.
 */

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

/** A failed call: `status` 0 means the network is down (no answer at all). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: Record<string, string[]> = {},
    readonly code: string | null = null,
  ) {
    super(message);
  }
  get offline() {
    return this.status === 0;
  }
  /** The device itself was refused: revoked (403 DeviceRevoked) or unknown. */
  get deviceRefused() {
    return this.code === "DeviceRevoked";
  }
}

export const call = async <T>(
  method: string,
  path: string,
  options: { session?: string | null; body?: unknown; form?: FormData; signal?: AbortSignal } = {},
): Promise<T> => {
  const device = storedDevice();
  const headers: Record<string, string> = { accept: "application/json" };
  if (device) headers["x-kiosk-device"] = device.credential;
  if (options.session) headers.authorization = `Bearer ${options.session}`;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(`${apiBase()}${path}`, { method, headers, body, cache: "no-store", credentials: "omit", signal: options.signal });
  } catch {
    throw new ApiError(0, i18next.t("errors.networkDown"));
  }
  const text = await response.text();
  let json: Record<string, any> = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = {};
  }
  if (!response.ok) {
    throw new ApiError(response.status, json.message ?? i18next.t("errors.generic"), json.errors ?? {}, json.status ?? null);
  }
  return json.results as T;
};

/* Answer types from the server's routes (`AppType`), type-only. */
export type DeviceOverview = ResultsOf<Api["kiosk"]["device"]["$get"]>;
export type Patient = ResultsOf<Api["kiosk"]["patient-by-qr"]["$post"]>;
type Paired = ResultsOf<Api["kiosk"]["pair"]["$post"]>;
type SignedIn = ResultsOf<Api["kiosk"]["staff-sign-in"]["$post"]>;
/** A page of the practice's patients (a parsed JSON array: the screen may keep it as its own). */
type Patients = Omit<ResultsOf<Api["kiosk"]["patient"]["list"]["$post"]>, "data"> & { data: Array<ResultsOf<Api["kiosk"]["patient"]["list"]["$post"]>["data"][number]> };
type Prepared = ResultsOf<Api["kiosk"]["report"]["prepare"]["$post"]>;

export const kioskApi = {
  pair: (code: string) => call<Paired>("POST", "/kiosk/pair", { body: { pairing_code: code } }),
  device: () => call<DeviceOverview>("GET", "/kiosk/device"),
  /** The heartbeat: answers while the device is enrolled, 403 DeviceRevoked once it is revoked. */
  status: (signal?: AbortSignal) => call<ResultsOf<Api["kiosk"]["device"]["status"]["$get"]>>("GET", "/kiosk/device/status", { signal }),
  signIn: (staffIdentifier: string, pin: string) =>
    call<SignedIn>("POST", "/kiosk/staff-sign-in", { body: { staff_identifier: staffIdentifier, pin } }),
  signOut: (session: string) => call("POST", "/kiosk/sign-out", { session }),
  patients: (session: string, search: string) =>
    call<Patients>("POST", "/kiosk/patient/list?page=1", { session, body: { per_page: 20, ...(search ? { search } : {}) } }),
  addPatient: (session: string, body: Record<string, unknown>) => call<ResultsOf<Api["kiosk"]["patient"]["add"]["$post"]>>("POST", "/kiosk/patient/add", { session, body }),
  patientByQr: (session: string, code: string) => call<Patient>("POST", "/kiosk/patient-by-qr", { session, body: { code } }),
  prepare: (session: string, babyIdentifier: string, signal?: AbortSignal) =>
    call<Prepared>("POST", "/kiosk/report/prepare", { session, signal, body: { baby_identifier: babyIdentifier, analysis_type: "head_ci_cvai_analysis" } }),
  upload: (session: string, reportIdentifier: string, file: Blob, name: string, signal?: AbortSignal) => {
    const form = new FormData();
    form.append("report_identifier", reportIdentifier);
    form.append("attachments[]", file, name);
    return call("POST", `/kiosk/report/upload?report_identifier=${encodeURIComponent(reportIdentifier)}`, { session, form, signal });
  },
  finalize: (session: string, reportIdentifier: string, signal?: AbortSignal) =>
    call("POST", "/kiosk/report/finalize", { session, signal, body: { report_identifier: reportIdentifier } }),
};
