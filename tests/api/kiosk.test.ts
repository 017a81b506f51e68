import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databaseKinds } from "./harness.ts";
import { headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";

const dayFromToday = (days: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
const patient = (overrides: Record<string, unknown> = {}) => ({
  first_name: "Noah",
  last_name: "Kim",
  name: "Noah Kim",
  gender: "male",
  date_of_birth: dayFromToday(-40),
  relation: "father",
  ...overrides,
});

describe.each(await databaseKinds())("kiosk API on %s", (kind) => {
  let s: ReportServer;
  let people: Record<string, { id: string; email: string; token: string }>;
  let babies: Record<string, { id: string }>;
  let address = 0;

  /** A call as the tablet: the device credential header and, once signed in, the kiosk session token. */
  const kiosk = async (method: string, url: string, options: { device?: string | null; session?: string | null; body?: unknown; form?: FormData } = {}) => {
    const headers: Record<string, string> = { "x-forwarded-for": `10.9.0.${(address++ % 250) + 1}` };
    if (options.device) headers["x-kiosk-device"] = options.device;
    if (options.session) headers.authorization = `Bearer ${options.session}`;
    let body: BodyInit | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    const response = await s.app.request(`/api/v1/en${url}`, { method, headers, body });
    const type = response.headers.get("content-type") ?? "";
    return { status: response.status, json: (type.includes("json") ? await response.json() : {}) as Record<string, any>, response };
  };

  /** Enrols a tablet for `owner` (a physician's token) and answers its credential. */
  const enrol = async (ownerToken: string, body: Record<string, unknown> = {}) => {
    const created = await s.post("/kiosk/devices", { name: "Exam room 1", ...body }, ownerToken);
    expect(created.status).toBe(201);
    const paired = await kiosk("POST", "/kiosk/pair", { body: { pairing_code: created.json.results.pairing_code } });
    expect(paired.status).toBe(200);
    return { id: created.json.results.identifier as string, credential: paired.json.results.device_credential as string };
  };
  const signIn = async (device: string, staffId: string, pin: string) =>
    kiosk("POST", "/kiosk/staff-sign-in", { device, body: { staff_identifier: staffId, pin } });

  beforeAll(async () => {
    s = await startReportServer(kind);
    people = {
      physician: await s.user("physician", "Ada", "Grey"),
      otherPhysician: await s.user("physician", "Bo", "Stone"),
      nurse: await s.user("physician_staff", "Nina", "Nurse"),
      // A nurse of both practices: a device still never takes her to the other one.
      sharedNurse: await s.user("physician_staff", "Sam", "Shared"),
      lockedNurse: await s.user("physician_staff", "Lou", "Locked"),
      parent: await s.user("parent", "Pat", "Parent"),
      otherParent: await s.user("parent", "Oli", "Other"),
      admin: await s.user("admin", "Ad", "Min"),
      reviewer: await s.user("reviewer", "Rae", "Viewer"),
    };
    await s.delegate(people.physician!.id, people.nurse!.id);
    await s.delegate(people.physician!.id, people.sharedNurse!.id);
    await s.delegate(people.otherPhysician!.id, people.sharedNurse!.id);
    await s.delegate(people.physician!.id, people.lockedNurse!.id);
    babies = {
      mine: await s.baby(people.parent!.id, people.physician!.id, "Mia"),
      theirs: await s.baby(people.otherParent!.id, people.otherPhysician!.id, "Eli"),
    };
    for (const who of ["physician", "nurse", "sharedNurse", "lockedNurse", "otherPhysician"]) {
      expect((await s.post("/user/kiosk-pin", { pin: "2468" }, people[who]!.token)).status).toBe(200);
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  test("enrolment: a physician or an admin creates a device and a one-time pairing code; staff and parents cannot", async () => {
    const created = await s.post("/kiosk/devices", { name: "Room 3" }, people.physician!.token);
    expect(created.status).toBe(201);
    expect(created.json.results).toMatchObject({ name: "Room 3", status: "pairing", physician_identifier: people.physician!.id });
    expect(created.json.results.pairing_code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect((await s.post("/kiosk/devices", { name: "Room 3" }, people.nurse!.token)).status).toBe(403);
    expect((await s.post("/kiosk/devices", { name: "Room 3" }, people.parent!.token)).status).toBe(403);
    expect((await s.post("/kiosk/devices", { name: "" }, people.physician!.token)).status).toBe(422);
    expect((await s.post("/kiosk/devices", { name: "Room 3" }, people.admin!.token)).status).toBe(422);
    const byAdmin = await s.post("/kiosk/devices", { name: "Room 4", physician_identifier: people.physician!.id }, people.admin!.token);
    expect(byAdmin.status).toBe(201);
    // A physician never creates a device for someone else's practice.
    expect((await s.post("/kiosk/devices", { name: "X", physician_identifier: people.otherPhysician!.id }, people.physician!.token)).status).toBe(404);

    // The code pairs one tablet, once, typed in any case and with spaces.
    const code: string = created.json.results.pairing_code;
    expect((await kiosk("POST", "/kiosk/pair", { body: { pairing_code: "ZZZZZZZZ" } })).status).toBe(422);
    const paired = await kiosk("POST", "/kiosk/pair", { body: { pairing_code: `${code.slice(0, 4).toLowerCase()} ${code.slice(4)}` } });
    expect(paired.status).toBe(200);
    expect(paired.json.results.device).toMatchObject({ identifier: created.json.results.identifier, name: "Room 3", practice: "Dr. Ada Grey" });
    expect((await kiosk("POST", "/kiosk/pair", { body: { pairing_code: code } })).status).toBe(422);

    const device = await kiosk("GET", "/kiosk/device", { device: paired.json.results.device_credential });
    expect(device.status).toBe(200);
    expect(device.json.results.staff.map((p: any) => p.name).sort()).toEqual(["Ada Grey", "Lou Locked", "Nina Nurse", "Sam Shared"]);
    expect((await kiosk("GET", "/kiosk/device", { device: "not-a-credential" })).status).toBe(401);

    const list = await s.post("/kiosk/devices/list", {}, people.physician!.token);
    expect(list.json.results.map((d: any) => d.name)).toEqual(expect.arrayContaining(["Room 3", "Room 4"]));
    expect((await s.post("/kiosk/devices/list", {}, people.otherPhysician!.token)).json.results).toEqual([]);
  });

  test("PINs: 4 to 8 digits, set by physicians and staff for themselves", async () => {
    expect((await s.post("/user/kiosk-pin", { pin: "12a4" }, people.nurse!.token)).json.errors).toEqual({ pin: ["The PIN must be 4 to 8 digits."] });
    expect((await s.post("/user/kiosk-pin", { pin: "123" }, people.nurse!.token)).status).toBe(422);
    expect((await s.post("/user/kiosk-pin", { pin: "1234" }, people.parent!.token)).status).toBe(403);
    expect((await s.post("/user/kiosk-pin", { pin: "1234" }, null)).status).toBe(401);
  });

  test("a nurse signs in with her PIN and works on the device's practice only, audited with staff, device and physician", async () => {
    const device = await enrol(people.physician!.token);
    expect((await signIn(device.credential, people.nurse!.id, "1111")).status).toBe(422);
    const signedIn = await signIn(device.credential, people.nurse!.id, "2468");
    expect(signedIn.status).toBe(200);
    const session = signedIn.json.results.token as string;
    expect(signedIn.json.results.staff).toEqual({ identifier: people.nurse!.id, name: "Nina Nurse" });

    // Search and add: the physician named in the body is ignored; the device's practice is used.
    const added = await kiosk("POST", "/kiosk/patient/add", { device: device.credential, session, body: patient({ physician_identifier: people.otherPhysician!.id }) });
    expect(added.status).toBe(201);
    expect(added.json.results.physician_identifier).toBe(people.physician!.id);
    const bad = await kiosk("POST", "/kiosk/patient/add", { device: device.credential, session, body: patient({ first_name: "", date_of_birth: dayFromToday(-365 * 3) }) });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors).sort()).toEqual(["date_of_birth", "first_name"]);
    const found = await kiosk("POST", "/kiosk/patient/list?page=1", { device: device.credential, session, body: { search: "Noah", physician_identifier: people.otherPhysician!.id } });
    expect(found.json.results.data.map((p: any) => p.identifier)).toEqual([added.json.results.identifier]);

    // The session is for the kiosk routes only, and the portal's sessions are not kiosk sessions.
    expect((await s.post("/patient/list", { physician_identifier: people.physician!.id }, session)).status).toBe(401);
    expect((await kiosk("POST", "/kiosk/patient/list", { device: device.credential, session: people.nurse!.token, body: {} })).status).toBe(401);
    expect((await kiosk("POST", "/kiosk/patient/list", { session, body: {} })).status).toBe(401);

    const rows = await (s.db as any).selectFrom("audit_events").selectAll().where("action", "=", "patient.added").execute();
    const entry = rows.find((r: any) => r.subject_id === added.json.results.identifier || r.details?.kiosk_device === device.id);
    expect(entry?.actor_id).toBe(people.nurse!.id);
    expect(entry?.details).toMatchObject({ kiosk_device: device.id, kiosk_staff: people.nurse!.id, acting_for: people.physician!.id });
  });

  test("a device of practice A never reaches practice B's patients, even with a nurse of both", async () => {
    const device = await enrol(people.physician!.token);
    const session = (await signIn(device.credential, people.sharedNurse!.id, "2468")).json.results.token as string;
    const call = (url: string, body: unknown) => kiosk("POST", url, { device: device.credential, session, body });
    const list = await call("/kiosk/patient/list?page=1", { physician_identifier: people.otherPhysician!.id });
    expect(list.json.results.data.map((p: any) => p.identifier)).not.toContain(babies.theirs!.id);
    expect((await call("/kiosk/report/prepare", { baby_identifier: babies.theirs!.id, analysis_type: "head_ci_cvai_analysis" })).status).toBe(404);
    // A report the nurse prepared in the portal for practice B is out of the device's reach.
    const portalReport = await s.post("/report/prepare", { baby_identifier: babies.theirs!.id, analysis_type: "head_ci_cvai_analysis" }, people.sharedNurse!.token);
    expect(portalReport.status).toBe(201);
    expect((await call("/kiosk/report/finalize", { report_identifier: portalReport.json.results.report_identifier })).status).toBe(404);
    // A physician of practice B cannot sign in on A's device.
    expect((await signIn(device.credential, people.otherPhysician!.id, "2468")).status).toBe(422);
  });

  test("QR: a parent's short-lived code finds the baby on the practice's device; other practices' codes answer 404", async () => {
    const device = await enrol(people.physician!.token);
    const session = (await signIn(device.credential, people.nurse!.id, "2468")).json.results.token as string;
    const qr = await s.get(`/user/baby-qr?baby_identifier=${babies.mine!.id}`, people.parent!.token);
    expect(qr.status).toBe(200);
    expect((await s.get(`/user/baby-qr?baby_identifier=${babies.mine!.id}`, people.otherParent!.token)).status).toBe(404);
    // A code a person can type (issue 22, item 7): 8 unambiguous characters, shown as ABCD-EFGH.
    const code = qr.json.results.code as string;
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    const lookUp = (value: string) => kiosk("POST", "/kiosk/patient-by-qr", { device: device.credential, session, body: { code: value } });
    const tampered = code.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    const wrong = await lookUp(tampered);
    expect(wrong.status).toBe(422);
    expect(wrong.json.errors.code).toEqual(["This code is invalid, has expired or was already used."]);
    // Typed in lower case without the dash, it works; once.
    const byQr = await lookUp(code.replace("-", "").toLowerCase());
    expect(byQr.status).toBe(200);
    expect(byQr.json.results).toMatchObject({ identifier: babies.mine!.id, first_name: "Mia" });
    expect((await lookUp(code)).status).toBe(422);
    const other = await s.get(`/user/baby-qr?baby_identifier=${babies.theirs!.id}`, people.otherParent!.token);
    expect((await lookUp(other.json.results.code)).status).toBe(404);
    // Expired codes are refused.
    const late = (await s.get(`/user/baby-qr?baby_identifier=${babies.mine!.id}`, people.parent!.token)).json.results;
    expect(new Date(late.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(10 * 60_000 + 5_000);
    await s.db.updateTable("kiosk_baby_codes" as never).set({ expires_at: new Date(Date.now() - 1000) } as never).where("used_at" as never, "is", null).execute();
    expect((await lookUp(late.code)).status).toBe(422);
  });

  test("QR: code lookups are rate-limited per tablet", async () => {
    const device = await enrol(people.physician!.token);
    const session = (await signIn(device.credential, people.nurse!.id, "2468")).json.results.token as string;
    const lookUp = (value: string) => kiosk("POST", "/kiosk/patient-by-qr", { device: device.credential, session, body: { code: value } });
    for (let i = 0; i < 30; i++) expect((await lookUp("ZZZZ-ZZZZ")).status).toBe(422);
    const limited = await lookUp("ZZZZ-ZZZZ");
    expect(limited.status).toBe(429);
    expect(limited.response.headers.get("retry-after")).toMatch(/^\d+$/);
    // Even the right code waits.
    const qr = await s.get(`/user/baby-qr?baby_identifier=${babies.mine!.id}`, people.parent!.token);
    expect((await lookUp(qr.json.results.code)).status).toBe(429);
  });

  test("capture: prepare, upload and finalize under the kiosk session reach the physician's results through the same pipeline", async () => {
    const device = await enrol(people.physician!.token);
    const session = (await signIn(device.credential, people.nurse!.id, "2468")).json.results.token as string;
    const prepared = await kiosk("POST", "/kiosk/report/prepare", { device: device.credential, session, body: { baby_identifier: babies.mine!.id, analysis_type: "head_ci_cvai_analysis" } });
    expect(prepared.status).toBe(201);
    const reportId = prepared.json.results.report_identifier as string;
    const form = new FormData();
    for (let i = 0; i < 3; i++) {
      form.append("attachments[]", new Blob([(await headPhoto({ rx: 150 + i, ry: 200 })) as Uint8Array<ArrayBuffer>]), `shot-${i}.jpg`);
    }
    expect((await kiosk("POST", "/kiosk/report/upload", { device: device.credential, session, form })).status).toBe(422);
    const uploaded = await kiosk("POST", `/kiosk/report/upload?report_identifier=${reportId}`, { device: device.credential, session, form });
    expect(uploaded.status).toBe(200);
    expect(uploaded.json.results.attachments).toHaveLength(3);
    expect((await kiosk("POST", "/kiosk/report/finalize", { device: device.credential, session, body: { report_identifier: reportId } })).status).toBe(200);
    // The session ends after the patient.
    expect((await kiosk("POST", "/kiosk/sign-out", { device: device.credential, session })).status).toBe(200);
    expect((await kiosk("POST", "/kiosk/patient/list", { device: device.credential, session, body: {} })).status).toBe(401);

    await s.waitFor(people.physician!.token, reportId, ["analyzed", "in_review"]);
    expect((await s.post(`/review/report/${reportId}/publish`, {}, people.reviewer!.token)).status).toBe(200);
    const results = await s.post("/report/results?page=1", { per_page: 10 }, people.physician!.token);
    expect(results.json.results.data.map((r: any) => r.identifier)).toContain(reportId);
  });

  test("PIN lockout: 5 wrong PINs, then 429 with Retry-After even for the right PIN", async () => {
    const device = await enrol(people.physician!.token);
    for (let i = 0; i < 5; i++) expect((await signIn(device.credential, people.lockedNurse!.id, "0000")).status).toBe(422);
    const locked = await signIn(device.credential, people.lockedNurse!.id, "2468");
    expect(locked.status).toBe(429);
    expect(Number(locked.response.headers.get("retry-after"))).toBeGreaterThan(0);
    // The lock is the staff member's, on every device; others still sign in.
    const another = await enrol(people.physician!.token);
    expect((await signIn(another.credential, people.lockedNurse!.id, "2468")).status).toBe(429);
    expect((await signIn(another.credential, people.nurse!.id, "2468")).status).toBe(200);
  });

  test("revocation ends a device at once: its credential and its open sessions are refused", async () => {
    const device = await enrol(people.physician!.token);
    const session = (await signIn(device.credential, people.nurse!.id, "2468")).json.results.token as string;
    // The heartbeat the tablet sends every few seconds in every state.
    const alive = await kiosk("GET", "/kiosk/device/status", { device: device.credential });
    expect(alive.status).toBe(200);
    expect(alive.json.results).toEqual({ identifier: device.id, status: "paired" });
    expect((await kiosk("GET", "/kiosk/device/status", { device: "not-a-credential" })).status).toBe(401);
    expect((await s.post("/kiosk/devices/revoke", { device_identifier: device.id }, people.otherPhysician!.token)).status).toBe(404);
    expect((await s.post("/kiosk/devices/revoke", { device_identifier: device.id }, people.nurse!.token)).status).toBe(403);
    const revoked = await s.post("/kiosk/devices/revoke", { device_identifier: device.id }, people.physician!.token);
    expect(revoked.status).toBe(200);
    expect(revoked.json.results.status).toBe("revoked");
    // A client that gives no reason (as before ADR 0170) still revokes: the reason is "not given".
    expect(revoked.json.results.revocation_reason).toBe("not_given");
    const refused = await kiosk("POST", "/kiosk/patient/list", { device: device.credential, session, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.json.status).toBe("DeviceRevoked");
    expect((await kiosk("GET", "/kiosk/device", { device: device.credential })).status).toBe(403);
    const heartbeat = await kiosk("GET", "/kiosk/device/status", { device: device.credential });
    expect(heartbeat.status).toBe(403);
    expect(heartbeat.json.status).toBe("DeviceRevoked");
    expect(heartbeat.json.data).toEqual({ revoked_at: revoked.json.results.revoked_at, reason: "not_given" });
    expect((await signIn(device.credential, people.nurse!.id, "2468")).status).toBe(403);
    // An admin revokes too.
    const other = await enrol(people.physician!.token);
    expect((await s.post("/kiosk/devices/revoke", { device_identifier: other.id }, people.admin!.token)).status).toBe(200);
    expect((await kiosk("GET", "/kiosk/device", { device: other.credential })).json.status).toBe("DeviceRevoked");
  });

  test("a revocation's reason: checked, stored, listed, audited, and told to the tablet on every call with when, never who", async () => {
    const device = await enrol(people.physician!.token, { name: "Front desk" });
    const session = (await signIn(device.credential, people.nurse!.id, "2468")).json.results.token as string;
    const message = "Please choose a reason from the list.";
    // Hostile reasons answer 422 on `reason` and revoke nothing.
    for (const reason of ["dropped", "LOST_OR_STOLEN", 7, ["replaced"], { reason: "replaced" }, ""]) {
      const bad = await s.post("/kiosk/devices/revoke", { device_identifier: device.id, reason }, people.admin!.token);
      expect(bad.status, JSON.stringify(reason)).toBe(422);
      expect(bad.json).toEqual({ message, errors: { reason: [message] } });
    }
    expect((await kiosk("GET", "/kiosk/device/status", { device: device.credential })).status).toBe(200);
    const listedBefore = (await s.post("/kiosk/devices/list", {}, people.physician!.token)).json.results as Array<Record<string, unknown>>;
    expect(listedBefore.find((d) => d.identifier === device.id)).toMatchObject({ status: "paired", revoked_at: null, revocation_reason: null });

    const revoked = await s.post("/kiosk/devices/revoke", { device_identifier: device.id, reason: "lost_or_stolen" }, people.admin!.token);
    expect(revoked.status).toBe(200);
    expect(revoked.json.results).toMatchObject({ status: "revoked", revocation_reason: "lost_or_stolen" });
    const revokedAt = revoked.json.results.revoked_at as string;
    expect(Math.abs(Date.parse(revokedAt) - Date.now())).toBeLessThan(60_000);
    // Listed with it, by the practice and by the admin.
    for (const [token, body] of [[people.physician!.token, {}], [people.admin!.token, { physician_identifier: people.physician!.id }]] as const) {
      const listed = (await s.post("/kiosk/devices/list", body, token)).json.results as Array<Record<string, unknown>>;
      expect(listed.find((d) => d.identifier === device.id)).toMatchObject({ status: "revoked", revoked_at: revokedAt, revocation_reason: "lost_or_stolen" });
    }
    // Revoking again changes nothing: the first reason and time stand.
    const again = await s.post("/kiosk/devices/revoke", { device_identifier: device.id, reason: "replaced" }, people.physician!.token);
    expect(again.json.results).toMatchObject({ revoked_at: revokedAt, revocation_reason: "lost_or_stolen" });

    // Every call of the tablet is told when and why: the heartbeat, the overview, sign-in and a session's call.
    const told = { message: "This tablet's enrolment was revoked. Ask your administrator to enrol it again.", status: "DeviceRevoked", data: { revoked_at: revokedAt, reason: "lost_or_stolen" } };
    const answers = [
      await kiosk("GET", "/kiosk/device/status", { device: device.credential }),
      await kiosk("GET", "/kiosk/device", { device: device.credential }),
      await signIn(device.credential, people.nurse!.id, "2468"),
      await kiosk("POST", "/kiosk/patient/list", { device: device.credential, session, body: {} }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.json).toEqual(told);
      // Nothing of who revoked it (an unattended tablet), nor of any patient.
      const text = JSON.stringify(answer.json);
      for (const secret of [people.admin!.id, people.admin!.email, "Ad Min", people.physician!.id, babies.mine!.id, "Mia"]) expect(text).not.toContain(secret);
    }
    // In Spanish the message is translated; the when and why are data, the same.
    const spanish = await s.app.request("/api/v1/es/kiosk/device/status", { headers: { "x-kiosk-device": device.credential, "x-forwarded-for": "10.9.1.1" } });
    expect(spanish.status).toBe(403);
    expect(await spanish.json()).toEqual({ ...told, message: "Se revocó el registro de esta tableta. Pida a su administrador que la registre de nuevo." });

    // Audited with the reason, once.
    const rows = await (s.db as any).selectFrom("audit_events").selectAll().where("action", "=", "kiosk.device_revoked").where("subject_id", "=", device.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].actor_id).toBe(people.admin!.id);
    expect(rows[0].details).toMatchObject({ physician: people.physician!.id, reason: "lost_or_stolen" });
  });
});
