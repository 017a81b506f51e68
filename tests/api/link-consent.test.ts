import { Practice, RateLimiter } from "@crown/core";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databaseKinds, operatorAccount, signUpVerified, startTestServer, type TestServer, uniqueEmail } from "./harness.ts";

/**
 * Consent before a practice links an existing account (issue 15 item 4, ADR 56): a baby joins an
 * existing parent's account, and an existing staff account acts for a practice, only after that person
 * accepts (bell + e-mail, answered in the portal); declining links nothing and tells the practice; the
 * practice's answer is the same whether the address has an account; invitation e-mails are limited per
 * practice and day, and carry no text the practice typed.
 */
describe.each(await databaseKinds())("consent before linking on %s", (kind) => {
  // The tests that make several practices (each physician now sets up and answers a second step,
  // issue 44) are given minutes: a loaded 2-core machine took over one.
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });

  const today = () => new Date().toISOString().slice(0, 10);
  const daysAgo = (n: number) => new Date(Date.now() - n * 86400_000).toISOString().slice(0, 10);
  const physician = async (lastName: string) => {
    const made = await operatorAccount(server, "physician", { firstName: "Dana", lastName });
    expect((await server.post("/user/sign-baa", { name: `Dana ${lastName}`, covered_entity: `${lastName} Pediatrics` }, made.token)).status).toBe(200);
    return made;
  };
  /** A parent whose account is Active: signed up, verified, first baby registered with a practice of their own. */
  const activeParent = async () => {
    const own = await physician("Own");
    const parent = await signUpVerified(server, "parent");
    const registered = await server.post(
      "/user/register-baby",
      { physician_identifier: own.identifier, first_name: "Mia", last_name: "Lopez", date_of_birth: daysAgo(20), gender: "female", relation: "mother" },
      parent.token,
    );
    expect(registered.json.results.parent_status).toBe("Active");
    return parent;
  };
  const patient = (email: string, first_name = "Ivy") => ({ first_name, last_name: "Stone", date_of_birth: daysAgo(30), gender: "female", email });
  const babiesOf = async (token: string) => ((await server.get("/user/babies", token)).json.results as Array<{ identifier: string }>).map((b) => b.identifier);
  const bell = async (token: string) => (await server.get("/user/notifications?per_page=50", token)).json.results.data as Array<{ kind: string; text: string; subject_identifier: string }>;
  const requestsOf = async (token: string) => (await server.get("/user/link-requests", token)).json.results.data as Array<Record<string, any>>;
  const mailsTo = async (email: string) => (await server.outbox()).filter((m) => m.to.includes(email));

  test("a patient added with an existing parent's e-mail is not in that account until the parent accepts", async () => {
    const doctor = await physician("Asking");
    const parent = await activeParent();
    const before = await babiesOf(parent.token);
    const added = await server.post("/patient/add", patient(parent.email, "Noa"), doctor.token);
    expect(added.status).toBe(201);
    const babyId: string = added.json.results.identifier;

    // Nothing linked: not among the parent's babies, and the parent cannot open it.
    expect(await babiesOf(parent.token)).toEqual(before);
    expect((await server.post("/report/prepare", { baby_identifier: babyId, analysis_type: "head_ci_cvai_analysis" }, parent.token)).status).toBe(404);
    // Asked: in the bell, by e-mail (a fixed template leading to the portal's page), and on that page.
    expect((await bell(parent.token)).some((n) => n.kind === "link_requested" && n.text.includes("Noa Stone"))).toBe(true);
    const mail = (await mailsTo(parent.email)).at(-1)!;
    expect(mail.subject).toBe("Dr. Dana Asking asks to add a patient to your Crown account");
    expect(mail.text).toContain("http://crown.test/link-requests");
    expect(mail.text).not.toContain("Noa");
    const [request, ...more] = await requestsOf(parent.token);
    expect(more).toEqual([]);
    expect(request).toMatchObject({ kind: "patient", physician: { identifier: doctor.identifier, name: "Dr. Dana Asking" }, baby: { identifier: babyId, name: "Noa Stone" } });

    // Nobody else answers it: another parent (404), the practice (403).
    const stranger = await activeParent();
    expect((await server.post("/user/link-requests/accept", { identifier: request!.identifier, kind: "patient" }, stranger.token)).status).toBe(404);
    expect((await server.post("/user/link-requests/accept", { identifier: request!.identifier, kind: "patient" }, doctor.token)).status).toBe(403);
    expect(await babiesOf(stranger.token)).not.toContain(babyId);

    const accepted = await server.post("/user/link-requests/accept", { identifier: request!.identifier, kind: "patient" }, parent.token);
    expect(accepted.status).toBe(200);
    expect(accepted.json.results).toMatchObject({ identifier: request!.identifier, status: "accepted" });
    expect(await babiesOf(parent.token)).toContain(babyId);
    expect(await requestsOf(parent.token)).toEqual([]);
    expect((await bell(doctor.token)).some((n) => n.kind === "invitation_accepted" && n.subject_identifier === babyId)).toBe(true);
    // Answered once: a second answer is a conflict and changes nothing.
    expect((await server.post("/user/link-requests/decline", { identifier: request!.identifier, kind: "patient" }, parent.token)).status).toBe(409);
    expect(await babiesOf(parent.token)).toContain(babyId);
  }, 180_000);

  test("declining links nothing and tells the practice; the request cannot be accepted afterwards", async () => {
    const doctor = await physician("Declined");
    const parent = await activeParent();
    const babyId: string = (await server.post("/patient/add", patient(parent.email, "Lea"), doctor.token)).json.results.identifier;
    const [request] = await requestsOf(parent.token);
    const declined = await server.post("/user/link-requests/decline", { identifier: request!.identifier, kind: "patient" }, parent.token);
    expect(declined.status).toBe(200);
    expect(declined.json.results.status).toBe("declined");
    expect(await babiesOf(parent.token)).not.toContain(babyId);
    expect((await server.post("/user/link-requests/accept", { identifier: request!.identifier, kind: "patient" }, parent.token)).status).toBe(409);
    expect(await babiesOf(parent.token)).not.toContain(babyId);
    // The practice keeps its patient, and is told in its bell and by an e-mail without the child's name.
    expect((await server.post("/patient/list", { per_page: 100 }, doctor.token)).json.results.data.map((p: { identifier: string }) => p.identifier)).toContain(babyId);
    expect((await bell(doctor.token)).some((n) => n.kind === "link_declined" && n.text.includes("Lea Stone"))).toBe(true);
    const told = (await mailsTo(doctor.email)).at(-1)!;
    expect(told.subject).toBe("Your request on Crown was declined");
    expect(told.text).not.toContain("Lea");
  });

  test("an existing staff account acts for the practice only after accepting; declined or withdrawn, never", async () => {
    const doctor = await physician("Staffing");
    const patientId: string = (await server.post("/patient/add", { first_name: "Pat", last_name: "Ward", date_of_birth: daysAgo(10), gender: "male" }, doctor.token)).json.results.identifier;
    const [yes, no, later] = [
      await operatorAccount(server, "physician_staff", { firstName: "Yara", lastName: "Yes" }),
      await operatorAccount(server, "physician_staff", { firstName: "Nico", lastName: "No" }),
      await operatorAccount(server, "physician_staff", { firstName: "Lou", lastName: "Later" }),
    ];
    const forDoctor = { physician_identifier: doctor.identifier };
    for (const nurse of [yes, no, later]) {
      expect((await server.post("/physician/add-user", { email: nurse.email, type: "nurse" }, doctor.token)).status).toBe(201);
      // Offered, not linked: the practice's patients stay out of reach.
      expect((await server.post("/patient/list", forDoctor, nurse.token)).status).toBe(404);
      expect((await bell(nurse.token)).some((n) => n.kind === "link_requested")).toBe(true);
      expect((await mailsTo(nurse.email)).at(-1)!.subject).toBe("Dr. Dana Staffing asks you to join their staff on Crown");
    }
    // Asking again while unanswered is refused as the list already shows it.
    expect((await server.post("/physician/add-user", { email: yes.email }, doctor.token)).json.errors).toEqual({ email: ["This person has been asked already and has not answered yet."] });

    const [offer] = await requestsOf(yes.token);
    expect(offer).toMatchObject({ kind: "staff", staff_type: "nurse", physician: { identifier: doctor.identifier } });
    expect((await server.post("/user/link-requests/accept", { identifier: offer!.identifier, kind: "staff" }, no.token)).status).toBe(404);
    expect((await server.post("/user/link-requests/accept", { identifier: offer!.identifier, kind: "staff" }, yes.token)).status).toBe(200);
    const list = await server.post("/patient/list", forDoctor, yes.token);
    expect(list.status).toBe(200);
    expect(list.json.results.data.map((p: { identifier: string }) => p.identifier)).toContain(patientId);

    const [declinedOffer] = await requestsOf(no.token);
    expect((await server.post("/user/link-requests/decline", { identifier: declinedOffer!.identifier, kind: "staff" }, no.token)).status).toBe(200);
    expect((await server.post("/patient/list", forDoctor, no.token)).status).toBe(404);
    expect((await bell(doctor.token)).some((n) => n.kind === "link_declined" && n.text.includes(no.email))).toBe(true);

    // The practice withdraws the unanswered offer (Remove on its row): it can no longer be accepted.
    const staff = (await server.post("/physician/staff/list", { per_page: 100 }, doctor.token)).json.results.data as Array<Record<string, any>>;
    const rowOfLater = staff.find((m) => m.email === later.email)!;
    expect(rowOfLater).toMatchObject({ state: "pending", name: "", phone: null, status: null });
    expect(staff.find((m) => m.email === yes.email)).toMatchObject({ state: "active", name: "Yara Yes", identifier: yes.identifier });
    expect(staff.some((m) => m.email === no.email)).toBe(false);
    const [laterOffer] = await requestsOf(later.token);
    expect((await server.post("/physician/staff/remove", { staff_identifier: rowOfLater.identifier }, doctor.token)).status).toBe(200);
    expect(await requestsOf(later.token)).toEqual([]);
    expect((await server.post("/user/link-requests/accept", { identifier: laterOffer!.identifier, kind: "staff" }, later.token)).status).toBe(409);
    expect((await server.post("/patient/list", forDoctor, later.token)).status).toBe(404);
    // Withdrawing an offer signs nobody out.
    expect((await server.get("/user/profile", later.token)).status).toBe(200);
  }, 180_000);

  test("the practice's answer is the same whether the e-mail has an account or not (add-user and patient/add)", async () => {
    const doctor = await physician("Oracle");
    const staffAccount = await operatorAccount(server, "physician_staff", { firstName: "Sam", lastName: "Staff" });
    const parent = await activeParent();
    const otherDoctor = await physician("Other");
    const addresses = [uniqueEmail("fresh"), staffAccount.email, parent.email, otherDoctor.email];

    const staffAnswers = [];
    for (const email of addresses) {
      const added = await server.post("/physician/add-user", { email, type: "nurse" }, doctor.token);
      expect(added.status, email).toBe(201);
      const { identifier, email: given, added_at, ...rest } = added.json.results;
      expect(given).toBe(email);
      expect(identifier).not.toBe(staffAccount.identifier);
      staffAnswers.push({ message: added.json.message, ...rest });
    }
    for (const answer of staffAnswers) expect(answer).toEqual(staffAnswers[0]);
    // The list shows each of them alike, awaiting an answer.
    const rows = (await server.post("/physician/staff/list", { per_page: 100 }, doctor.token)).json.results.data as Array<Record<string, any>>;
    const shapes = rows.map(({ identifier, email, added_at, ...rest }) => rest);
    expect(shapes).toHaveLength(addresses.length);
    for (const shape of shapes) expect(shape).toEqual(shapes[0]);

    const patientAnswers = [];
    for (const email of addresses) {
      const added = await server.post("/patient/add", patient(email), doctor.token);
      expect(added.status, email).toBe(201);
      const { identifier, email: given, created_at, ...rest } = added.json.results;
      patientAnswers.push({ message: added.json.message, ...rest });
    }
    for (const answer of patientAnswers) expect(answer).toEqual(patientAnswers[0]);
  }, 180_000);

  test("invitation e-mails are limited per practice and day (429 with Retry-After, nothing kept); templates carry no typed text", async () => {
    const doctor = await physician("Limited");
    const other = await physician("Unlimited");
    // The practice has spent its day's invitations.
    const rule = Practice.INVITATIONS_PER_PRACTICE;
    await server.services.run(
      Effect.flatMap(RateLimiter, (limiter) =>
        Effect.forEach(Array.from({ length: rule.limit }), () => limiter.hit(Practice.invitationBucket(doctor.identifier), rule.limit, rule.windowSeconds, new Date()), { discard: true }),
      ),
    );
    const before = (await server.post("/patient/list", { per_page: 100 }, doctor.token)).json.results.total;
    const mailsBefore = (await server.outbox()).length;
    const email = uniqueEmail("family");
    for (const [url, body] of [
      ["/patient/add", patient(email)],
      ["/physician/add-user", { email: uniqueEmail("nurse") }],
    ] as const) {
      const refused = await server.post(url, body, doctor.token);
      expect(refused.status, url).toBe(429);
      expect(refused.json, url).toEqual({ message: "Too many invitations today. Please try again tomorrow." });
      expect(Number(refused.response.headers.get("retry-after")), url).toBeGreaterThan(0);
    }
    expect((await server.post("/patient/list", { per_page: 100 }, doctor.token)).json.results.total).toBe(before);
    expect((await server.post("/physician/staff/list", { per_page: 100 }, doctor.token)).json.results.total).toBe(0);
    expect((await server.outbox()).length).toBe(mailsBefore);
    // A patient without an e-mail sends nothing and is still added; another practice is not held up.
    expect((await server.post("/patient/add", { first_name: "No", last_name: "Mail", date_of_birth: today(), gender: "male" }, doctor.token)).status).toBe(201);

    const typed = "<a href='http://phish.example/x'>Click</a>";
    const invited = uniqueEmail("typed");
    expect((await server.post("/patient/add", { ...patient(invited), first_name: typed, middle_name: typed }, other.token)).status).toBe(201);
    const mail = (await mailsTo(invited)).at(-1)!;
    expect(mail.subject).toBe("Dr. Dana Unlimited invited you to Crown");
    for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toMatch(/phish|Click|Stone/);
  });
});
