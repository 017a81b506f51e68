import type { UserType } from "@crown/core/accounts/status";
import type { KioskDeviceInfo } from "@crown/core/kiosk/machine";

/**
 * The kiosk's calls. The device credential is the only thing the tablet stores (localStorage); the
 * kiosk session token and everything about patients live in the machine's context, in memory.
 */

const API = "/api/v1/en";
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
    response = await fetch(`${API}${path}`, { method, headers, body, cache: "no-store", credentials: "omit", signal: options.signal });
  } catch {
    throw new ApiError(0, "The network is down.");
  }
  const text = await response.text();
  let json: Record<string, any> = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = {};
  }
  if (!response.ok) {
    throw new ApiError(response.status, json.message ?? "Some error occurred", json.errors ?? {}, json.status ?? null);
  }
  return json.results as T;
};

export interface DeviceOverview extends KioskDeviceInfo {
  readonly staff: ReadonlyArray<{ identifier: string; name: string; type: UserType }>;
}
export interface Patient {
  readonly identifier: string;
  readonly name: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly date_of_birth: string;
  readonly gender: string | null;
}

export const kioskApi = {
  pair: (code: string) => call<{ device_credential: string; device: KioskDeviceInfo }>("POST", "/kiosk/pair", { body: { pairing_code: code } }),
  device: () => call<DeviceOverview>("GET", "/kiosk/device"),
  /** The heartbeat: answers while the device is enrolled, 403 DeviceRevoked once it is revoked. */
  status: (signal?: AbortSignal) => call<{ identifier: string; status: "paired" }>("GET", "/kiosk/device/status", { signal }),
  signIn: (staffIdentifier: string, pin: string) =>
    call<{ token: string; staff: { identifier: string; name: string } }>("POST", "/kiosk/staff-sign-in", { body: { staff_identifier: staffIdentifier, pin } }),
  signOut: (session: string) => call("POST", "/kiosk/sign-out", { session }),
  patients: (session: string, search: string) =>
    call<{ data: Patient[] }>("POST", "/kiosk/patient/list?page=1", { session, body: { per_page: 20, ...(search ? { search } : {}) } }),
  addPatient: (session: string, body: Record<string, unknown>) => call<Patient>("POST", "/kiosk/patient/add", { session, body }),
  patientByQr: (session: string, code: string) => call<Patient>("POST", "/kiosk/patient-by-qr", { session, body: { code } }),
  prepare: (session: string, babyIdentifier: string, signal?: AbortSignal) =>
    call<{ report_identifier: string }>("POST", "/kiosk/report/prepare", { session, signal, body: { baby_identifier: babyIdentifier, analysis_type: "head_ci_cvai_analysis" } }),
  upload: (session: string, reportIdentifier: string, file: Blob, name: string, signal?: AbortSignal) => {
    const form = new FormData();
    form.append("report_identifier", reportIdentifier);
    form.append("attachments[]", file, name);
    return call("POST", `/kiosk/report/upload?report_identifier=${encodeURIComponent(reportIdentifier)}`, { session, form, signal });
  },
  finalize: (session: string, reportIdentifier: string, signal?: AbortSignal) =>
    call("POST", "/kiosk/report/finalize", { session, signal, body: { report_identifier: reportIdentifier } }),
};
