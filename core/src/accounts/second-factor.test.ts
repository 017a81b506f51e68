import { Exit } from "effect";
import { describe, expect, it } from "vitest";
import { Forbidden, RateLimited, Unauthenticated, ValidationFailed } from "../shared/errors.ts";
import { MINUTE } from "../testing/account-checks.ts";
import { aParent, aPhysician, anAccount, callerIn, makeTestWorld, signedIn, signInAs, testAppCode, type TestWorld } from "../testing/index.ts";
import { admitCaller, authenticate } from "./authenticate.ts";
import { MESSAGES } from "./messages.ts";
import { isCommonPassword } from "./common-passwords.ts";
import { resetSecondFactor } from "./reset-second-factor.ts";
import { SECOND_FACTOR_MESSAGES } from "./second-factor-messages.ts";
import { SECOND_FACTOR_SETUP_STATUS, SECOND_FACTOR_STEP_STATUS } from "./second-factor-model.ts";
import { confirmAuthenticatorApp, newRecoveryCode, normaliseRecoveryCode, startAuthenticatorApp, turnOffSecondFactor } from "./second-factor.ts";
import { changePassword, signIn, signUp } from "./service.ts";
import { testCommonPasswords } from "../testing/second-factors.ts";

const failureOf = (exit: Exit.Exit<unknown, unknown>) => (Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error : null);

/** Signs up, signs in and sets up an authenticator app; answers the app's secret and the recovery codes. */
const withApp = async (world: TestWorld, payload: ReturnType<typeof aParent>) => {
  const { token } = await signedIn(world, payload);
  const caller = await world.run(authenticate(token));
  const { secret } = await world.runAs(caller, startAuthenticatorApp);
  const { recovery_codes } = await world.runAs(caller, confirmAuthenticatorApp({ code: testAppCode(secret, world.clock.now()) }));
  return { token, secret, recoveryCodes: recovery_codes! };
};

