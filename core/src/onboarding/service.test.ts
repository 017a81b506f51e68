import { Effect, Exit } from "effect";
import { describe, expect, it } from "vitest";
import type { Caller, User } from "../accounts/model.ts";
import { resetPassword } from "../accounts/service.ts";
import { Notifications } from "../notifications/model.ts";
import { countUnread } from "../notifications/service.ts";
import { reminders } from "./reminders.ts";
import { acceptLinkRequest, addPatient, addStaff, declineLinkRequest, myLinkRequests } from "../practice/service.ts";
import { Mailer } from "../shared/ports.ts";
import { makeTestWorld } from "../testing/memory.ts";
import { anAccount, callerIn } from "../testing/accounts.ts";
import { makeOnboardingWorld } from "../testing/onboarding-memory.ts";
import { linkIn } from "../testing/accounts.ts";
import { approve, registerBaby, searchPhysicians } from "./service.ts";

const setup = async () => {
  const world = makeTestWorld({ start: new Date("2026-06-15T12:00:00Z") });
  const ob = makeOnboardingWorld(world);
  const make = (type: User["type"], name: string) => anAccount(world, type, name);
  const as = (u: User): Caller => callerIn(world, u.id);
  return { world, ob, make, as };
};

describe("onboarding use cases (in-memory world)", () => {
  it("an approval whose notification cannot be written is rolled back and mails nothing; the mail goes after the commit", async () => {
    const { world, ob, make } = await setup();
    const user = await make("parent", "waiting");
    world.users.set(user.id, { ...world.users.get(user.id)!, status: "WaitingApproval" });
    const broken = Effect.provideService(approve(user.id, null), Notifications, {
      insert: () => Effect.die(new Error("disk full")),
      list: () => Effect.die(new Error("unused")),
      countUnread: () => Effect.succeed(0),
      markRead: () => Effect.succeed(0),
    });
    expect(Exit.isFailure(await world.exit(Effect.provide(broken, ob.layer)))).toBe(true);
    expect(world.users.get(user.id)!.status).toBe("WaitingApproval");
    expect(world.mailsTo(user.email).filter((m) => m.subject.includes("approved"))).toEqual([]);
    await ob.run(approve(user.id, null));
    expect(world.users.get(user.id)!.status).toBe("Active");
    expect(ob.notifications.size).toBe(1);
    expect(world.mailsTo(user.email).filter((m) => m.subject.includes("approved"))).toHaveLength(1);
    // A mail server failing after the commit does not undo the approval.
    const other = await make("parent", "waiting2");
    world.users.set(other.id, { ...world.users.get(other.id)!, status: "WaitingApproval" });
    const mailDown = Effect.provideService(approve(other.id, null), Mailer, { send: () => Effect.die(new Error("SMTP down")) });
    expect(Exit.isFailure(await world.exit(Effect.provide(mailDown, ob.layer)))).toBe(true);
    expect(world.users.get(other.id)!.status).toBe("Active");
  });

  it("a patient whose caregiver already has an account joins it only when the parent accepts (ADR 56)", async () => {
    const { world, ob, make, as } = await setup();
    const doctor = await make("physician", "doc");
    const parent = await make("parent", "mum");
    const added = await ob.runAs(as(doctor), addPatient({ first_name: "Ivy", last_name: "Test", date_of_birth: "2026-05-01", gender: "female", email: "MUM@example.com" }));
    expect([...ob.babies.values()].find((b) => b.id === added.identifier)?.parentId).toBeNull();
    expect(await ob.runAs(as(parent), countUnread)).toEqual({ count: 1 });
    expect(world.lastMailTo(parent.email)?.subject).toBe("Dr. doc Test asks to add a patient to your Crown account");
    const { data } = await ob.runAs(as(parent), myLinkRequests);
    expect(data).toMatchObject([{ kind: "patient", baby: { identifier: added.identifier, name: "Ivy Test" } }]);
    await ob.runAs(as(parent), acceptLinkRequest({ identifier: data[0]!.identifier, kind: "patient" }));
    expect([...ob.babies.values()].find((b) => b.id === added.identifier)?.parentId).toBe(parent.id);
    // A physician's e-mail cannot be a caregiver's: the patient is added unlinked, with the same answer as for any address.
    const mails = world.mails.length;
    const unlinked = await ob.runAs(as(doctor), addPatient({ first_name: "X", last_name: "Y", date_of_birth: "2026-05-01", gender: "female", email: doctor.email }));
    const fresh = await ob.runAs(as(doctor), addPatient({ first_name: "X", last_name: "Y", date_of_birth: "2026-05-01", gender: "female", email: "nobody.yet@example.com" }));
    const shape = (p: Record<string, unknown>) => Object.fromEntries(Object.entries(p).filter(([k]) => !["identifier", "email", "created_at"].includes(k)));
    expect(shape(unlinked)).toEqual(shape(fresh));
    expect(shape(added)).toEqual({ ...shape(fresh), first_name: "Ivy", last_name: "Test", name: expect.any(String) });
    expect([...ob.babies.values()].find((b) => b.id === unlinked.identifier)?.parentId).toBeNull();
    // The new address's invitation, and to the physician's address a notice that nothing was added (one e-mail per add: no timing oracle).
    expect(world.mails.length).toBe(mails + 2);
    expect(world.lastMailTo(doctor.email)?.subject).toBe("Dr. doc Test used your e-mail address on Crown");
  });

  it("an invited caregiver sets a password from the link and is Active with the baby; the physician is told", async () => {
    const { world, ob, make, as } = await setup();
    const doctor = await make("physician", "doc2");
    await ob.runAs(as(doctor), addPatient({ first_name: "Ivy", last_name: "New", date_of_birth: "2026-05-01", gender: "female", email: "new.family@example.com" }));
    const link = linkIn(world.lastMailTo("new.family@example.com")!);
    expect(link.pathname).toBe("/reset-password");
    expect(link.searchParams.get("invite")).toBe("1");
    await ob.run(resetPassword({ token: link.searchParams.get("token"), password: "Vq8#Rimble-42", first_name: "Nora" }));
    const family = world.userByEmail("new.family@example.com")!;
    expect(family).toMatchObject({ type: "parent", status: "Active", firstName: "Nora", lastName: "New" });
    expect(family.emailVerifiedAt).not.toBeNull();
    expect([...ob.notifications.values()].filter((n) => n.userId === doctor.id && n.kind === "invitation_accepted")).toHaveLength(1);
    // The link works once.
    expect(Exit.isFailure(await world.exit(Effect.provide(resetPassword({ token: link.searchParams.get("token"), password: "Vq8#Rimble-42" }), ob.layer)))).toBe(true);
  });

  it("an existing staff member added by two physicians is asked in the bell and by e-mail, not invited, and acts for neither before accepting", async () => {
    const { world, ob, make, as } = await setup();
    const first = await make("physician", "first");
    const second = await make("physician", "second");
    const nurse = await make("physician_staff", "nurse");
    await ob.runAs(as(first), addStaff({ email: nurse.email }));
    await ob.runAs(as(second), addStaff({ email: nurse.email, type: "office_admin" }));
    expect(world.mailsTo(nurse.email).map((m) => m.subject)).toEqual([
      "Dr. first Test asks you to join their staff on Crown",
      "Dr. second Test asks you to join their staff on Crown",
    ]);
    expect(await ob.runAs(as(nurse), countUnread)).toEqual({ count: 2 });
    expect([...ob.delegations.values()].every((d) => d.acceptedAt === null)).toBe(true);
    const { data } = await ob.runAs(as(nurse), myLinkRequests);
    expect(data.map((r) => r.staff_type)).toEqual(["nurse", "office_admin"]);
    await ob.runAs(as(nurse), acceptLinkRequest({ identifier: data[0]!.identifier, kind: "staff" }));
    await ob.runAs(as(nurse), declineLinkRequest({ identifier: data[1]!.identifier, kind: "staff" }));
    const byPhysician = new Map([...ob.delegations.values()].map((d) => [d.physicianId, d]));
    expect(byPhysician.get(first.id)).toMatchObject({ acceptedAt: expect.any(Date), endedAt: null });
    expect(byPhysician.get(second.id)).toMatchObject({ acceptedAt: null, endedAt: expect.any(Date), endedBy: nurse.id });
  });

  it("the provider search finds active physicians by any part of the name, then offers 'No Physician'", async () => {
    const { ob, make } = await setup();
    await make("physician", "Hopper");
    const found = await ob.run(searchPhysicians({ name: "opp" }));
    expect(found.map((p) => p.name)).toEqual(["Dr. Hopper Test", "No Physician"]);
    expect((await ob.run(searchPhysicians({ name: "Dr. Hopper" }))).map((p) => p.name)).toEqual(["Dr. Hopper Test", "No Physician"]);
  });

  it("reminders follow the date of birth and the last upload", async () => {
    const { world, ob, make, as } = await setup();
    const doctor = await make("physician", "doc3");
    const parent = await make("parent", "dad");
    world.users.set(parent.id, { ...world.users.get(parent.id)!, status: "AdditionalInformationRequired" });
    const { results } = await ob.runAs(
      as(parent),
      registerBaby({ physician_identifier: doctor.id, first_name: "Ben", last_name: "Test", date_of_birth: "2026-03-10", relation: "father" }),
    );
    const scans = async () => (await ob.runAs(as(parent), reminders)).filter((r) => r.type === "scan_due");
    expect(await scans()).toMatchObject([{ baby_name: "Ben Test", month: 4, due_since: "2026-06-10", next_due: "2026-07-10" }]);
    ob.uploads.set(results.baby.identifier, new Date("2026-06-12T08:00:00Z"));
    expect(await scans()).toEqual([]);
    world.clock.set(new Date("2026-07-11T00:00:00Z"));
    expect(await scans()).toMatchObject([{ month: 5 }]);
    world.clock.set(new Date("2026-10-10T00:00:00Z"));
    expect(await scans()).toEqual([]);
  });

  it("asks for the quiz 'before your first scan' only until the first scan: a parent with uploads is not told (issue 46)", async () => {
    const { world, ob, make, as } = await setup();
    const doctor = await make("physician", "doc4");
    const parent = await make("parent", "mum");
    world.users.set(parent.id, { ...world.users.get(parent.id)!, status: "AdditionalInformationRequired", quizPassedAt: null });
    const { results } = await ob.runAs(
      as(parent),
      registerBaby({ physician_identifier: doctor.id, first_name: "Ada", last_name: "Test", date_of_birth: "2026-03-10", relation: "mother" }),
    );
    const quiz = async () => (await ob.runAs(as(parent), reminders)).filter((r) => r.type === "quiz").map((r) => r.text);
    expect(await quiz()).toEqual(["Please take the quiz before your first scan (it takes less than 5 minutes)."]);
    ob.uploads.set(results.baby.identifier, new Date("2026-06-12T08:00:00Z"));
    expect(await quiz()).toEqual([]);
    // Passed before any upload: not asked either.
    ob.uploads.clear();
    world.users.set(parent.id, { ...world.users.get(parent.id)!, quizPassedAt: new Date("2026-06-01T00:00:00Z") });
    expect(await quiz()).toEqual([]);
  });
});

