import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { authenticatorCodeAt } from "@crown/crypto";
import { b64, PASSWORD } from "./harness.ts";
import { headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";

/**
 * The authorization matrix (issue 15), generated from the OpenAPI document: every documented
 * operation is called by everyone who must NOT succeed on it, aimed at practice A's family (its
 * baby, report, files, conversation, staff and kiosk), and any 2xx fails the test. An operation the
 * table below does not classify fails too, so a new route cannot be forgotten.
 */

type Who =
  | "parentA"
  | "parentB"
  | "physicianA"
  | "staffA"
  | "physicianB"
  | "staffB"
  | "removedStaff"
  | "unverifiedPhysician"
  | "reviewer"
  | "admin"
  | "anonymous"
  | "kioskA"
  | "kioskB";
const EVERYONE: ReadonlyArray<Who> = [
  "parentA",
  "parentB",
  "physicianA",
  "staffA",
  "physicianB",
  "staffB",
  "removedStaff",
  "unverifiedPhysician",
  "reviewer",
  "admin",
  "anonymous",
  "kioskA",
  "kioskB",
];
const KIOSKS: ReadonlyArray<Who> = ["kioskA", "kioskB"];

/**
 * Who may succeed: "public" anyone; "self" any signed-in portal user on their own account (never
 * anonymous, never a kiosk session); otherwise exactly the listed callers, given practice A's objects.
 */
type Audience = "public" | "self" | ReadonlyArray<Who>;
const READ_A: ReadonlyArray<Who> = ["parentA", "physicianA", "staffA", "reviewer", "admin"];
const PRACTICE_A: ReadonlyArray<Who> = ["physicianA", "staffA"];
const CARE_A: ReadonlyArray<Who> = ["parentA", "physicianA", "staffA"];
const SUPPORT: ReadonlyArray<Who> = ["reviewer", "admin"];

const AUDIENCE: Readonly<Record<string, Audience>> = {
  "POST /user/sign-up": "public",
  "POST /user/sign-in": "public",
  "POST /user/password/recover": "public",
  "POST /user/password/reset": "public",
  "POST /email/verify": "public",
  "GET /email/verify/{id}/{token}": "public",
  "GET /config": "public",
  "GET /physicians": "public",
  "POST /chat/visitor/messages": "public",
  "POST /visitors": "public",
  "GET /chat/visitor/conversation": "public",
  "POST /chat/visitor/read": "public",
  "GET /chat/visitor/attachments/{id}": "public",
  "POST /kiosk/pair": "public",
  // Two-step sign-in (issue 44): a passkey signs in alone.
  "POST /user/sign-in/passkey/options": "public",
  "POST /user/sign-in/passkey": "public",

  "GET /user/profile": "self",
  "POST /user/profile": "self",
  "POST /user/language": "self",
  "GET /user/profile-photo": "self",
  "POST /user/password/change": "self",
  "POST /user/remove-account": "self",
  // Issue 44: the caller's own sessions and archives; an export is a parent's, a legal hold an admin's.
  "GET /user/sessions": "self",
  "POST /user/sessions/end": "self",
  "POST /user/sessions/end-others": "self",
  "GET /user/data-exports": "self",
  "POST /user/data-exports": ["parentA", "parentB"],
  "POST /user/data-exports/download": "self",
  "GET /user/sign-out": "self",
  "POST /user/proof": "self",
  "POST /user/proof/passkey/options": "self",
  "POST /user/proof/passkey": "self",
  "GET /user/second-factor": "self",
  "POST /user/second-factor/app": "self",
  "POST /user/second-factor/app/confirm": "self",
  "POST /user/second-factor/app/remove": "self",
  "POST /user/second-factor/recovery-codes": "self",
  "POST /user/second-factor/off": "self",
  "POST /user/passkeys/options": "self",
  "POST /user/passkeys": "self",
  "POST /user/passkeys/remove": "self",
  "GET /user/notifications": "self",
  "GET /user/notifications-count": "self",
  "POST /user/read-notifications": "self",
  "GET /user/onboarding": "self",
  "GET /user/reminders": "self",
  "POST /user/accept-disclaimer": "self",
  "POST /user/sign-baa": "self",
  "POST /user/update-quiz": "self",
  "GET /user/babies": "self",
  "POST /user/add-baby": "self",
  "POST /user/register-baby": "self",
  "POST /user/add-childinfo-marketing": "self",
  "POST /user/kiosk-pin": "self",
  "GET /physician/list": "self",
  "POST /report/parent-results": "self",
  "GET /events": "self",
  "POST /events/ticket": "self",
  "GET /chat/token": "self",
  "GET /chat/conversation": "self",
  "POST /chat/conversation/messages": "self",
  "POST /chat/conversation/read": "self",
  "GET /chat/unread-count": "self",
  "POST /chat/messages": "self",

  "GET /user/link-requests": "self",
  // Practice A asked parent A's consent to add a patient (ADR 56): only parent A answers it.
  "POST /user/link-requests/accept": ["parentA"],
  "POST /user/link-requests/decline": ["parentA"],

  "POST /user/update-baby": ["parentA"],
  "POST /user/update-child": ["parentA"],
  "GET /user/baby-qr": CARE_A,
  "GET /chat/token/{identifier}": ["parentA"],
  "GET /chat/attachments/{id}": ["parentA", ...SUPPORT],

  "GET /support/conversations": SUPPORT,
  "GET /support/conversations/{id}": SUPPORT,
  "POST /support/conversations/{id}/messages": SUPPORT,
  "POST /support/conversations/{id}/assign": SUPPORT,
  "POST /support/conversations/{id}/close": SUPPORT,
  "POST /support/conversations/{id}/reopen": SUPPORT,

  "GET /admin/users": ["admin"],
  "GET /admin/users/pending": ["admin"],
  "GET /admin/removal-requests": ["admin"],
  "POST /admin/removal-requests/hold": ["admin"],
  "POST /admin/removal-requests/release": ["admin"],
  "POST /admin/users/approve": ["admin"],
  "POST /admin/users/block": ["admin"],
  "POST /admin/users/reject": ["admin"],
  "POST /admin/users/unblock": ["admin"],
  "POST /admin/users/second-factor/reset": ["admin"],
  "POST /admin/practices/verify": ["admin"],
  "GET /admin/practices/awaiting-verification": ["admin"],
  "GET /admin/audit-events": ["admin"],
  "GET /admin/audit-events/export": ["admin"],

  "POST /review/queue": ["reviewer"],
  "GET /review/report/{id}": ["reviewer"],
  "GET /review/report/{id}/preview": ["reviewer"],
  "POST /review/report/{id}/decision": ["reviewer"],
  "POST /review/report/{id}/nose-tip": ["reviewer"],
  "POST /review/report/{id}/outline": ["reviewer"],
  "POST /review/report/{id}/outline/reset": ["reviewer"],
  "GET /user/research-consent": ["parentA", "parentB"],
  "POST /user/research-consent": ["parentA"],
  "POST /user/research-consent/asked": ["parentA"],
  "GET /admin/model": SUPPORT,
  "POST /admin/model/shadow": ["admin"],
  "POST /admin/model/promote": ["admin"],
  "POST /admin/model/rollback": ["admin"],
  "POST /review/report/{id}/note": ["reviewer"],
  "POST /review/report/{id}/publish": ["reviewer"],
  "POST /review/report/{id}/recapture": ["reviewer"],
  "POST /review/report/{id}/reopen": ["reviewer"],

  "GET /report/{id}": READ_A,
  "GET /report/{id}/download": ["physicianA", "staffA", "reviewer", "admin"],
  "GET /report/{id}/parent-download": ["parentA"],
  "GET /report/attachment/{report}/{file}": READ_A,
  "GET /report/thumb/{report}/{file}": READ_A,
  "POST /report/prepare": CARE_A,
  "POST /report/upload": ["parentA"],
  "POST /report/finalize": ["parentA"],
  "POST /report/list": CARE_A,
  "POST /report/my-uploads": CARE_A,
  "POST /report/results": PRACTICE_A,

  "POST /patient/list": PRACTICE_A,
  "POST /patient/add": PRACTICE_A,
  "POST /patient/update": PRACTICE_A,
  "POST /physician/add-user": PRACTICE_A,
  "POST /physician/nurse/add": PRACTICE_A,
  "POST /physician/nurse/list": PRACTICE_A,
  "POST /physician/nurse/remove": PRACTICE_A,
  "POST /physician/staff/list": PRACTICE_A,
  "POST /physician/staff/remove": PRACTICE_A,

  "POST /kiosk/devices": ["physicianA", "admin"],
  "POST /kiosk/devices/list": ["physicianA", "admin"],
  "POST /kiosk/devices/revoke": ["physicianA", "admin"],
  "GET /kiosk/device": KIOSKS,
  "GET /kiosk/device/status": KIOSKS,
  "POST /kiosk/staff-sign-in": ["kioskA"],
  "POST /kiosk/sign-out": KIOSKS,
  "POST /kiosk/patient/list": KIOSKS,
  "POST /kiosk/patient/add": KIOSKS,
  "POST /kiosk/patient-by-qr": KIOSKS,
  "POST /kiosk/report/prepare": ["kioskA"],
  "POST /kiosk/report/upload": ["kioskA"],
  "POST /kiosk/report/finalize": ["kioskA"],

  // The FHIR R4 API (issue 20), its interactions read from its CapabilityStatement.
  "GET /fhir/R4/metadata": "public",
  "GET /fhir/R4/CodeSystem/{id}": "public",
  "GET /fhir/R4/Patient/{id}": CARE_A,
  "GET /fhir/R4/DiagnosticReport/{id}": CARE_A,
  "GET /fhir/R4/DiagnosticReport/{id}/$document": CARE_A,
  "GET /fhir/R4/Observation/{id}": CARE_A,
  "GET /fhir/R4/Observation": CARE_A,
  // A physician's or reviewer's directory entry (name, NPI: public at GET /physicians) for anyone the API serves.
  "GET /fhir/R4/Practitioner/{id}": ["parentA", "parentB", "physicianA", "staffA", "physicianB", "staffB", "removedStaff"],
};

/** The report a nurse of practice A started belongs to the practice (ADR 23): its physician and staff carry on with it. */
const PRACTICE_REPORT: Readonly<Record<string, Audience>> = {
  "POST /report/upload": PRACTICE_A,
  "POST /report/finalize": PRACTICE_A,
};

const mayCall = (audience: Audience, who: Who) =>
  audience === "public" || (audience === "self" ? who !== "anonymous" && !KIOSKS.includes(who) : audience.includes(who));

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly multipart: boolean;
}

