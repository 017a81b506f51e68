import { Accounts, QUIZ_LENGTH, type QuizMode } from "@crown/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadQuizAnswerKey } from "../../apps/server/src/compose.ts";
import { acceptLinkRequests, b64, databaseKinds, PASSWORD, signUpVerified, startTestServer, type TestServer, uniqueEmail } from "./harness.ts";

/** An empty provider field asks for one (issue 46); "not registered" is for a provider Crown does not know. */
const PROVIDER_REQUIRED = "Provider is required. Choose your provider, or 'No Physician' if you do not have one.";
const PROVIDER_MISSING =
  "Seems your provider is not registered. Ask them to sign up first, or you select/type 'No Physician' (without quotation marks)";
const DATE_FORMAT = "Please enter proper date in format (MM/DD/YYYY)";
const WAITING = "Your data is saved. But your account needs approval before proceeding further!";

/** A calendar day `months` months and `days` days from today (UTC), as YYYY-MM-DD. */
const dayFromToday = (months: number, days = 0) => {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(new Date().getUTCDate(), last));
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

const baby = (physician: string, overrides: Record<string, unknown> = {}) => ({
  physician_identifier: physician,
  first_name: "Mia",
  middle_name: "",
  last_name: "Lopez",
  name: "Mia Lopez",
  date_of_birth: dayFromToday(-2),
  relation: "mother",
  referral_code: "",
  gender: "female",
  ethnicity: "Asian",
  nicu_time: 2,
  previous_condition: "",
  ...overrides,
});

/** The portal's real quiz pool, as the server grades it. */
const QUIZ_KEY = loadQuizAnswerKey();
/** A quiz of 10 distinct photos of the mode's pool with `right` answers right (the rest wrong). */
const quiz = (mode: QuizMode, right: number, from = 0) =>
  QUIZ_KEY[mode].slice(from, from + QUIZ_LENGTH).map((photo, i) => ({ image: photo.image, answer: (i < right) === photo.good ? "GOOD" : "BAD" }));

const patient = (overrides: Record<string, unknown> = {}) => ({
  first_name: "Noah",
  middle_name: "",
  last_name: "Kim",
  name: "Noah Kim",
  gender: "male",
  date_of_birth: dayFromToday(-3),
  relation: "father",
  previous_condition: "",
  phone: "",
  referral_code: "",
  ...overrides,
});

