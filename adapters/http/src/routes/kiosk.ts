import { type Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { Kiosk, KioskCodes } from "@crown/core";
import { defaultReportSettings, PrepareRequest, ReportIdentifierRequest, UPLOAD_MESSAGES } from "@crown/core/report/index";
import { PatientRequest } from "@crown/core/onboarding/schemas";
import { ok, runUseCase } from "../effect-bridge.ts";
import type { Env } from "../env.ts";
import { paged, takesBody, takesJson } from "../wire-input.ts";
import { requireCaller } from "../middleware.ts";
import { documented, PAGED } from "../openapi.ts";
import { bearerToken, jsonBody, pageParam } from "../request.ts";
import { multipartParts } from "../multipart-parts.ts";

/** The tablet's device credential travels in its own header; the staff member's kiosk session as the bearer token. */
export const DEVICE_HEADER = "x-kiosk-device";

/** The kiosk caller of each request, set by `requireKiosk`. */
const kioskCallers = new WeakMap<Request, Kiosk.KioskCaller>();
const kioskOf = (c: Context<Env>) => {
  const kiosk = kioskCallers.get(c.req.raw);
  if (!kiosk) throw new Error("requireKiosk did not run");
  return kiosk;
};

const tag = "Kiosk";
const device = "Needs the device credential in the X-Kiosk-Device header";
const refused = "401 unknown, 403 status DeviceRevoked with data { revoked_at, reason }";
const session = `${device} and the kiosk session token as the bearer token; acts for the device's physician only`;
documented({ method: "post", path: "/kiosk/devices", summary: "Create a kiosk device for a practice (admin: physician_identifier; a physician: their own) and answer its one-time pairing_code (8 characters, 15 minutes)", tag, auth: true, body: Kiosk.CreateDeviceRequest });
documented({ method: "post", path: "/kiosk/devices/list", summary: "A practice's kiosk devices (admin: physician_identifier); a revoked one with its revoked_at and revocation_reason", tag, auth: true, body: Kiosk.DeviceListRequest });
documented({
  method: "post",
  path: "/kiosk/devices/revoke",
  summary: `Revoke a device (device_identifier) for a reason (optional: ${Kiosk.REVOCATION_REASONS.join(", ")}; none is kept as not_given; another is 422): its credential and sessions stop working at once, and the tablet is told when and why`,
  tag,
  auth: true,
  body: Kiosk.RevokeDeviceRequest,
});
documented({ method: "post", path: "/kiosk/pair", summary: "Trade a pairing code for the device credential (throttled per address)", tag, auth: false, body: Kiosk.PairRequest });
documented({ method: "get", path: "/kiosk/device", summary: `The device, its practice and the staff who can sign in (have a PIN). ${device}; ${refused}`, tag, auth: false });
documented({ method: "get", path: "/kiosk/device/status", summary: `The tablet's heartbeat (every few seconds, in every state), so a revoked tablet wipes itself at once. ${device}; ${refused}`, tag, auth: false });
documented({ method: "post", path: "/kiosk/staff-sign-in", summary: `A staff member (staff_identifier or email) signs in with their PIN; answers a short kiosk session token. 5 wrong PINs lock for 15 minutes (429). ${device}`, tag, auth: false, body: Kiosk.StaffSignInRequest });
documented({ method: "post", path: "/kiosk/sign-out", summary: `End the kiosk session (after each patient, on idle). ${session}`, tag, auth: false });
documented({ method: "post", path: "/kiosk/patient/list", summary: `Search the practice's patients (?page=, search longer than 2 characters). ${session}`, query: PAGED, tag, auth: false });
documented({ method: "post", path: "/kiosk/patient/add", summary: `Add a patient with the patient form's rules. ${session}`, tag, auth: false });
documented({ method: "post", path: "/kiosk/patient-by-qr", summary: `The patient a parent's QR code names (code from GET /user/baby-qr). ${session}`, tag, auth: false, body: Kiosk.QrRequest });
documented({ method: "post", path: "/kiosk/report/prepare", summary: `Prepare a report for a patient of the practice. ${session}`, tag, auth: false, body: PrepareRequest });
documented({ method: "post", path: "/kiosk/report/upload", summary: `Upload attachments[] to ?report_identifier= (streamed; the report's pipeline limits). ${session}`, tag, auth: false, bodyType: "multipart" });
documented({ method: "post", path: "/kiosk/report/finalize", summary: `Submit the report to the same pipeline as a parent's upload. ${session}`, tag, auth: false, body: ReportIdentifierRequest });
documented({ method: "post", path: "/user/kiosk-pin", summary: "Set the caller's own kiosk PIN (4 to 8 digits); physicians and staff", tag, auth: true, body: Kiosk.PinRequest });
documented({ method: "get", path: "/user/baby-qr", summary: "A short code for a baby (?baby_identifier=): 8 characters, single-use, for 10 minutes; shown as a QR code at the clinic's kiosk or typed there", tag, auth: true });

const requireKiosk = createMiddleware<Env>(async (c, next) => {
  kioskCallers.set(c.req.raw, await runUseCase(c, Kiosk.authenticateKiosk(c.req.header(DEVICE_HEADER) ?? null, bearerToken(c))));
  await next();
});

/** Kiosk devices (portal and admin), pairing, PIN sign-in, and the practice and report calls of a kiosk session. */
export const kioskRoutes = () =>
  new Hono<Env>()
    .post("/kiosk/devices", takesJson(Kiosk.CreateDeviceRequest), requireCaller, async (c) => c.json(ok(Kiosk.KIOSK_MESSAGES.deviceCreated, await runUseCase(c, Kiosk.createDevice(await jsonBody(c)))), 201))
    .post("/kiosk/devices/list", takesJson(Kiosk.DeviceListRequest), requireCaller, async (c) => c.json(ok(Kiosk.KIOSK_MESSAGES.devices, await runUseCase(c, Kiosk.listDevices(await jsonBody(c)))), 200))
    .post("/kiosk/devices/revoke", takesJson(Kiosk.RevokeDeviceRequest), requireCaller, async (c) => c.json(ok(Kiosk.KIOSK_MESSAGES.deviceRevoked, await runUseCase(c, Kiosk.revokeDevice(await jsonBody(c)))), 200))
    .post("/kiosk/pair", takesJson(Kiosk.PairRequest), async (c) => c.json(ok(Kiosk.KIOSK_MESSAGES.paired, await runUseCase(c, Kiosk.pairDevice(await jsonBody(c)))), 200))
    .get("/kiosk/device", async (c) =>
      c.json(ok(Kiosk.KIOSK_MESSAGES.device, await runUseCase(c, Kiosk.deviceOverview(c.req.header(DEVICE_HEADER) ?? null))), 200),
    )
    .get("/kiosk/device/status", async (c) =>
      c.json(ok(Kiosk.KIOSK_MESSAGES.deviceStatus, await runUseCase(c, Kiosk.deviceStatus(c.req.header(DEVICE_HEADER) ?? null))), 200),
    )
    .post("/kiosk/staff-sign-in", takesJson(Kiosk.StaffSignInRequest), async (c) => {
      const d = await runUseCase(c, Kiosk.authenticateDevice(c.req.header(DEVICE_HEADER) ?? null));
      return c.json(ok(Kiosk.KIOSK_MESSAGES.signedIn, await runUseCase(c, Kiosk.staffSignIn(d, await jsonBody(c)))), 200);
    })
    .post("/kiosk/sign-out", requireKiosk, async (c) => c.json(ok(Kiosk.KIOSK_MESSAGES.signedOut, await runUseCase(c, Kiosk.asKiosk(kioskOf(c))(Kiosk.kioskSignOut))), 200))
    .post("/kiosk/patient/list", paged, takesBody<{ per_page?: number; search?: string }>(), requireKiosk, async (c) => {
      const page = await runUseCase(c, Kiosk.asKiosk(kioskOf(c))(Kiosk.kioskPatients(pageParam(c), await jsonBody(c))));
      return c.json(ok("Patients fetched successfully", page), 200);
    })
    .post("/kiosk/patient/add", takesJson(PatientRequest), requireKiosk, async (c) => {
      const patient = await runUseCase(c, Kiosk.asKiosk(kioskOf(c))(Kiosk.kioskAddPatient(await jsonBody(c))));
      return c.json(ok("Patient details added successfully", patient), 201);
    })
    .post("/kiosk/patient-by-qr", takesJson(Kiosk.QrRequest), requireKiosk, async (c) =>
      c.json(ok(Kiosk.KIOSK_MESSAGES.patient, await runUseCase(c, Kiosk.asKiosk(kioskOf(c))(KioskCodes.patientByQr(await jsonBody(c))))), 200),
    )
    .post("/kiosk/report/prepare", takesJson(PrepareRequest), requireKiosk, async (c) =>
      c.json(ok(UPLOAD_MESSAGES.prepared, await runUseCase(c, Kiosk.asKiosk(kioskOf(c))(Kiosk.kioskPrepare(await jsonBody(c))))), 201),
    )
    .post("/kiosk/report/upload", requireKiosk, async (c) => {
      if (!(c.req.header("content-type") ?? "").includes("multipart/form-data")) {
        return c.json({ message: UPLOAD_MESSAGES.noFiles, errors: { attachments: [UPLOAD_MESSAGES.noFiles] } }, 422);
      }
      const { parts, close } = multipartParts(c, { files: defaultReportSettings.maxFiles, fileSize: defaultReportSettings.maxFileBytes });
      try {
        const results = await runUseCase(c, Kiosk.asKiosk(kioskOf(c))(Kiosk.kioskUpload(parts, c.req.query("report_identifier") ?? null)));
        return c.json(ok(UPLOAD_MESSAGES.uploaded, results), 200);
      } finally {
        close();
      }
    })
    .post("/kiosk/report/finalize", takesJson(ReportIdentifierRequest), requireKiosk, async (c) =>
      c.json(ok(UPLOAD_MESSAGES.finalized, await runUseCase(c, Kiosk.asKiosk(kioskOf(c))(Kiosk.kioskFinalize(await jsonBody(c))))), 200),
    )
    .post("/user/kiosk-pin", takesJson(Kiosk.PinRequest), requireCaller, async (c) => c.json(ok(Kiosk.KIOSK_MESSAGES.pinSet, await runUseCase(c, Kiosk.setPin(await jsonBody(c)))), 200))
    .get("/user/baby-qr", requireCaller, async (c) => c.json(ok(Kiosk.KIOSK_MESSAGES.babyQr, await runUseCase(c, KioskCodes.babyQr(c.req.query()))), 200));