describe("two-step sign-in", () => {
  it("asks for the second step after the right password, and signs in with the app's code", async () => {
    const world = makeTestWorld();
    const parent = aParent();
    const { secret, recoveryCodes } = await withApp(world, parent);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);

    const step = failureOf(await world.exit(signIn({ email: parent.email, password: parent.password, remember_me: true })));
    expect(step).toBeInstanceOf(Forbidden);
    expect((step as Forbidden).status).toBe(SECOND_FACTOR_STEP_STATUS);

    world.clock.advance(30);
    const { token } = await world.run(signIn({ email: parent.email, password: parent.password, code: testAppCode(secret, world.clock.now()) }));
    const caller = await world.run(authenticate(token));
    expect(caller.session.secondFactorAt).not.toBeNull();
    // The same code twice is refused: a code seen over a shoulder does not sign in again.
    const replay = failureOf(await world.exit(signIn({ email: parent.email, password: parent.password, code: testAppCode(secret, world.clock.now()) })));
    expect(replay).toBeInstanceOf(ValidationFailed);
  });

  it("a recovery code works once", async () => {
    const world = makeTestWorld();
    const parent = aParent();
    const { recoveryCodes } = await withApp(world, parent);
    const code = recoveryCodes[3]!.toUpperCase();
    await world.run(signIn({ email: parent.email, password: parent.password, code }));
    const again = failureOf(await world.exit(signIn({ email: parent.email, password: parent.password, code })));
    expect(again).toBeInstanceOf(ValidationFailed);
    expect(world.secondFactors.recovery.size).toBe(10);
    expect([...world.secondFactors.recovery.values()].filter((c) => c.usedAt === null)).toHaveLength(9);
  });

  it("never says whether the password was right when the second step fails", async () => {
    const world = makeTestWorld();
    const parent = aParent();
    await withApp(world, parent);
    const wrongPassword = failureOf(await world.exit(signIn({ email: parent.email, password: "Wrong#Pass-93", code: "123456" })));
    const wrongCode = failureOf(await world.exit(signIn({ email: parent.email, password: parent.password, code: "123456" })));
    const unknown = failureOf(await world.exit(signIn({ email: "nobody@example.com", password: parent.password, code: "123456" })));
    for (const answer of [wrongPassword, wrongCode, unknown]) {
      expect(answer).toBeInstanceOf(ValidationFailed);
      expect((answer as ValidationFailed).errors).toEqual({ email: [SECOND_FACTOR_MESSAGES.badSecondStep] });
    }
  });

  it("five wrong codes slow the second step down, even with the right code after", async () => {
    const world = makeTestWorld();
    const parent = aParent();
    const { secret } = await withApp(world, parent);
    for (let i = 0; i < 5; i++) await world.exit(signIn({ email: parent.email, password: parent.password, code: String(100000 + i) }));
    const locked = failureOf(await world.exit(signIn({ email: parent.email, password: parent.password, code: testAppCode(secret, world.clock.now(), 1) })));
    expect(locked).toBeInstanceOf(RateLimited);
    // The delay answers alike with a wrong password: the lock says nothing about the password either.
    const lockedWrong = failureOf(await world.exit(signIn({ email: parent.email, password: "Wrong#Pass-93", code: "000000" })));
    expect(lockedWrong).toBeInstanceOf(RateLimited);
    world.clock.advance(3);
    await world.run(signIn({ email: parent.email, password: parent.password, code: testAppCode(secret, world.clock.now(), 1) }));
  });

  it("a physician's session reaches nothing but setting up until the second factor is set up", async () => {
    const world = makeTestWorld();
    const doctor = aPhysician();
    const { token, user } = await signedIn(world, doctor);
    // The onboarding order: before the BAA the refusal names the BAA; after it, the second factor.
    const unsigned = failureOf(await world.exit(admitCaller(await world.run(authenticate(token)), { duringSetup: false })));
    expect((unsigned as Forbidden).status).toBe("BaaRequired");
    world.users.set(user.id, { ...world.users.get(user.id)!, baaSignedAt: world.clock.now() });
    const caller = await world.run(authenticate(token));
    const refused = failureOf(await world.exit(admitCaller(caller, { duringSetup: false })));
    expect((refused as Forbidden).status).toBe(SECOND_FACTOR_SETUP_STATUS);
    await world.run(admitCaller(caller, { duringSetup: true }));

    const { secret } = await world.runAs(caller, startAuthenticatorApp);
    await world.runAs(caller, confirmAuthenticatorApp({ code: testAppCode(secret, world.clock.now()) }));
    // Setting up proves this session's second step; a session opened before it ends.
    const proved = await world.run(authenticate(token));
    await world.run(admitCaller(proved, { duringSetup: false }));
    // And the factor cannot be turned off: staff must keep it.
    expect(failureOf(await world.exitAs(proved, turnOffSecondFactor))).toBeInstanceOf(Forbidden);
  });

  it("an admin's reset ends the factor and every session, and tells the user in their language", async () => {
    const world = makeTestWorld();
    const parent = aParent();
    const { token } = await withApp(world, parent);
    const admin = await anAccount(world, "admin", "ada");
    const user = world.userByEmail(parent.email)!;
    world.users.set(user.id, { ...world.users.get(user.id)!, language: "es" });
    await world.runAs(callerIn(world, admin.id), resetSecondFactor({ identifier: user.id }));
    expect(failureOf(await world.exit(authenticate(token)))).toBeInstanceOf(Unauthenticated);
    expect(world.userByEmail(parent.email)!.secondFactorAt).toBeNull();
    expect(world.secondFactors.totp.size + world.secondFactors.recovery.size).toBe(0);
    expect(world.lastMailTo(parent.email)?.subject).toContain("dos pasos");
    expect(world.audit.some((e) => e.action === "account.second_factor_reset" && e.subjectId === user.id && e.actorId === admin.id)).toBe(true);
    // The password alone signs in again: no second step is left to bypass, and none was skipped.
    await signInAs(world, parent);
  });

  it("setting up needs a proof under ten minutes old", async () => {
    const world = makeTestWorld();
    const { token } = await signedIn(world, aParent());
    world.clock.advance(10 * MINUTE + 1);
    const caller = await world.run(authenticate(token));
    expect((failureOf(await world.exitAs(caller, startAuthenticatorApp)) as Forbidden).status).toBe("ProofRequired");
  });
});

describe("recovery codes", () => {
  it("are 12 base-32 digits in groups of four, read back whatever the case, dashes or look-alikes", () => {
    const code = newRecoveryCode("AbCdEfGhIjKlMnOp");
    expect(code).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
    expect(normaliseRecoveryCode(code.toUpperCase().replace(/-/g, " "))).toBe(code.replace(/-/g, ""));
    expect(normaliseRecoveryCode("O0IL-1111-0000")).toBe("001111110000".slice(0, 2) + "11" + "11110000");
  });
});

describe("passwords attackers try first", () => {
  it("refuses a listed word however it is dressed up, and keeps a strong one", () => {
    for (const weak of ["Password1!", "P@ssw0rd-1", "Secret#123", "Welcome#2024", "!Summer99", "Dragon_2020"]) expect(isCommonPassword(testCommonPasswords, weak), weak).toBe(true);
    for (const strong of ["Vq8#Rimble-42", "Sunny-day-42", "Zp4$Quillon-7"]) expect(isCommonPassword(testCommonPasswords, strong), strong).toBe(false);
  });

  it("at sign-up and change, with the reason named", async () => {
    const world = makeTestWorld();
    const refused = failureOf(await world.exit(signUp({ ...aParent(), password: "Password1!" })));
    expect((refused as ValidationFailed).errors).toEqual({ password: [MESSAGES.commonPassword] });
    const parent = aParent();
    const { caller } = await signedIn(world, parent);
    const change = failureOf(await world.exitAs(caller, changePassword({ old_password: parent.password, new_password: "Welcome#2024" })));
    expect((change as ValidationFailed).errors).toEqual({ new_password: [MESSAGES.commonPassword] });
  });
});