describe.each(await databaseKinds())("onboarding and practice API on %s", (kind) => {
  let server: TestServer;

  /** The last e-mail to `to` whose link starts with `path`, as a URL. */
  const linkTo = async (to: string, path: string) => {
    const mails = (await server.outbox()).filter((m) => m.to.toLowerCase().includes(to.toLowerCase()));
    for (const mail of mails.reverse()) {
      const link = server.findLink(mail.text, path);
      if (link) return new URL(link);
    }
    throw new Error(`no ${path} link mailed to ${to}`);
  };
  const mailsTo = async (to: string) => (await server.outbox()).filter((m) => m.to.toLowerCase().includes(to.toLowerCase()));

  const signIn = async (email: string) => {
    const answer = await server.post("/user/sign-in", { email, password: b64(PASSWORD), device_type: "web" });
    if (answer.status !== 200) throw new Error(`sign-in ${email}: ${JSON.stringify(answer.json)}`);
    return answer.json.results as Record<string, any>;
  };

  /** Follows an invitation link: sets the password with the token, as /reset-password does. */
  const acceptInvitation = async (email: string) => {
    const link = await linkTo(email, "/reset-password");
    expect(link.searchParams.get("invite")).toBe("1");
    expect(link.searchParams.get("email")).toBe(email);
    const reset = await server.post("/user/password/reset", { token: link.searchParams.get("token"), email, password: b64(PASSWORD), first_name: "Ivo", last_name: "Invited" });
    expect(reset.status).toBe(200);
    return signIn(email);
  };

  const admin = async () => {
    const email = uniqueEmail("admin");
    await server.services.run(Accounts.createVerifiedUser({ email, password: PASSWORD, type: "admin", firstName: "Ada", lastName: "Admin" }));
    return signIn(email);
  };

  /** A physician with a chosen last name (for the provider search). */
  const physician = async (lastName: string) => {
    const email = uniqueEmail("doc");
    await server.services.run(Accounts.createVerifiedUser({ email, password: PASSWORD, type: "physician", firstName: "Grace", lastName }));
    const doctor = await signIn(email);
    // Practice calls need the practice's BAA (issue 22).
    await server.post("/user/sign-baa", { name: `Grace ${lastName}`, covered_entity: `${lastName} Pediatrics` }, doctor.token);
    return doctor;
  };

  /** A nurse invited by `doctor` who accepted the invitation. */
  const nurseOf = async (doctor: Record<string, any>) => {
    const email = uniqueEmail("nurse");
    const added = await server.post("/physician/add-user", { email, type: "nurse" }, doctor.token);
    expect(added.status).toBe(201);
    return acceptInvitation(email);
  };

  /** An Active parent whose first baby names `physicianId`. */
  const parentWithBaby = async (physicianId: string) => {
    const parent = await signUpVerified(server, "parent");
    const registered = await server.post("/user/register-baby", baby(physicianId), parent.token);
    expect(registered.status).toBe(201);
    return { ...parent, baby: registered.json.results.baby as Record<string, any> };
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });

  test("a parent finds a physician by name, registers a first baby, signs in with it, adds and edits children", async () => {
    const doctor = await physician(`Hopper${kind}`);
    const short = await server.get("/physicians?name=Ho");
    expect(short.status).toBe(422);
    expect(short.json.errors.name).toEqual(["Please type more than 2 characters to search"]);
    const search = await server.call("GET", `/physicians?name=${encodeURIComponent(`opper${kind}`)}`, { ip: "192.0.2.10" });
    expect(search.status).toBe(200);
    expect(search.json.results).toEqual([
      { identifier: doctor.identifier, name: `Dr. Grace Hopper${kind}` },
      { identifier: "no-physician", name: "No Physician" },
    ]);

    // Anonymous callers may search, 60 times a minute per address.
    for (let i = 0; i < 59; i++) await server.call("GET", "/physicians?name=nobody", { ip: "192.0.2.10" });
    const limited = await server.call("GET", "/physicians?name=nobody", { ip: "192.0.2.10" });
    expect(limited.status).toBe(429);
    expect(Number(limited.response.headers.get("retry-after"))).toBeGreaterThan(0);

    const parent = await signUpVerified(server, "parent");
    // The sign-in answer carries core's onboarding step, which the portal routes by.
    expect(parent.signIn.results).toMatchObject({ status: "AdditionalInformationRequired", step: "babyDetails", first_time_login: true, babies: [] });
    expect((await server.post("/user/register-baby", baby(doctor.identifier))).status).toBe(401);
    const registered = await server.post("/user/register-baby", baby(doctor.identifier), parent.token);
    expect(registered.status).toBe(201);
    expect(registered.json.results.parent_status).toBe("Active");
    expect(registered.json.results.step).toBe("disclaimer");
    expect((await server.get("/user/profile", parent.token)).json.results).toMatchObject({ status: "Active", step: "disclaimer" });
    expect(registered.json.results.baby).toMatchObject({
      name: "Mia Lopez",
      middle_name: null,
      relation: "mother",
      gender: "female",
      ethnicity: "Asian",
      nicu_time: 2,
      physician: { identifier: doctor.identifier, name: `Dr. Grace Hopper${kind}` },
    });

    const again = await signIn(parent.email);
    expect(again.status).toBe("Active");
    expect(again.babies).toHaveLength(1);
    expect(again.babies[0]).toEqual({
      identifier: registered.json.results.baby.identifier,
      name: "Mia Lopez",
      first_name: "Mia",
      middle_name: null,
      last_name: "Lopez",
      date_of_birth: dayFromToday(-2),
      relation: "mother",
      gender: "female",
      ethnicity: "Asian",
      nicu_time: 2,
      previous_condition: null,
      referral_code: null,
      physician_identifier: doctor.identifier,
      physician: { identifier: doctor.identifier, name: `Dr. Grace Hopper${kind}` },
    });

    const second = await server.post("/user/add-baby", baby("no-physician", { first_name: "Leo", relation: "father", gender: "male" }), parent.token);
    expect(second.status).toBe(201);
    expect(second.json.message).toBe("Child added successfully");
    expect(second.json.results.baby.physician).toBeNull();
    const edited = await server.post(
      "/user/update-child",
      { ...baby(doctor.identifier, { first_name: "Leon", nicu_time: "4" }), relation: undefined, identifier: second.json.results.baby.identifier },
      parent.token,
    );
    expect(edited.status).toBe(200);
    expect(edited.json.results).toMatchObject({ first_name: "Leon", relation: "father", nicu_time: 4, physician: { identifier: doctor.identifier } });
    const profile = await server.get("/user/profile", parent.token);
    expect(profile.json.results.babies.map((b: { first_name: string }) => b.first_name)).toEqual(["Mia", "Leon"]);

    const lead = await server.post("/user/add-childinfo-marketing", { parent_identifier: parent.identifier, physician_name: "Dr. X", baby_name: "Mia" }, parent.token);
    expect(lead.status).toBe(201);
    const otherLead = await server.post("/user/add-childinfo-marketing", { parent_identifier: doctor.identifier }, parent.token);
    expect(otherLead.status).toBe(404);
  });

  test("baby details answer every validation message of both specs, per field", async () => {
    const parent = await signUpVerified(server, "parent");
    const empty = await server.post("/user/register-baby", {}, parent.token);
    expect(empty.status).toBe(422);
    expect(empty.json.errors).toEqual({
      physician_identifier: [PROVIDER_REQUIRED],
      first_name: ["First name is required"],
      last_name: ["Last name is required"],
      date_of_birth: ["Date of birth is required"],
      relation: ["Relationship is required"],
      name: ["Child name is required"],
    });
    expect(empty.json.message).toBe(PROVIDER_REQUIRED);
    // With no name at all (neither `name` nor its parts) the child's name is asked for, on every baby form.
    const nameless = { ...baby("no-physician"), name: "", first_name: "", middle_name: "", last_name: " " };
    for (const path of ["/user/register-baby", "/user/add-baby"]) {
      const answer = await server.post(path, nameless, parent.token);
      expect(answer.status).toBe(422);
      expect(answer.json.errors).toEqual({ name: ["Child name is required"], first_name: ["First name is required"], last_name: ["Last name is required"] });
    }
    for (const path of ["/user/update-baby", "/user/update-child"]) {
      const answer = await server.post(path, { ...nameless, identifier: "01NOSUCHBABY" }, parent.token);
      expect(answer.json.errors).toEqual({ name: ["Child name is required"], first_name: ["First name is required"], last_name: ["Last name is required"] });
    }
    const bad = await server.post(
      "/user/register-baby",
      baby("no-physician", { date_of_birth: "2026-02-30", relation: "aunt", gender: "unknown", ethnicity: "Martian", nicu_time: 17, first_name: "   " }),
      parent.token,
    );
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({
      first_name: ["First name is required"],
      date_of_birth: [DATE_FORMAT],
      relation: ["Relationship must be one of mother, father or other"],
      gender: ["Gender must be one of male, female or other"],
      ethnicity: [expect.stringContaining("Race must be one of American Indian or Alaska Native")],
      nicu_time: ["Pre-term weeks must be a whole number between 0 and 16"],
    });
    for (const date of ["12/01/2025", "2025-13-01", "yesterday"]) {
      const answer = await server.post("/user/register-baby", baby("no-physician", { date_of_birth: date }), parent.token);
      expect(answer.json.errors).toEqual({ date_of_birth: [DATE_FORMAT] });
    }
    const future = await server.post("/user/register-baby", baby("no-physician", { date_of_birth: dayFromToday(0, 3) }), parent.token);
    expect(future.json.errors).toEqual({ date_of_birth: ["Date of birth cannot be in the future"] });
    const unknown = await server.post("/user/register-baby", baby("01NOSUCHPHYSICIAN0000000000"), parent.token);
    expect(unknown.json.errors).toEqual({ physician_identifier: [PROVIDER_MISSING] });
    // A parent is not a physician either.
    const notPhysician = await server.post("/user/register-baby", baby(parent.identifier), parent.token);
    expect(notPhysician.json.errors).toEqual({ physician_identifier: [PROVIDER_MISSING] });
    // Nothing was saved by the failures.
    expect((await server.get("/user/babies", parent.token)).json.results).toEqual([]);
  });

  test("a baby with 'No Physician' waits for approval; an admin approves, the parent is told in the bell and by e-mail", async () => {
    const parent = await signUpVerified(server, "parent");
    const registered = await server.post("/user/register-baby", baby("no-physician"), parent.token);
    expect(registered.status).toBe(201);
    expect(registered.json.message).toBe(WAITING);
    expect(registered.json.results.parent_status).toBe("WaitingApproval");
    expect(registered.json.results.step).toBe("waitingApproval");
    const more = await server.post("/user/add-baby", baby("no-physician"), parent.token);
    expect(more.status).toBe(403);
    expect(more.json).toMatchObject({ message: WAITING, status: "WaitingApproval" });
    const signOut = await server.get("/user/sign-out", parent.token);
    expect(signOut.json.message).toBe(Accounts.MESSAGES.signedOutWaitingApproval);

    const boss = await admin();
    const pending = await server.get("/admin/users/pending", boss.token);
    expect(pending.status).toBe(200);
    const row = pending.json.results.data.find((u: { email: string }) => u.email === parent.email);
    expect(row).toMatchObject({ identifier: parent.identifier, status: "WaitingApproval", babies: [{ first_name: "Mia", physician: null }] });
    const notAdmin = await server.get("/admin/users/pending", (await signIn((await physician("Nope")).email)).token);
    expect(notAdmin.status).toBe(403);
    expect((await server.post("/admin/users/approve", { identifier: "01UNKNOWN" }, boss.token)).status).toBe(404);
    expect((await server.post("/admin/users/approve", {}, boss.token)).json.errors).toEqual({ identifier: ["Identifier is required"] });

    const approved = await server.post("/admin/users/approve", { identifier: parent.identifier }, boss.token);
    expect(approved.status).toBe(200);
    expect(approved.json.results.status).toBe("Active");
    expect((await server.post("/admin/users/approve", { identifier: parent.identifier }, boss.token)).status).toBe(409);
    expect((await mailsTo(parent.email)).some((m) => m.subject === "Your Crown account is approved")).toBe(true);

    const session = await signIn(parent.email);
    expect(session.status).toBe("Active");
    expect((await server.get("/user/notifications-count", session.token)).json.results).toEqual({ count: 1 });
    const list = await server.get("/user/notifications", session.token);
    expect(list.json.results).toMatchObject({ current_page: 1, last_page: 1, per_page: 10, total: 1 });
    expect(list.json.results.data[0]).toMatchObject({ kind: "account_approved", read: false, text: expect.stringContaining("approved") });
    const read = await server.post("/user/read-notifications", {}, session.token);
    expect(read.json.results).toEqual({ updated: 1, count: 0 });
    expect((await server.get("/user/notifications", session.token)).json.results.data[0].read).toBe(true);

    // Rejection: the account is blocked and told by e-mail only.
    const other = await signUpVerified(server, "other");
    expect(other.signIn.results.status).toBe("WaitingApproval");
    const rejected = await server.post("/admin/users/reject", { identifier: other.identifier, reason: "Unknown practice" }, boss.token);
    expect(rejected.json.results.status).toBe("Blocked");
    expect((await mailsTo(other.email)).some((m) => m.text.includes("Unknown practice"))).toBe(true);
    expect((await server.get("/user/notifications", other.token)).status).toBe(401);
  });

  test("a physician signs the BAA and accepts the disclaimer on the server; the quiz is due until a pass", async () => {
    const doctor = await signUpVerified(server, "physician");
    expect(doctor.signIn.results).toMatchObject({ step: "baa", first_time_login: true, is_quiz_time: true, baa_signed: false, disclaimer_accepted: false });
    const reminders = await server.get("/user/reminders", doctor.token);
    expect(reminders.json.results.map((r: { type: string }) => r.type)).toEqual(["baa", "disclaimer", "quiz"]);

    const empty = await server.post("/user/sign-baa", { identifier: doctor.identifier, email: doctor.email }, doctor.token);
    expect(empty.status).toBe(422);
    expect(empty.json.errors).toEqual({ name: ["Provider name is required"], covered_entity: ["Practice name is required"] });
    const signed = await server.post("/user/sign-baa", { identifier: doctor.identifier, email: doctor.email, name: "Alex Morgan", covered_entity: "Morgan Pediatrics" }, doctor.token);
    expect(signed.status).toBe(200);
    expect(signed.json.results).toMatchObject({ baa_signed: true, first_time_login: true, signature: { covered_entity: "Morgan Pediatrics", text_version: expect.any(String) } });
    const onboarding = await server.get("/user/onboarding", doctor.token);
    expect(onboarding.json.results).toMatchObject({ step: "disclaimer", baa: { name: "Alex Morgan", text_version: onboarding.json.results.baa_text_version } });

    const notAccepted = await server.post("/user/accept-disclaimer", {}, doctor.token);
    expect(notAccepted.status).toBe(422);
    expect(notAccepted.json.errors).toEqual({ accepted: ["Please accept the terms of Disclaimer"] });
    const accepted = await server.post("/user/accept-disclaimer", { accepted: true }, doctor.token);
    expect(accepted.json.results).toMatchObject({ first_time_login: false, is_quiz_time: true, step: "quiz" });

    const badMode = await server.post("/user/update-quiz", { identifier: doctor.identifier, mode: "hat", answers: quiz("cap", 10) }, doctor.token);
    expect(badMode.status).toBe(422);
    expect(badMode.json.errors).toEqual({ mode: ["Mode must be one of cap or nocap"] });
    // The server grades: a claimed score is no answer, and the quiz must be 10 distinct photos of the mode's pool.
    const claimed = await server.post("/user/update-quiz", { identifier: doctor.identifier, mode: "cap", score: 1, total: 1 }, doctor.token);
    expect(claimed.status).toBe(422);
    expect(claimed.json.errors).toEqual({ answers: ["Answers are required"] });
    expect((await server.post("/user/update-quiz", {}, doctor.token)).json.errors).toEqual({ mode: ["Mode is required"], answers: ["Answers are required"] });
    const short = await server.post("/user/update-quiz", { mode: "cap", answers: quiz("cap", 1).slice(0, 1) }, doctor.token);
    expect(short.json.errors).toEqual({ answers: ["Answer each of the 10 questions of the quiz"] });
    const goodPhoto = QUIZ_KEY.cap.find((p) => p.good)!.image;
    const sameTenTimes = await server.post("/user/update-quiz", { mode: "cap", answers: Array.from({ length: 10 }, () => ({ image: goodPhoto, answer: "GOOD" })) }, doctor.token);
    expect(sameTenTimes.json.errors).toEqual({ answers: ["Each photo of the quiz can be answered only once"] });
    const wrongPool = await server.post("/user/update-quiz", { mode: "nocap", answers: quiz("cap", 10) }, doctor.token);
    expect(wrongPool.json.errors).toEqual({ answers: ["Each answer must name a photo of this quiz"] });
    const badAnswer = await server.post("/user/update-quiz", { mode: "cap", answers: quiz("cap", 10).map((a, i) => (i === 3 ? { ...a, answer: "MAYBE" } : a)) }, doctor.token);
    expect(badAnswer.json.errors).toEqual({ "answers.3.answer": ["Each answer must be GOOD or BAD"] });

    const failed = await server.post("/user/update-quiz", { identifier: doctor.identifier, mode: "cap", answers: quiz("cap", 7) }, doctor.token);
    expect(failed.json).toMatchObject({ message: "Better Luck Next Time!", results: { passed: false, mode: "cap", score: 7, total: 10, is_quiz_time: true } });
    // A pass of the no-cap quiz is recorded but leaves the quiz due: only the cap quiz clears it.
    const nocap = await server.post("/user/update-quiz", { identifier: doctor.identifier, mode: "nocap", answers: quiz("nocap", 10, 5) }, doctor.token);
    expect(nocap.json).toMatchObject({ message: "Congrats! You passed the quiz.", results: { passed: true, mode: "nocap", score: 10, is_quiz_time: true } });
    expect(await signIn(doctor.email)).toMatchObject({ is_quiz_time: true, isQuizTime: true });
    const passed = await server.post("/user/update-quiz", { identifier: doctor.identifier, mode: "cap", answers: quiz("cap", 8, 20) }, doctor.token);
    expect(passed.json).toMatchObject({ message: "Congrats! You passed the quiz.", results: { passed: true, mode: "cap", score: 8, total: 10, is_quiz_time: false } });
    expect(await signIn(doctor.email)).toMatchObject({ first_time_login: false, is_quiz_time: false, isFirstLogin: false, isQuizTime: false });
    expect((await server.get("/user/reminders", doctor.token)).json.results).toEqual([]);
    const someoneElse = await server.post("/user/update-quiz", { identifier: "01SOMEONEELSE", mode: "cap", answers: quiz("cap", 10) }, doctor.token);
    expect(someoneElse.status).toBe(404);
  });

  test("a parent's reminders: a monthly scan per baby until month 7", async () => {
    const doctor = await physician("Remind");
    const parent = await signUpVerified(server, "parent");
    await server.post("/user/register-baby", baby(doctor.identifier, { first_name: "Young", date_of_birth: dayFromToday(-1) }), parent.token);
    await server.post("/user/add-baby", baby(doctor.identifier, { first_name: "Old", date_of_birth: dayFromToday(-8) }), parent.token);
    const reminders = (await server.get("/user/reminders", parent.token)).json.results as Array<Record<string, unknown>>;
    const scans = reminders.filter((r) => r.type === "scan_due");
    expect(scans).toHaveLength(1);
    expect(scans[0]).toMatchObject({ baby_name: "Young Lopez", month: 2 });
  });

  test("patients: /patient/add answers alike whether the caregiver e-mail is new, a parent's, or another account's", async () => {
    const doctor = await physician("Oracle");
    const otherDoctor = await physician("Someone");
    const parent = await signUpVerified(server, "parent");
    const answers = [];
    for (const email of [uniqueEmail("fresh"), parent.email, otherDoctor.email]) {
      const added = await server.post("/patient/add", patient({ email }), doctor.token);
      expect(added.status, email).toBe(201);
      const { identifier, email: given, created_at, ...rest } = added.json.results;
      expect(given).toBe(email);
      answers.push({ message: added.json.message, ...rest });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  test("patients: add with a caregiver invitation, list 10 per page with search, edit; the 30-month limit", async () => {
    const doctor = await physician("Patients");
    const empty = await server.post("/patient/add", {}, doctor.token);
    expect(empty.status).toBe(422);
    expect(empty.json.errors).toEqual({
      first_name: ["First name is required"],
      last_name: ["Last name is required"],
      date_of_birth: ["Date of birth is required"],
      gender: ["Gender is required"],
      name: ["Patient name is required"],
    });
    const noGender = await server.post("/patient/add", patient({ gender: "" }), doctor.token);
    expect(noGender.status).toBe(422);
    expect(noGender.json.errors).toEqual({ gender: ["Gender is required"] });
    const bad = await server.post("/patient/add", patient({ date_of_birth: dayFromToday(-31), email: "nope", phone: "123", gender: "x" }), doctor.token);
    expect(bad.json.errors).toEqual({
      date_of_birth: ["Date of birth cannot be older than 30 months"],
      email: ["Email is invalid"],
      mobile_number: ["Mobile number is invalid"],
      gender: ["Gender must be one of male, female or other"],
    });
    expect((await server.post("/patient/add", patient({ date_of_birth: dayFromToday(-30, 1) }), doctor.token)).status).toBe(201);

    const caregiver = uniqueEmail("caregiver");
    const added = await server.post("/patient/add", patient({ email: caregiver, phone: "5550001111" }), doctor.token);
    expect(added.status).toBe(201);
    expect(added.json.message).toBe("Patient details added successfully");
    expect(added.json.results).toMatchObject({ name: "Noah Kim", email: caregiver, phone: "5550001111", physician_identifier: doctor.identifier });
    const family = await acceptInvitation(caregiver);
    expect(family).toMatchObject({ type: "parent", status: "Active" });
    expect(family.babies.map((b: { identifier: string }) => b.identifier)).toEqual([added.json.results.identifier]);
    // The physician hears about it.
    const bell = await server.get("/user/notifications", doctor.token);
    expect(bell.json.results.data[0]).toMatchObject({ kind: "invitation_accepted", subject_identifier: added.json.results.identifier });

    for (let i = 0; i < 10; i++) await server.post("/patient/add", patient({ first_name: `Zed${i}`, last_name: "Searchable" }), doctor.token);
    const page1 = await server.post("/patient/list?page=1", { per_page: 10 }, doctor.token);
    expect(page1.json.results).toMatchObject({ current_page: 1, last_page: 2, per_page: 10, total: 12 });
    expect(page1.json.results.data).toHaveLength(10);
    const page2 = await server.post("/patient/list?page=2", {}, doctor.token);
    expect(page2.json.results.data).toHaveLength(2);
    const found = await server.post("/patient/list?page=1", { search: "searchab" }, doctor.token);
    expect(found.json.results.total).toBe(10);
    const tooShort = await server.post("/patient/list?page=1", { search: "Ze" }, doctor.token);
    expect(tooShort.json.results.total).toBe(12);
    const byEmail = await server.post("/patient/list", { search: caregiver.slice(0, 12) }, doctor.token);
    expect(byEmail.json.results.total).toBe(1);

    const updated = await server.post(
      "/patient/update",
      patient({ identifier: added.json.results.identifier, first_name: "Noa", email: "changed@example.org", previous_condition: "Torticollis" }),
      doctor.token,
    );
    expect(updated.status).toBe(200);
    expect(updated.json.message).toBe("Patient details updated successfully");
    expect(updated.json.results).toMatchObject({ first_name: "Noa", email: caregiver, previous_condition: "Torticollis" });
    const unnamed = await server.post("/patient/update", { identifier: added.json.results.identifier, date_of_birth: dayFromToday(-3) }, doctor.token);
    expect(unnamed.status).toBe(422);
    expect(unnamed.json.errors).toEqual({
      first_name: ["First name is required"],
      last_name: ["Last name is required"],
      gender: ["Gender is required"],
      name: ["Patient name is required"],
    });
    const otherDoctor = await physician("Elsewhere");
    const foreign = await server.post("/patient/update", patient({ identifier: added.json.results.identifier }), otherDoctor.token);
    expect(foreign.status).toBe(404);
  });

  test("staff: a nurse invited by a physician acts for that physician only, and loses access when removed", async () => {
    const doctor = await physician("Staffed");
    const otherDoctor = await physician("Unrelated");
    expect((await server.post("/physician/add-user", { email: "bad" }, doctor.token)).json.errors).toEqual({ email: ["Email is invalid"] });
    const nurseEmail = uniqueEmail("nurse");
    const added = await server.post("/physician/add-user", { email: nurseEmail }, doctor.token);
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({ message: "Staff member added successfully", results: { email: nurseEmail, staff_type: "nurse", state: "pending", status: null } });
    expect((await server.post("/physician/add-user", { email: nurseEmail }, doctor.token)).status).toBe(422);
    const nurse = await acceptInvitation(nurseEmail);
    expect(nurse).toMatchObject({ type: "physician_staff", status: "Active", physicians: [{ identifier: doctor.identifier, staff_type: "nurse" }] });
    expect((await server.get("/user/notifications", doctor.token)).json.results.data[0]).toMatchObject({ kind: "invitation_accepted" });

    const mine = await server.get("/physician/list", nurse.token);
    expect(mine.json.results).toMatchObject([{ identifier: doctor.identifier, name: "Dr. Grace Staffed" }]);
    const withoutPhysician = await server.post("/patient/list", {}, nurse.token);
    expect(withoutPhysician.status).toBe(422);
    expect(withoutPhysician.json.errors).toEqual({ physician_identifier: ["Please select the physician you act for."] });
    const patientAdded = await server.post("/patient/add", patient({ physician_identifier: doctor.identifier }), nurse.token);
    expect(patientAdded.status).toBe(201);
    expect((await server.post("/patient/list", { physician_id: doctor.identifier }, nurse.token)).json.results.total).toBe(1);
    expect((await server.post("/patient/list", { physician_identifier: otherDoctor.identifier }, nurse.token)).status).toBe(404);

    // Staff add nurses only, and list the staff.
    const adminByNurse = await server.post("/physician/add-user", { email: uniqueEmail("oa"), type: "office_admin", physician_identifier: doctor.identifier }, nurse.token);
    expect(adminByNurse.status).toBe(403);
    const officeAdminEmail = uniqueEmail("office");
    expect((await server.post("/physician/add-user", { email: officeAdminEmail, type: "office_admin" }, doctor.token)).status).toBe(201);
    const secondNurse = uniqueEmail("nurse2");
    expect((await server.post("/physician/nurse/add", { email: secondNurse, physician_identifier: doctor.identifier }, nurse.token)).status).toBe(201);
    const staffList = await server.post("/physician/staff/list?page=1", { per_page: 10 }, doctor.token);
    expect(staffList.json.results.data.map((s: { email: string }) => s.email)).toEqual([nurseEmail, officeAdminEmail, secondNurse]);
    const nurseList = await server.post("/physician/nurse/list?page=1", { physician_identifier: doctor.identifier }, nurse.token);
    expect(nurseList.json.results.data.map((s: { email: string }) => s.email)).toEqual([nurseEmail, secondNurse]);

    // The same nurse also works for another physician, once she accepts its offer (ADR 56).
    expect((await server.post("/physician/add-user", { email: nurseEmail }, otherDoctor.token)).status).toBe(201);
    expect((await mailsTo(nurseEmail)).some((m) => m.subject.includes("asks you to join their staff"))).toBe(true);
    expect((await server.get("/physician/list", nurse.token)).json.results).toHaveLength(1);
    expect(await acceptLinkRequests(server, nurse.token)).toBe(1);
    expect((await server.get("/physician/list", nurse.token)).json.results).toHaveLength(2);

    // A nurse cannot remove an office admin; the physician removes the nurse: access to that physician ends at once.
    const officeAdminId = staffList.json.results.data[1].identifier;
    expect((await server.post("/physician/nurse/remove", { nurse_identifier: officeAdminId, physician_identifier: doctor.identifier }, nurse.token)).status).toBe(403);
    const removed = await server.post("/physician/staff/remove", { staff_identifier: nurse.identifier }, doctor.token);
    expect(removed.status).toBe(200);
    expect(removed.json.message).toBe("Staff member removed successfully");
    expect((await server.post("/physician/staff/remove", { staff_identifier: nurse.identifier }, doctor.token)).status).toBe(404);
    expect((await server.post("/patient/list", { physician_identifier: doctor.identifier }, nurse.token)).status).toBe(404);
    expect((await server.post("/patient/list", { physician_identifier: otherDoctor.identifier }, nurse.token)).status).toBe(200);
    // Removed by the last physician too: no physician left, every session ends.
    expect((await server.post("/physician/staff/remove", { staff_identifier: nurse.identifier }, otherDoctor.token)).status).toBe(200);
    expect((await server.get("/physician/list", nurse.token)).status).toBe(401);
  });

  test("the OpenAPI document lists every onboarding, practice and notification call with its body schema", async () => {
    const doc = await server.get("/openapi.json");
    expect(doc.status).toBe(200);
    const paths = doc.json.paths as Record<string, Record<string, { requestBody?: unknown }>>;
    for (const [method, path] of [
      ["post", "/user/register-baby"], ["post", "/user/add-baby"], ["post", "/user/update-baby"], ["post", "/user/update-child"],
      ["post", "/user/add-childinfo-marketing"], ["get", "/physicians"], ["get", "/physician/list"], ["post", "/user/accept-disclaimer"],
      ["post", "/user/sign-baa"], ["post", "/user/update-quiz"], ["get", "/admin/users/pending"], ["post", "/admin/users/approve"],
      ["post", "/admin/users/reject"], ["post", "/patient/list"], ["post", "/patient/add"], ["post", "/patient/update"],
      ["post", "/physician/add-user"], ["post", "/physician/nurse/add"], ["post", "/physician/nurse/list"], ["post", "/physician/staff/list"],
      ["post", "/physician/nurse/remove"], ["post", "/physician/staff/remove"], ["get", "/user/notifications"],
      ["get", "/user/notifications-count"], ["post", "/user/read-notifications"], ["get", "/user/reminders"],
    ] as const) {
      expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(paths["/user/register-baby"]!.post!.requestBody).toBeDefined();
  });

  // Seven callers signed in, five of them staff who set up and answer a second step (issue 44), then
  // ~200 calls: minutes on a loaded 2-core machine.
  test("authorization matrix: parent, other parent, physician, staff of this physician, staff of another, admin, anonymous", async () => {
    const doctor = await physician("Matrix");
    const otherDoctor = await physician("Other");
    const staff = await nurseOf(doctor);
    const otherStaff = await nurseOf(otherDoctor);
    const family = await parentWithBaby(doctor.identifier);
    const otherFamily = await parentWithBaby(otherDoctor.identifier);
    const boss = await admin();
    const roles = {
      parent: family.token,
      otherParent: otherFamily.token,
      physician: doctor.token,
      staff: staff.token,
      otherStaff: otherStaff.token,
      admin: boss.token,
      anonymous: null,
    } as const;
    type Role = keyof typeof roles;
    const D = doctor.identifier;
    const B = family.baby.identifier;
    const asPhysicianCall = (body: Record<string, unknown>) => ({ ...body, physician_identifier: D });

    // Another user's notification identifiers: accepted (200) but nothing of the owner's changes.
    const doctorsBell = (await server.get("/user/notifications", doctor.token)).json.results;
    const doctorsIds = doctorsBell.data.map((n: { identifier: string }) => n.identifier) as string[];
    const unreadBefore = (await server.get("/user/notifications-count", doctor.token)).json.results.count as number;
    expect(unreadBefore).toBeGreaterThan(0);
    for (const role of ["parent", "otherParent", "staff", "otherStaff", "admin"] as const) {
      const many = await server.post("/user/read-notifications", { identifiers: doctorsIds }, roles[role]);
      expect(many.status, role).toBe(200);
      expect(many.json.results.updated, role).toBe(0);
      const one = await server.post("/user/read-notifications", { identifier: doctorsIds[0] }, roles[role]);
      expect(one.json.results.updated, role).toBe(0);
    }
    expect((await server.get("/user/notifications-count", doctor.token)).json.results.count).toBe(unreadBefore);
    expect((await server.get("/user/notifications", doctor.token)).json.results.data.map((n: { read: boolean }) => n.read)).toEqual(doctorsBell.data.map((n: { read: boolean }) => n.read));

    // An account waiting for approval, for the reject row: only an admin can reject it (then it is Blocked).
    const waiting = await signUpVerified(server, "other");
    expect(waiting.signIn.results.status).toBe("WaitingApproval");

    const matrix: Array<{ name: string; call: (token: string | null, role: Role) => Promise<{ status: number }>; expect: Record<Role, number> }> = [
      {
        name: "POST /user/register-baby (an Active parent: another child)",
        call: (t) => server.post("/user/register-baby", baby(D, { first_name: "Extra" }), t),
        expect: { parent: 201, otherParent: 201, physician: 403, staff: 403, otherStaff: 403, admin: 403, anonymous: 401 },
      },
      {
        name: "POST /admin/users/reject (a WaitingApproval account)",
        call: (t) => server.post("/admin/users/reject", { identifier: waiting.identifier, reason: "Matrix" }, t),
        expect: { parent: 403, otherParent: 403, physician: 403, staff: 403, otherStaff: 403, admin: 200, anonymous: 401 },
      },
      {
        name: "POST /user/update-child (the parent's baby)",
        call: (t) => server.post("/user/update-child", { ...baby(D), identifier: B }, t),
        expect: { parent: 200, otherParent: 404, physician: 403, staff: 403, otherStaff: 403, admin: 403, anonymous: 401 },
      },
      {
        name: "POST /user/update-baby (the parent's baby)",
        call: (t) => server.post("/user/update-baby", { ...baby(D), identifier: B }, t),
        expect: { parent: 200, otherParent: 404, physician: 403, staff: 403, otherStaff: 403, admin: 403, anonymous: 401 },
      },
      {
        name: "POST /user/add-baby",
        call: (t) => server.post("/user/add-baby", baby(D), t),
        expect: { parent: 201, otherParent: 201, physician: 403, staff: 403, otherStaff: 403, admin: 403, anonymous: 401 },
      },
      {
        name: "POST /user/add-childinfo-marketing",
        call: (t) => server.post("/user/add-childinfo-marketing", { baby_name: "Mia" }, t),
        expect: { parent: 201, otherParent: 201, physician: 403, staff: 403, otherStaff: 403, admin: 403, anonymous: 401 },
      },
      {
        name: "GET /physicians?name=",
        call: (t) => server.get("/physicians?name=Matrix", t),
        expect: { parent: 200, otherParent: 200, physician: 200, staff: 200, otherStaff: 200, admin: 200, anonymous: 200 },
      },
      {
        name: "GET /physician/list",
        call: (t) => server.get("/physician/list", t),
        expect: { parent: 403, otherParent: 403, physician: 200, staff: 200, otherStaff: 200, admin: 403, anonymous: 401 },
      },
      {
        name: "POST /patient/list (this physician)",
        call: (t) => server.post("/patient/list?page=1", asPhysicianCall({}), t),
        expect: { parent: 403, otherParent: 403, physician: 200, staff: 200, otherStaff: 404, admin: 403, anonymous: 401 },
      },
      {
        name: "POST /patient/add (this physician)",
        call: (t) => server.post("/patient/add", asPhysicianCall(patient()), t),
        expect: { parent: 403, otherParent: 403, physician: 201, staff: 201, otherStaff: 404, admin: 403, anonymous: 401 },
      },
      {
        name: "POST /patient/update (this physician's patient)",
        call: (t) => server.post("/patient/update", asPhysicianCall(patient({ identifier: B, first_name: "Mia" })), t),
        expect: { parent: 403, otherParent: 403, physician: 200, staff: 200, otherStaff: 404, admin: 403, anonymous: 401 },
      },
      {
        name: "POST /physician/staff/list",
        call: (t) => server.post("/physician/staff/list?page=1", asPhysicianCall({}), t),
        expect: { parent: 403, otherParent: 403, physician: 200, staff: 200, otherStaff: 404, admin: 403, anonymous: 401 },
      },
      {
        name: "POST /physician/nurse/list",
        call: (t) => server.post("/physician/nurse/list?page=1", asPhysicianCall({}), t),
        expect: { parent: 403, otherParent: 403, physician: 200, staff: 200, otherStaff: 404, admin: 403, anonymous: 401 },
      },
      {
        name: "POST /physician/add-user (a nurse)",
        call: (t) => server.post("/physician/add-user", asPhysicianCall({ email: uniqueEmail("m") }), t),
        expect: { parent: 403, otherParent: 403, physician: 201, staff: 201, otherStaff: 404, admin: 403, anonymous: 401 },
      },
      {
        name: "POST /physician/nurse/add",
        call: (t) => server.post("/physician/nurse/add", asPhysicianCall({ email: uniqueEmail("m") }), t),
        expect: { parent: 403, otherParent: 403, physician: 201, staff: 201, otherStaff: 404, admin: 403, anonymous: 401 },
      },
      {
        name: "POST /physician/nurse/remove (someone not on the staff)",
        call: (t) => server.post("/physician/nurse/remove", asPhysicianCall({ nurse_identifier: otherStaff.identifier }), t),
        expect: { parent: 403, otherParent: 403, physician: 404, staff: 404, otherStaff: 404, admin: 403, anonymous: 401 },
      },
      {
        name: "POST /physician/staff/remove (another physician's nurse)",
        call: (t) => server.post("/physician/staff/remove", asPhysicianCall({ staff_identifier: otherStaff.identifier }), t),
        expect: { parent: 403, otherParent: 403, physician: 404, staff: 404, otherStaff: 404, admin: 403, anonymous: 401 },
      },
      {
        name: "GET /admin/users/pending",
        call: (t) => server.get("/admin/users/pending", t),
        expect: { parent: 403, otherParent: 403, physician: 403, staff: 403, otherStaff: 403, admin: 200, anonymous: 401 },
      },
      {
        name: "POST /admin/users/approve (an Active account)",
        call: (t) => server.post("/admin/users/approve", { identifier: family.identifier }, t),
        expect: { parent: 403, otherParent: 403, physician: 403, staff: 403, otherStaff: 403, admin: 409, anonymous: 401 },
      },
      {
        name: "POST /user/sign-baa",
        call: (t) => server.post("/user/sign-baa", { name: "N", covered_entity: "P" }, t),
        expect: { parent: 403, otherParent: 403, physician: 200, staff: 403, otherStaff: 403, admin: 403, anonymous: 401 },
      },
      {
        name: "POST /user/update-quiz",
        call: (t) => server.post("/user/update-quiz", { mode: "cap", answers: quiz("cap", 9) }, t),
        expect: { parent: 200, otherParent: 200, physician: 200, staff: 200, otherStaff: 200, admin: 403, anonymous: 401 },
      },
      {
        name: "POST /user/accept-disclaimer",
        call: (t) => server.post("/user/accept-disclaimer", { accepted: true }, t),
        expect: { parent: 200, otherParent: 200, physician: 200, staff: 200, otherStaff: 200, admin: 200, anonymous: 401 },
      },
      ...(["/user/notifications", "/user/notifications-count", "/user/reminders", "/user/onboarding", "/user/babies"] as const).map((path) => ({
        name: `GET ${path}`,
        call: (t: string | null) => server.get(path, t),
        expect: {
          parent: 200,
          otherParent: 200,
          physician: path === "/user/babies" ? 403 : 200,
          staff: path === "/user/babies" ? 403 : 200,
          otherStaff: path === "/user/babies" ? 403 : 200,
          admin: path === "/user/babies" ? 403 : 200,
          anonymous: 401,
        } as Record<Role, number>,
      })),
      {
        name: "POST /user/read-notifications",
        call: (t) => server.post("/user/read-notifications", {}, t),
        expect: { parent: 200, otherParent: 200, physician: 200, staff: 200, otherStaff: 200, admin: 200, anonymous: 401 },
      },
    ];

    const failures: string[] = [];
    for (const row of matrix) {
      for (const role of Object.keys(roles) as Role[]) {
        const { status } = await row.call(roles[role], role);
        if (status !== row.expect[role]) failures.push(`${row.name} as ${role}: ${status}, expected ${row.expect[role]}`);
      }
    }
    expect(failures).toEqual([]);
    // The reject row: refused to everyone but the admin, whose rejection blocked the account.
    expect((await server.post("/user/sign-in", { email: waiting.email, password: b64(PASSWORD) })).json.status).toBe("Blocked");
    // What the parents see of each other: their own babies only.
    const seen = (await server.get("/user/babies", family.token)).json.results.map((b: { identifier: string }) => b.identifier);
    expect(seen).toContain(B);
    expect(seen).not.toContain(otherFamily.baby.identifier);
  }, 240_000);
});
