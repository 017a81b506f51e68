import { describe, expect, it } from "vitest";
import { Forbidden, RateLimited, ValidationFailed } from "../shared/errors.ts";
import { authenticates, DAY, validationOf } from "../testing/account-checks.ts";
import { aParent, aPhysician, anOther, lastResetLink, makeTestWorld, OTHER_VALID_PASSWORD, signInAs, signUpVerified } from "../testing/index.ts";
import { delayAfter, SIGN_IN_THROTTLE } from "./sign-in-throttle.ts";
import { authenticate, changeStatus, LIMITS, MESSAGES, recoverPassword, resetPassword, signIn, signUp } from "./service.ts";

describe("signIn: the statuses and failures", () => {
  it("opens a session for a verified account; the token is stored only as a digest", async () => {
    const world = makeTestWorld();
    const payload = aPhysician();
    await signUpVerified(world, payload);
    const { token, user } = await world.run(signIn({ email: payload.email, password: payload.password }));
    expect(user.email).toBe(payload.email);
    const sessions = [...world.sessions.values()];
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.tokenDigest).not.toContain(token);
    expect(sessions[0]!.deviceType).toBe("web");
    expect((await authenticates(world, token)).user.id).toBe(user.id);
  });

  it("commits a sign-in's writes together: the failures cleared, the session and its audit row; a failure's counters with its audit row (ADR 0105)", async () => {
    const world = makeTestWorld();
    const payload = aPhysician();
    await signUpVerified(world, payload);
    const before = world.transactions.committed;
    await world.failure(signIn({ email: payload.email, password: `${payload.password}-wrong` }));
    expect(world.transactions.committed).toBe(before + 1);
    expect(world.audit.at(-1)?.action).toBe("account.sign_in_failed");
    await world.run(signIn({ email: payload.email, password: payload.password }));
    expect(world.transactions).toEqual({ committed: before + 2, rolledBack: 0 });
    expect(world.audit.at(-1)?.action).toBe("account.sign_in");
    expect(world.sessions.size).toBe(1);
  });

  it("lets AdditionalInformationRequired and WaitingApproval accounts sign in (the client routes them)", async () => {
    const world = makeTestWorld();
    for (const payload of [aParent(), anOther()]) {
      await signUpVerified(world, payload);
      const { caller } = await signInAs(world, payload);
      expect(["AdditionalInformationRequired", "WaitingApproval"]).toContain(caller.user.status);
    }
  });

  it("answers 403 EmailVerificationRequired for an unverified account", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    await world.run(signUp(payload));
    const error = await world.failure(signIn({ email: payload.email, password: payload.password }));
    expect(error).toEqual(new Forbidden({ message: MESSAGES.emailNotVerified, status: "EmailVerificationRequired" }));
    expect(world.sessions.size).toBe(0);
  });

  it("answers 403 Blocked for a blocked account", async () => {
    const world = makeTestWorld();
    const payload = aPhysician();
    const user = await signUpVerified(world, payload);
    await world.run(changeStatus(user.id, { type: "BLOCKED" }, null));
    const error = await world.failure(signIn({ email: payload.email, password: payload.password }));
    expect(error).toEqual(new Forbidden({ message: MESSAGES.blocked, status: "Blocked" }));
  });

  it("answers 403 PasswordExpired once the password is older than the configured age, until it is reset", async () => {
    const world = makeTestWorld();
    const payload = aPhysician();
    await signUpVerified(world, payload);
    world.clock.advance(365 * DAY);
    await signInAs(world, payload);
    world.clock.advance(DAY);
    const error = await world.failure(signIn({ email: payload.email, password: payload.password }));
    expect(error).toEqual(new Forbidden({ message: MESSAGES.passwordExpired, status: "PasswordExpired" }));
    // The way out is the reset link.
    await world.run(recoverPassword({ email: payload.email }));
    await world.run(resetPassword({ token: lastResetLink(world, payload.email).token, password: OTHER_VALID_PASSWORD }));
    await signInAs(world, { email: payload.email, password: OTHER_VALID_PASSWORD });
  });

  it("never expires passwords when the maximum age is 0", async () => {
    const world = makeTestWorld({ settings: { passwordMaxAgeDays: 0 } });
    const payload = aPhysician();
    await signUpVerified(world, payload);
    world.clock.advance(5000 * DAY);
    await signInAs(world, payload);
  });

  it("answers 422 with one message for a wrong password and for an unknown address", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    await signUpVerified(world, payload);
    const wrong = await validationOf(world, signIn({ email: payload.email, password: OTHER_VALID_PASSWORD }));
    const unknown = await validationOf(world, signIn({ email: "nobody@example.com", password: OTHER_VALID_PASSWORD }));
    expect(wrong).toEqual(unknown);
    expect(wrong.errors).toEqual({ email: [MESSAGES.badCredentials] });
  });

  it("on sign-in only the required check applies to the password", async () => {
    const world = makeTestWorld();
    const missing = await validationOf(world, signIn({ email: "a@example.com" }));
    expect(missing.errors).toEqual({ password: ["Password is required"] });
    const weak = await validationOf(world, signIn({ email: "a@example.com", password: "x" }));
    expect(weak.errors).toEqual({ email: [MESSAGES.badCredentials] });
  });

  it("slows failed sign-ins down with growing delays (429 with the wait) instead of locking the account", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    await signUpVerified(world, payload);
    const free = SIGN_IN_THROTTLE.freePerAccountAndAddress;
    for (let i = 0; i < free; i++) await validationOf(world, signIn({ email: payload.email, password: `Wrong#${i}aaa` }));
    // Past the free attempts every try waits, the right password too, and the wait doubles.
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const limited = await world.failure(signIn({ email: payload.email, password: payload.password }));
      expect(limited).toBeInstanceOf(RateLimited);
      expect((limited as RateLimited).message).toBe(MESSAGES.tooManyAttempts);
      waits.push((limited as RateLimited).retryAfterSeconds);
      world.clock.advance((limited as RateLimited).retryAfterSeconds);
      if (i < 2) await validationOf(world, signIn({ email: payload.email, password: "Wrong#againaaa" }));
    }
    expect(waits).toEqual([delayAfter(free, free), delayAfter(free + 1, free), delayAfter(free + 2, free)]);
    expect(waits[1]).toBe(2 * waits[0]!);
    // After the wait, the right password signs in.
    await signInAs(world, payload);
  });

  it("a guesser at another address does not hold the owner up until the account-wide count is reached", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    await signUpVerified(world, payload);
    world.request.ip = "203.0.113.9";
    for (let i = 0; i < SIGN_IN_THROTTLE.freePerAccountAndAddress; i++) await validationOf(world, signIn({ email: payload.email, password: "Wrong#1aaa" }));
    expect(await world.failure(signIn({ email: payload.email, password: "Wrong#1aaa" }))).toBeInstanceOf(RateLimited);
    world.request.ip = "198.51.100.7";
    await signInAs(world, payload);
  });

  it("a password reset through the e-mailed link lets the owner in at once, whatever the failures", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    await signUpVerified(world, payload);
    // Guessers everywhere: past the account-wide free attempts.
    for (let i = 0; i < SIGN_IN_THROTTLE.freePerAccount; i++) {
      world.request.ip = `203.0.113.${i + 1}`;
      await validationOf(world, signIn({ email: payload.email, password: "Wrong#1aaa" }));
    }
    world.request.ip = "198.51.100.7";
    expect(await world.failure(signIn({ email: payload.email, password: payload.password }))).toBeInstanceOf(RateLimited);
    await world.run(recoverPassword({ email: payload.email }));
    world.clock.advance(1);
    await world.run(resetPassword({ token: lastResetLink(world, payload.email).token, password: OTHER_VALID_PASSWORD }));
    await signInAs(world, { email: payload.email, password: OTHER_VALID_PASSWORD });
  });

  it("a success resets the failure count", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    await signUpVerified(world, payload);
    const free = SIGN_IN_THROTTLE.freePerAccountAndAddress;
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < free - 1; i++) await validationOf(world, signIn({ email: payload.email, password: "Wrong#1aaa" }));
      await signInAs(world, payload);
    }
  });

  it("limits attempts per client address", async () => {
    const world = makeTestWorld();
    const { limit } = LIMITS.signInPerAddress;
    for (let i = 0; i < limit; i++) await world.exit(signIn({ email: `x${i}@example.com`, password: "Wrong#1aaa" }));
    expect(await world.failure(signIn({ email: "y@example.com", password: "Wrong#1aaa" }))).toBeInstanceOf(RateLimited);
    world.request.ip = "198.51.100.1";
    expect(await world.failure(signIn({ email: "y@example.com", password: "Wrong#1aaa" }))).toBeInstanceOf(ValidationFailed);
  });
});

// ---- authenticate --------------------------------------------------------------------------------