describe("baby and patient forms in the browser (checkForm)", () => {
  it("answers the same per-field messages as the server, without union noise", async () => {
    const { checkForm, BabyRequest, PatientRequest } = await import("./schemas.ts");
    const { Either } = await import("effect");
    const today = { year: 2026, month: 6, day: 15 };
    const bad = checkForm(BabyRequest(today), { physician_identifier: "", first_name: "Mia", last_name: "L", date_of_birth: "2026-06-16", relation: "mother", gender: "x" });
    expect(Either.isLeft(bad) && bad.left.errors).toEqual({
      // An empty field is a missing provider, not an unknown one (issue 46).
      physician_identifier: ["Provider is required. Choose your provider, or 'No Physician' if you do not have one."],
      date_of_birth: ["Date of birth cannot be in the future"],
      gender: ["Gender must be one of male, female or other"],
    });
    const old = checkForm(PatientRequest(today), { first_name: "A", last_name: "B", date_of_birth: "2023-12-14", gender: "male" });
    expect(Either.isLeft(old) && old.left.errors).toEqual({ date_of_birth: ["Date of birth cannot be older than 30 months"] });
    expect(Either.isRight(checkForm(PatientRequest(today), { first_name: "A", last_name: "B", date_of_birth: "2023-12-15", gender: "male" }))).toBe(true);
    // The browser gets the whole-name and gender messages too; a child's gender may be skipped.
    const nameless = checkForm(PatientRequest(today), { date_of_birth: "2025-12-15" });
    expect(Either.isLeft(nameless) && nameless.left.errors).toEqual({
      first_name: ["First name is required"],
      last_name: ["Last name is required"],
      gender: ["Gender is required"],
      name: ["Patient name is required"],
    });
    const child = checkForm(BabyRequest(today), { physician_identifier: "no-physician", name: " ", date_of_birth: "2026-01-01", relation: "mother" });
    expect(Either.isLeft(child) && child.left.errors).toEqual({ first_name: ["First name is required"], last_name: ["Last name is required"], name: ["Child name is required"] });
    expect(Either.isRight(checkForm(BabyRequest(today), { physician_identifier: "no-physician", first_name: "A", last_name: "B", date_of_birth: "2026-01-01", relation: "mother" }))).toBe(true);
  });
});
