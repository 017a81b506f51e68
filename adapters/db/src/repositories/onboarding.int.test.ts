import {
  AccountsConfig,
  Babies,
  type Baby,
  defaultAccountsSettings,
  Delegations,
  Mailer,
  Notifications,
  Onboarding,
  PhysicianDirectory,
  Random,
  Users,
} from "@crown/core";
import { Effect, Exit, Layer, Option } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aUser, at, testId } from "../testing-fixtures.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../testing.ts";
import { makeNotifications } from "./onboarding.ts";

const aBaby = (overrides: Partial<Baby> & { createdBy: string }): Baby => ({
  id: testId(),
  parentId: null,
  physicianId: null,
  firstName: "Mia",
  middleName: null,
  lastName: "Lopez",
  dateOfBirth: "2026-09-30",
  relation: "mother",
  gender: "female",
  ethnicity: "Asian",
  nicuTime: 2,
  previousCondition: null,
  referralCode: null,
  caregiverEmail: null,
  caregiverPhone: null,
  createdAt: at("2026-11-01T10:00:00.000Z"),
  updatedAt: at("2026-11-01T10:00:00.000Z"),
  ...overrides,
});

describe.each(await databaseKinds())("onboarding repositories on %s", (kind) => {
  let t: TestDatabase;
  const run = <A, E>(effect: Effect.Effect<A, E, Layer.Layer.Success<TestDatabase["layer"]>>) => Effect.runPromise(Effect.provide(effect, t.layer));
  const insertUser = async (overrides: Parameters<typeof aUser>[0] = {}) => {
    const user = aUser(overrides);
    await run(Effect.flatMap(Users, (u) => u.insert(user)));
    return user;
  };

  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t?.drop());

  it("stores babies with their calendar day of birth, lists a parent's oldest first and a physician's newest first with search", async () => {
    const parent = await insertUser();
    const doctor = await insertUser({ type: "physician" });
    const first = aBaby({ parentId: parent.id, physicianId: doctor.id, createdBy: parent.id, caregiverEmail: "care_giver@example.com" });
    const second = aBaby({ parentId: parent.id, createdBy: parent.id, firstName: "Leo", createdAt: at("2026-11-02T10:00:00.000Z"), dateOfBirth: "2024-02-29" });
    await run(Effect.flatMap(Babies, (b) => Effect.all([b.insert(first), b.insert(second)])));
    expect(await run(Effect.flatMap(Babies, (b) => b.findById(first.id)))).toEqual(Option.some(first));
    expect((await run(Effect.flatMap(Babies, (b) => b.listByParent(parent.id)))).map((b) => b.id)).toEqual([first.id, second.id]);
    await run(Effect.flatMap(Babies, (b) => b.update(second.id, { physicianId: doctor.id, nicuTime: null, updatedAt: at("2026-11-03T00:00:00.000Z") })));
    const page = await run(Effect.flatMap(Babies, (b) => b.listByPhysician(doctor.id, null, { page: 1, perPage: 1 })));
    expect(page.total).toBe(2);
    expect(page.data.map((b) => b.id)).toEqual([second.id]);
    expect(page.data[0]).toMatchObject({ nicuTime: null, dateOfBirth: "2024-02-29" });
    const byName = await run(Effect.flatMap(Babies, (b) => b.listByPhysician(doctor.id, "mia lo", { page: 1, perPage: 10 })));
    expect(byName.data.map((b) => b.id)).toEqual([first.id]);
    // LIKE characters in the search are literal.
    const underscore = await run(Effect.flatMap(Babies, (b) => b.listByPhysician(doctor.id, "care_giver", { page: 1, perPage: 10 })));
    expect(underscore.total).toBe(1);
    expect((await run(Effect.flatMap(Babies, (b) => b.listByPhysician(doctor.id, "%%%", { page: 1, perPage: 10 })))).total).toBe(0);
  });

  it("finds active physicians by name only", async () => {
    const active = await insertUser({ type: "physician", firstName: "Grace", lastName: `Repo${kind}` });
    await insertUser({ type: "physician", firstName: "Blocked", lastName: `Repo${kind}`, status: "Blocked" });
    await insertUser({ type: "parent", firstName: "Parent", lastName: `Repo${kind}` });
    const found = await run(Effect.flatMap(PhysicianDirectory, (d) => d.search(`e repo${kind}`, 20)));
    expect(found.map((u) => u.id)).toEqual([active.id]);
  });

  it("keeps one live delegation per physician and staff member, and lists staff with their accounts", async () => {
    const doctor = await insertUser({ type: "physician" });
    const nurse = await insertUser({ type: "physician_staff", lastName: "Nurse" });
    const admin = await insertUser({ type: "physician_staff", lastName: "Office" });
    const d1 = { id: testId(), physicianId: doctor.id, staffId: nurse.id, staffType: "nurse" as const, createdBy: doctor.id, createdAt: at("2026-11-01T00:00:00.000Z"), acceptedAt: at("2026-11-01T00:00:00.000Z"), endedAt: null, endedBy: null };
    const d2 = { ...d1, id: testId(), staffId: admin.id, staffType: "office_admin" as const, createdAt: at("2026-11-02T00:00:00.000Z") };
    await run(Effect.flatMap(Delegations, (d) => Effect.all([d.insert(d1), d.insert(d2)])));
    const duplicate = await Effect.runPromiseExit(Effect.provide(Effect.flatMap(Delegations, (d) => d.insert({ ...d1, id: testId() })), t.layer));
    expect(Exit.isFailure(duplicate)).toBe(true);
    const nurses = await run(Effect.flatMap(Delegations, (d) => d.listStaff(doctor.id, ["nurse"], { page: 1, perPage: 10 })));
    expect(nurses).toMatchObject({ total: 1, data: [{ user: { id: nurse.id, lastName: "Nurse" }, delegation: { id: d1.id, staffType: "nurse" } }] });
    const all = await run(Effect.flatMap(Delegations, (d) => d.listStaff(doctor.id, ["nurse", "office_admin"], { page: 1, perPage: 10 })));
    expect(all.data.map((m) => m.user.id)).toEqual([nurse.id, admin.id]);
    await run(Effect.flatMap(Delegations, (d) => d.end(d1.id, at("2026-11-03T00:00:00.000Z"), doctor.id)));
    expect(await run(Effect.flatMap(Delegations, (d) => d.findActive(doctor.id, nurse.id)))).toEqual(Option.none());
    expect(await run(Effect.flatMap(Delegations, (d) => d.listActiveForStaff(nurse.id)))).toEqual([]);
    // Ended, the same pair may be delegated again.
    await run(Effect.flatMap(Delegations, (d) => d.insert({ ...d1, id: testId() })));
    expect(Option.isSome(await run(Effect.flatMap(Delegations, (d) => d.findActive(doctor.id, nurse.id))))).toBe(true);
  });

  it("lists, counts and marks notifications read, only the user's own", async () => {
    const user = await insertUser();
    const other = await insertUser();
    const note = (userId: string, minute: number) => ({
      id: testId(),
      userId,
      kind: "account_approved" as const,
      text: `n${minute}`,
      message: minute === 2 ? { key: "recaptureRequested" as const, params: { baby: "Bo", reasons: ["Image is blurry"] } } : null,
      subjectId: null,
      readAt: null,
      createdAt: at(`2026-11-22T10:${String(minute).padStart(2, "0")}:00.000Z`),
    });
    const [a, b, c] = [note(user.id, 1), note(user.id, 2), note(other.id, 3)];
    await run(Effect.flatMap(Notifications, (n) => Effect.all([n.insert(a), n.insert(b), n.insert(c)])));
    expect((await run(Effect.flatMap(Notifications, (n) => n.list(user.id, { page: 1, perPage: 10 })))).data.map((x) => x.text)).toEqual(["n2", "n1"]);
    // The key and parameters come back as written, to render in the reader's language; older rows have none.
    expect((await run(Effect.flatMap(Notifications, (n) => n.list(user.id, { page: 1, perPage: 10 })))).data.map((x) => x.message)).toEqual([b.message, null]);
    expect(await run(Effect.flatMap(Notifications, (n) => n.markRead(user.id, [a.id, c.id], at("2026-11-22T11:00:00.000Z"))))).toBe(1);
    expect(await run(Effect.flatMap(Notifications, (n) => n.countUnread(user.id)))).toBe(1);
    expect(await run(Effect.flatMap(Notifications, (n) => n.markRead(user.id, null, at("2026-11-22T11:00:00.000Z"))))).toBe(1);
    expect(await run(Effect.flatMap(Notifications, (n) => n.countUnread(other.id)))).toBe(1);
  });

  it("writes the approval and its notification in one transaction, and mails only after the commit", async () => {
    const waiting = await insertUser({ status: "WaitingApproval" });
    let ids = 0;
    const sent: string[] = [];
    const services = Layer.mergeAll(
      t.layer,
      Layer.succeed(Mailer, { send: (m) => Effect.sync(() => void sent.push(m.to)) }),
      Layer.succeed(Random, { identifier: () => `01TXTEST${String(++ids).padStart(18, "0")}${kind}`, secret: () => "secret" }),
      Layer.succeed(AccountsConfig, AccountsConfig.make(defaultAccountsSettings("http://crown.test"))),
    );
    // The notification cannot be written: the status change is rolled back and nothing is mailed.
    const broken = Effect.provideService(Onboarding.approve(waiting.id, null), Notifications, {
      ...makeNotifications(t.db),
      insert: () => Effect.die(new Error("disk full")),
    });
    const failed = await Effect.runPromiseExit(Effect.provide(broken, services));
    expect(Exit.isFailure(failed)).toBe(true);
    expect(Option.getOrThrow(await run(Effect.flatMap(Users, (u) => u.findById(waiting.id)))).status).toBe("WaitingApproval");
    expect(sent).toEqual([]);

    await Effect.runPromise(Effect.provide(Onboarding.approve(waiting.id, null), services));
    expect(Option.getOrThrow(await run(Effect.flatMap(Users, (u) => u.findById(waiting.id)))).status).toBe("Active");
    expect(await run(Effect.flatMap(Notifications, (n) => n.countUnread(waiting.id)))).toBe(1);
    expect(sent).toEqual([waiting.email]);
  });
});