describe("authorization matrix over every OpenAPI operation (PGlite)", () => {
  let s: ReportServer;
  let operations: Operation[];
  const callers = {} as Record<Who, { token: string | null; device?: string }>;
  const a: Record<string, string> = {};
  let physicianEmail = "";
  let staffEmail = "";

  const signUpPhysician = async () => {
    const email = `self.signed.${Date.now().toString(36)}@example.org`;
    const up = await s.post("/user/sign-up", { first_name: "Daniel", last_name: "Okafor", email, password: b64(PASSWORD), phone: "5551234567", type: "physician", register_type: "normal", npi: "1234567893" });
    expect(up.status).toBe(201);
    const mail = (await s.outbox()).filter((m) => m.to.includes(email)).at(-1)!;
    const link = new URL(/https?:\/\/\S+\/verify-email\S*/.exec(mail.text)![0]);
    const q = link.searchParams;
    const verified = await s.get(`/email/verify/${q.get("id")}/${q.get("token")}?expires=${q.get("expires")}&signature=${q.get("signature")}`);
    expect(verified.status).toBe(200);
    const signIn = await s.post("/user/sign-in", { email, password: b64(PASSWORD), device_type: "web" });
    expect(signIn.status).toBe(200);
    return signIn.json.results.token as string;
  };

  /** A tablet of `physician`'s practice, paired, with `staff` signed in on it by PIN. */
  const kiosk = async (physicianToken: string, staff: { id: string; token: string }) => {
    const created = await s.post("/kiosk/devices", { name: "Exam room" }, physicianToken);
    expect(created.status).toBe(201);
    const paired = await s.post("/kiosk/pair", { pairing_code: created.json.results.pairing_code });
    expect(paired.status).toBe(200);
    const device: string = paired.json.results.device_credential;
    expect((await s.post("/user/kiosk-pin", { pin: "2468" }, staff.token)).status).toBe(200);
    const response = await s.app.request("/api/v1/en/kiosk/staff-sign-in", {
      method: "POST",
      headers: { "content-type": "application/json", "x-kiosk-device": device, "x-forwarded-for": "10.77.0.1" },
      body: JSON.stringify({ staff_identifier: staff.id, pin: "2468" }),
    });
    const json = (await response.json()) as { results: { token?: string; session_token?: string } };
    expect(response.status).toBe(200);
    return { device, token: (json.results.token ?? json.results.session_token)!, identifier: created.json.results.identifier as string };
  };

  beforeAll(async () => {
    s = await startReportServer("pglite");
    const doc = (await (await s.app.request("/api/v1/en/openapi.json")).json()) as { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>> };
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, multipart: Object.keys(op.requestBody?.content ?? {}).some((t) => t.startsWith("multipart/")) })),
    );
    const capability = (await (await s.app.request("/fhir/R4/metadata")).json()) as {
      rest: Array<{ resource: Array<{ type: string; interaction: Array<{ code: string }>; operation?: Array<{ name: string }> }> }>;
    };
    const fhirOp = (path: string) => ({ method: "GET", path: `/fhir/R4${path}`, multipart: false });
    operations.push(
      fhirOp("/metadata"),
      ...capability.rest[0]!.resource.flatMap((r) => [
        ...r.interaction.map((i) => fhirOp(i.code === "read" ? `/${r.type}/{id}` : `/${r.type}`)),
        ...(r.operation ?? []).map((o) => fhirOp(`/${r.type}/{id}/$${o.name}`)),
      ]),
    );

    const parentA = await s.user("parent", "Ann", "Alpha");
    const parentB = await s.user("parent", "Ben", "Beta");
    const physicianA = await s.user("physician", "Ada", "Alpha");
    const physicianB = await s.user("physician", "Bo", "Beta");
    const physicianC = await s.user("physician", "Cy", "Gamma");
    const staffA = await s.user("physician_staff", "Sue", "Alpha");
    const staffB = await s.user("physician_staff", "Sid", "Beta");
    const removed = await s.user("physician_staff", "Rae", "Removed");
    const reviewer = await s.user("reviewer");
    const admin = await s.user("admin");
    physicianEmail = physicianA.email;
    staffEmail = staffA.email;
    await s.delegate(physicianA.id, staffA.id);
    await s.delegate(physicianB.id, staffB.id);
    await s.delegate(physicianA.id, removed.id);
    // Practice C keeps the removed nurse signed in: what she is refused is practice A's rule, not a 401.
    await s.delegate(physicianC.id, removed.id);

    const babyA = await s.baby(parentA.id, physicianA.id, "Noa");
    // Practice A adds a second patient with parent A's e-mail: a request awaiting parent A's answer.
    const asked = await s.post("/patient/add", { first_name: "Ivy", last_name: "Alpha", date_of_birth: "2026-06-01", gender: "female", email: parentA.email }, physicianA.token);
    expect(asked.status).toBe(201);
    const linkRequest: string = (await s.get("/user/link-requests", parentA.token)).json.results.data[0].identifier;
    await s.baby(parentB.id, physicianB.id, "Eli");
    const reportA: string = (await s.post("/report/prepare", { baby_identifier: babyA.id, analysis_type: "head_ci_cvai_analysis" }, parentA.token)).json.results.report_identifier;
    const up = await s.upload(parentA.token, reportA, [{ name: "a.jpg", bytes: await headPhoto({ rx: 160, ry: 200 }) }]);
    const attachment = up.json.results.attachments[0];
    await s.post("/report/finalize", { report_identifier: reportA }, parentA.token);
    await s.waitFor(parentA.token, reportA, ["analyzed"]);
    expect((await s.post(`/review/report/${reportA}/publish`, {}, reviewer.token)).status).toBe(200);

    // The removed nurse once prepared and uploaded into a practice report of her own.
    const hers: string = (await s.post("/report/prepare", { baby_identifier: babyA.id, analysis_type: "head_ci_cvai_analysis" }, removed.token)).json.results.report_identifier;
    expect((await s.upload(removed.token, hers, [{ name: "r.jpg", bytes: await headPhoto({ rx: 150, ry: 200 }) }])).status).toBe(200);
    expect((await s.post("/physician/staff/remove", { staff_identifier: removed.id }, physicianA.token)).status).toBe(200);

    expect((await s.post("/chat/conversation/messages", { text: "Hello from family A" }, parentA.token)).status).toBeLessThan(300);
    const inbox = await s.get("/support/conversations?status=all", admin.token);
    const conversation = inbox.json.results.data.find((c: any) => JSON.stringify(c).includes(parentA.id)) ?? inbox.json.results.data[0];

    const kioskA = await kiosk(physicianA.token, staffA);
    const kioskB = await kiosk(physicianB.token, staffB);

    Object.assign(a, {
      parent: parentA.id,
      physician: physicianA.id,
      staff: staffA.id,
      baby: babyA.id,
      report: reportA,
      hers,
      file: `${attachment.identifier}.${attachment.extension}`,
      conversation: conversation.identifier,
      device: kioskA.identifier,
      linkRequest,
    });
    Object.assign(callers, {
      parentA: { token: parentA.token },
      parentB: { token: parentB.token },
      physicianA: { token: physicianA.token },
      staffA: { token: staffA.token },
      physicianB: { token: physicianB.token },
      staffB: { token: staffB.token },
      removedStaff: { token: removed.token },
      unverifiedPhysician: { token: await signUpPhysician() },
      reviewer: { token: reviewer.token },
      admin: { token: admin.token },
      anonymous: { token: null },
      kioskA: { token: kioskA.token, device: kioskA.device },
      kioskB: { token: kioskB.token, device: kioskB.device },
    });
  }, 240_000);
  afterAll(async () => {
    await s?.close();
  });

  /** Practice A's objects in the path, the query and the body, as an attacker would name them. */
  const target = (op: Operation, reportId: string) => {
    if (op.path.startsWith("/fhir/")) {
      const type = op.path.split("/")[3];
      const id = { Patient: a.baby!, Practitioner: a.physician!, Observation: `${reportId}-cvai`, CodeSystem: "head-shape" }[type!] ?? reportId;
      return { url: `${op.path.replace("{id}", id)}?${new URLSearchParams({ subject: `Patient/${a.baby}` })}`, fields: {} };
    }
    const path = op.path
      .replace("{identifier}", a.parent!)
      .replace("{report}", reportId)
      .replace("{file}", a.file!)
      .replace("{token}", "not-a-token")
      .replace("{id}", op.path.startsWith("/support/") ? a.conversation! : op.path.startsWith("/chat/") ? "01UNKNOWNCHATATTACHMENT000" : reportId);
    const query = new URLSearchParams({ page: "1", baby_identifier: a.baby!, physician_identifier: a.physician!, report_identifier: reportId });
    const fields: Record<string, string | number | boolean> = {
      baby_identifier: a.baby!,
      report_identifier: reportId,
      physician_identifier: a.physician!,
      physician_id: a.physician!,
      results_for_staff: true,
      identifier: op.path.startsWith("/user/link-requests") ? a.linkRequest! : a.baby!,
      kind: "patient",
      staff_identifier: a.staff!,
      nurse_identifier: a.staff!,
      user_identifier: a.parent!,
      device_identifier: a.device!,
      assignee_identifier: "",
      analysis_type: "head_ci_cvai_analysis",
      first_name: "Mallory",
      last_name: "Matrix",
      date_of_birth: "2026-01-01",
      gender: "female",
      relation: "mother",
      email: "mallory.matrix@example.org",
      text: "let me in",
      note: "let me in",
      per_page: 10,
    };
    return { url: `/api/v1/en${path}?${query}`, fields };
  };

  const call = async (op: Operation, who: Who, reportId: string, address: number) => {
    const { url, fields } = target(op, reportId);
    const caller = callers[who];
    const headers: Record<string, string> = { "x-forwarded-for": `10.66.${Math.floor(address / 250) % 250}.${(address % 250) + 1}` };
    if (caller.token) headers.authorization = `Bearer ${caller.token}`;
    if (caller.device) headers["x-kiosk-device"] = caller.device;
    let body: BodyInit | undefined;
    if (op.method !== "GET") {
      if (op.multipart) {
        const form = new FormData();
        for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
        form.append("attachments[]", new Blob([(await headPhoto({ rx: 155, ry: 200 })) as Uint8Array<ArrayBuffer>], { type: "image/jpeg" }), "m.jpg");
        body = form;
      } else {
        headers["content-type"] = "application/json";
        body = JSON.stringify(fields);
      }
    }
    const response = await s.app.request(url, { method: op.method, headers, body });
    // Nothing is read: an event stream would never end.
    await response.body?.cancel().catch(() => undefined);
    return response.status;
  };

  test("every documented operation is classified", () => {
    const unclassified = operations.map((o) => `${o.method} ${o.path}`).filter((key) => !(key in AUDIENCE));
    expect(unclassified, "classify each new route in AUDIENCE").toEqual([]);
    expect(operations.length).toBeGreaterThan(90);
  });

  test("nobody outside an operation's audience gets a 2xx, on practice A's report and on the removed nurse's", async () => {
    const leaks: string[] = [];
    let calls = 0;
    for (const reportId of [a.report!, a.hers!]) {
      for (const op of operations) {
        const key = `${op.method} ${op.path}`;
        const audience = (reportId === a.hers ? PRACTICE_REPORT[key] : undefined) ?? AUDIENCE[key];
        if (audience === undefined) continue;
        for (const who of EVERYONE) {
          if (mayCall(audience, who)) continue;
          const status = await call(op, who, reportId, calls++);
          if (status >= 200 && status < 300) leaks.push(`${who}: ${op.method} ${op.path} -> ${status}${reportId === a.hers ? " (the removed nurse's report)" : ""}`);
        }
      }
    }
    expect(leaks).toEqual([]);
    expect(calls).toBeGreaterThan(1000);
  }, 240_000);

  test("the callers are real: each of practice A's family reads the report, anonymous and kiosk tokens get 401 on the portal", async () => {
    for (const who of READ_A) expect(await call({ method: "GET", path: "/report/{id}", multipart: false }, who, a.report!, 0), who).toBe(200);
    for (const path of ["/fhir/R4/DiagnosticReport/{id}", "/fhir/R4/DiagnosticReport/{id}/$document", "/fhir/R4/Observation/{id}", "/fhir/R4/Observation", "/fhir/R4/Patient/{id}"]) {
      for (const who of CARE_A) expect(await call({ method: "GET", path, multipart: false }, who, a.report!, 0), `${who} ${path}`).toBe(200);
    }
    for (const who of ["anonymous", "kioskA", "kioskB"] as const) expect(await call({ method: "GET", path: "/user/profile", multipart: false }, who, a.report!, 0), who).toBe(401);
    expect(await call({ method: "POST", path: "/kiosk/patient/list", multipart: false }, "kioskA", a.report!, 0)).toBe(200);
  });

  /** The calls a session may make while its required second factor is still to be set up (adapters/http `requireCallerDuringSetup`). */
  const DURING_SETUP = new Set([
    "GET /user/profile",
    "POST /user/language",
    "GET /user/profile-photo",
    "GET /user/sign-out",
    "GET /user/onboarding",
    "POST /user/sign-baa",
    "POST /user/proof",
    "POST /user/proof/passkey/options",
    "POST /user/proof/passkey",
    "GET /user/second-factor",
    "POST /user/second-factor/app",
    "POST /user/second-factor/app/confirm",
    "POST /user/passkeys/options",
    "POST /user/passkeys",
  ]);

  test("a physician's or staff member's session without its second factor reads no patient: every call but setting up is 403", async () => {
    // An admin resets both factors (a lost phone): each signs in with the password alone and has a session that must set up first.
    for (const who of ["physicianA", "staffA"] as const) {
      const identifier = who === "physicianA" ? a.physician! : a.staff!;
      expect((await s.post("/admin/users/second-factor/reset", { identifier }, callers.admin.token)).status).toBe(200);
    }
    const unproved: Partial<Record<Who, string>> = {};
    for (const [who, email] of [["physicianA", physicianEmail], ["staffA", staffEmail]] as const) {
      const signIn = await s.rawCall("POST", "/user/sign-in", { body: { email, password: b64(PASSWORD), device_type: "web" } });
      expect(signIn.status).toBe(200);
      expect(signIn.json.results.step).toBe("secondFactor");
      unproved[who] = signIn.json.results.token as string;
    }
    const through: string[] = [];
    let patientCalls = 0;
    for (const who of ["physicianA", "staffA"] as const) {
      callers[who] = { token: unproved[who]! };
      for (const op of operations) {
        const key = `${op.method} ${op.path}`;
        const audience = AUDIENCE[key];
        // What this caller may otherwise do (its own account, practice A's patients), less setting up.
        if (audience === undefined || audience === "public" || !mayCall(audience, who) || DURING_SETUP.has(key)) continue;
        const status = await call(op, who, a.report!, patientCalls++);
        if (status !== 403) through.push(`${who}: ${key} -> ${status}`);
      }
    }
    expect(through).toEqual([]);
    expect(patientCalls).toBeGreaterThan(100);
    // The gate is the only reason: once set up in that very session, the report reads again.
    for (const who of ["physicianA", "staffA"] as const) {
      const token = unproved[who]!;
      const started = await s.rawCall("POST", "/user/second-factor/app", { token });
      const confirmed = await s.rawCall("POST", "/user/second-factor/app/confirm", { token, body: { code: authenticatorCodeAt(started.json.results.secret) } });
      expect(confirmed.status).toBe(200);
      expect(await call({ method: "GET", path: "/report/{id}", multipart: false }, who, a.report!, 0), who).toBe(200);
    }
  }, 240_000);
});
