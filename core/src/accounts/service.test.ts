import { fc, test } from "@fast-check/vitest";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { Forbidden, RateLimited, Unauthenticated, ValidationFailed } from "../shared/errors.ts";
import { PASSWORD_RULE_MESSAGE } from "../shared/validation.ts";
import {
  aParent,
  aPhysician,
  anOther,
  arbBadPhone,
  arbPassword,
  arbSignUp,
  arbSignUpType,
  arbWeakPassword,
  aSignUpOf,
  followVerificationLink,
  lastResetLink,
  lastVerificationLink,
  makeTestWorld,
  OTHER_VALID_PASSWORD,
  sampleBytes,
  signedIn,
  signInAs,
  signUpVerified,
  type TestServices,
  type TestWorld,
} from "../testing/index.ts";
import { CurrentUser as CurrentUserTag } from "./model.ts";
import { delayAfter, SIGN_IN_THROTTLE } from "./sign-in-throttle.ts";
import {
  authenticate,
  changePassword,
  changeStatus,
  LIMITS,
  MESSAGES,
  PROFILE_PHOTO_MAX_BYTES,
  readProfile,
  readProfilePhoto,
  recoverPassword,
  removeProfilePhoto,
  resendVerification,
  resetPassword,
  signIn,
  signOut,
  signUp,
  updateProfile,
  updateProfilePhoto,
  verifyEmail,
} from "./service.ts";

// ---- Helpers ------------------------------------------------------------------------------------

const validationOf = async (world: TestWorld, effect: Effect.Effect<unknown, unknown, TestServices>) => {
  const error = await world.failure(effect);
  expect(error).toBeInstanceOf(ValidationFailed);
  return error as ValidationFailed;
};

const isUnauthenticated = async (world: TestWorld, token: string | null) => {
  const error = await world.failure(authenticate(token));
  expect(error).toBeInstanceOf(Unauthenticated);
  expect((error as Unauthenticated).message).toBe(Unauthenticated.default);
};

const authenticates = async (world: TestWorld, token: string) => {
  const caller = await world.run(authenticate(token));
  expect(caller.session.revokedAt).toBeNull();
  return caller;
};

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

const signUpWith = (overrides: Record<string, unknown>) => {
  const { first_name, last_name, email, password, phone, type } = aParent();
  return { first_name, last_name, email, password, phone, type, ...overrides };
};

// ---- Sign-up ------------------------------------------------------------------------------------

describe("signUp: validation with the spec's messages", () => {
  const required = [
    ["first_name", "First name is required"],
    ["last_name", "Last name is required"],
    ["email", "Email is required"],
    ["password", "Password is required"],
    ["phone", "Mobile number is required"],
  ] as const;

  const without = (field: string) => {
    const payload: Record<string, unknown> = signUpWith({});
    delete payload[field];
    return payload;
  };

  for (const [field, message] of required) {
    it(`answers '${message}' when ${field} is missing, empty or blank`, async () => {
      const world = makeTestWorld();
      for (const payload of [without(field), signUpWith({ [field]: "" }), signUpWith({ [field]: "   " })]) {
        const error = await validationOf(world, signUp(payload));
        expect(error.errors[field]).toEqual([message]);
        expect(error.message).toBe(message);
      }
      expect(world.users.size).toBe(0);
      expect(world.mails).toEqual([]);
    });
  }

  it("answers the required message when email, password or phone is null", async () => {
    const world = makeTestWorld();
    for (const [field, message] of required) {
      const error = await validationOf(world, signUp(signUpWith({ [field]: null })));
      expect(error.errors[field]).toEqual([message]);
    }
  });

  it("answers the required message when a first or last name is null", async () => {
    const world = makeTestWorld();
    for (const [field, message] of required.slice(0, 2)) {
      const error = await validationOf(world, signUp(signUpWith({ [field]: null })));
      expect(error.errors[field]).toEqual([message]);
    }
  });

  it("lists every missing field at once, the first message as `message`", async () => {
    const world = makeTestWorld();
    const error = await validationOf(world, signUp({}));
    for (const [field, message] of required) expect(error.errors[field]).toEqual([message]);
    expect(error.message).toBe("First name is required");
  });

  it("answers 'Email is invalid' for malformed addresses", async () => {
    const world = makeTestWorld();
    for (const email of ["not-an-email", "a@b", "a@b.c", "a b@example.com", "@example.com", "a@@example.com"]) {
      const error = await validationOf(world, signUp(signUpWith({ email })));
      expect(error.errors.email).toEqual(["Email is invalid"]);
    }
  });

  test.prop([arbBadPhone], { numRuns: 40 })("answers 'Mobile number is invalid' for anything but 10 digits", async (phone) => {
    const world = makeTestWorld();
    const error = await validationOf(world, signUp(signUpWith({ phone })));
    expect(error.errors.phone).toEqual(["Mobile number is invalid"]);
  });

  test.prop([arbWeakPassword], { numRuns: 60 })("answers the password rule message for weak passwords", async (password) => {
    const world = makeTestWorld();
    const error = await validationOf(world, signUp(signUpWith({ password })));
    expect(error.errors.password).toEqual([PASSWORD_RULE_MESSAGE]);
    expect(PASSWORD_RULE_MESSAGE).toBe(
      "Password must contain minimum 8 characters with atleast one upper case, one lowercase, one number and one special characters (!@#$%^&*-_)",
    );
  });

  it("rejects a type other than parent, physician or other", async () => {
    const world = makeTestWorld();
    for (const type of ["admin", "reviewer", "physician_staff", "", undefined]) {
      const error = await validationOf(world, signUp(signUpWith({ type })));
      expect(Object.keys(error.errors)).toEqual(["type"]);
    }
  });

  it("answers a duplicate e-mail (in any case, with spaces) with 'The email has already been taken.'", async () => {
    const world = makeTestWorld();
    const first = aParent();
    await world.run(signUp(first));
    const again = aPhysician({ email: `  ${first.email.toUpperCase()} ` });
    const error = await validationOf(world, signUp(again));
    expect(error.errors).toEqual({ email: [MESSAGES.emailTaken] });
    expect(error.message).toBe("The email has already been taken.");
    expect(world.users.size).toBe(1);
    expect(world.mails).toHaveLength(1);
  });

  it("trims every field before storing it", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    await world.run(signUp({ ...payload, first_name: "  Ada  ", last_name: "\tLovelace ", email: `  ${payload.email.toUpperCase()}  `, phone: " 5551234567 " }));
    const user = world.userByEmail(payload.email)!;
    expect(user).toMatchObject({ firstName: "Ada", lastName: "Lovelace", email: payload.email.toLowerCase(), phone: "5551234567" });
  });

  it("is rate limited per address and per account (e-mail, in any case), each answering 429 with a retry time", async () => {
    const world = makeTestWorld();
    for (let i = 0; i < LIMITS.signUpPerAddress.limit; i++) await world.exit(signUp(aParent()));
    const byAddress = await world.failure(signUp(aParent()));
    expect(byAddress).toBeInstanceOf(RateLimited);
    expect((byAddress as RateLimited).retryAfterSeconds).toBeGreaterThan(0);
    // Another address is not limited, but one e-mail tried from many addresses is.
    const target = aParent();
    for (let i = 0; i < LIMITS.signUpPerAccount.limit; i++) {
      world.request.ip = `198.51.100.${i + 1}`;
      await world.exit(signUp({ ...target, email: i % 2 ? target.email.toUpperCase() : target.email }));
    }
    world.request.ip = "198.51.100.200";
    expect(await world.failure(signUp(target))).toBeInstanceOf(RateLimited);
    expect(await world.run(signUp(aParent()))).toMatchObject({ status: "EmailVerificationRequired" });
  });

  test.prop([arbSignUp], { numRuns: 40 })("accepts every valid payload: one unverified user, one verification mail, no password stored", async (payload) => {
    const world = makeTestWorld();
    const result = await world.run(signUp(payload));
    expect(result).toMatchObject({ email: payload.email, type: payload.type, status: "EmailVerificationRequired" });
    const user = world.users.get(result.identifier)!;
    expect(user).toMatchObject({ status: "EmailVerificationRequired", emailVerifiedAt: null, type: payload.type, firstName: payload.first_name });
    expect(user.passwordHash).not.toBe(payload.password);
    expect(world.mails).toHaveLength(1);
    expect(world.mails[0]!.to).toBe(payload.email);
    expect(world.audit.map((a) => a.action)).toEqual(["account.sign_up"]);
  });
});

// ---- E-mail verification ------------------------------------------------------------------------

describe("verifyEmail: the mailed, signed, single-use link", () => {
  it("mails a signed link to the public URL's /verify-email page with id, token, expires and signature", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    const { identifier } = await world.run(signUp(payload));
    const link = lastVerificationLink(world, payload.email);
    expect(link.url.origin + link.url.pathname).toBe("http://localhost:8080/verify-email");
    expect(link.id).toBe(identifier);
    expect(Number(link.expires)).toBe(Math.floor(world.clock.millis() / 1000) + 24 * HOUR);
    expect(world.secrets.verifySignature(`verify-email|${link.id}|${link.token}|${link.expires}`, link.signature)).toBe(true);
    // The token is stored only as its digest.
    const stored = [...world.tokens.values()];
    expect(stored).toHaveLength(1);
    expect(stored[0]!.digest).not.toContain(link.token);
    expect(world.mails[0]!.html).toContain(link.url.href.replace(/&/g, "&amp;"));
  });

  for (const [type, status] of [
    ["parent", "AdditionalInformationRequired"],
    ["physician", "Active"],
    ["other", "WaitingApproval"],
  ] as const) {
    it(`moves a ${type} to ${status}`, async () => {
      const world = makeTestWorld();
      const payload = aSignUpOf(type);
      await world.run(signUp(payload));
      const result = await world.run(followVerificationLink(lastVerificationLink(world, payload.email)));
      expect(result).toEqual({ message: MESSAGES.verified, results: { status, type } });
      expect(world.userByEmail(payload.email)).toMatchObject({ status, emailVerifiedAt: world.clock.now() });
      expect(world.audit.filter((a) => a.action === "account.email_verified")).toHaveLength(1);
    });
  }

  it("works once: a second use changes nothing and never verifies again", async () => {
    const world = makeTestWorld();
    const payload = aPhysician();
    await world.run(signUp(payload));
    const link = lastVerificationLink(world, payload.email);
    expect((await world.run(followVerificationLink(link))).message).toBe(MESSAGES.verified);
    world.clock.advance(MINUTE);
    const again = await world.exit(followVerificationLink(link));
    if (again._tag === "Success") expect(again.value.message).not.toBe(MESSAGES.verified);
    expect(world.userByEmail(payload.email)!.emailVerifiedAt).toEqual(new Date(world.clock.millis() - MINUTE * 1000));
    expect(world.audit.filter((a) => a.action === "account.email_verified")).toHaveLength(1);
  });

  test.prop([arbSignUpType, fc.array(fc.integer({ min: 0, max: 30 * HOUR }), { minLength: 1, maxLength: 8 })], { numRuns: 40 })(
    "any sequence of attempts with the same link verifies at most once, and only before it expires",
    async (type, waits) => {
      const world = makeTestWorld();
      const payload = aSignUpOf(type);
      await world.run(signUp(payload));
      const link = lastVerificationLink(world, payload.email);
      let successes = 0;
      for (const wait of waits) {
        world.clock.advance(wait);
        const exit = await world.exit(followVerificationLink(link));
        const expired = world.clock.millis() >= Number(link.expires) * 1000;
        if (exit._tag === "Success" && exit.value.message === MESSAGES.verified) {
          successes++;
          expect(expired).toBe(false);
        }
        if (exit._tag === "Failure") expect(JSON.stringify(exit.cause)).toContain(MESSAGES.badVerificationLink);
      }
      expect(successes).toBeLessThanOrEqual(1);
      expect(world.audit.filter((a) => a.action === "account.email_verified")).toHaveLength(successes);
      const firstWait = waits[0]!;
      expect(successes).toBe(firstWait < 24 * HOUR ? 1 : 0);
    },
  );

  it("fails for a tampered signature, token, id or expiry", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    const otherPayload = aParent();
    await world.run(signUp(payload));
    const { identifier: otherId } = await world.run(signUp(otherPayload));
    const link = lastVerificationLink(world, payload.email);
    const flip = (s: string) => (s[0] === "a" ? "b" : "a") + s.slice(1);
    const tampered = [
      { ...link, signature: flip(link.signature) },
      { ...link, signature: "" },
      { ...link, token: flip(link.token) },
      { ...link, id: otherId },
      { ...link, expires: String(Number(link.expires) + 3600) },
      { ...link, expires: "soon" },
    ];
    for (const attempt of tampered) {
      const error = await validationOf(world, followVerificationLink(attempt));
      expect(error.errors).toEqual({ token: [MESSAGES.badVerificationLink] });
    }
    expect(world.userByEmail(payload.email)!.status).toBe("EmailVerificationRequired");
    expect(world.userByEmail(otherPayload.email)!.status).toBe("EmailVerificationRequired");
    // The genuine link still works afterwards.
    expect((await world.run(followVerificationLink(link))).message).toBe(MESSAGES.verified);
  });

  it("a link signed for one user and token cannot verify another user even with that user's id re-signed elsewhere", async () => {
    const world = makeTestWorld();
    const a = aParent();
    const b = aParent();
    await world.run(signUp(a));
    await world.run(signUp(b));
    const linkA = lastVerificationLink(world, a.email);
    const linkB = lastVerificationLink(world, b.email);
    // A correctly signed combination of B's id with A's token (as if the signer were fooled) still fails.
    const expires = linkA.expires;
    const forged = { id: linkB.id, token: linkA.token, expires, signature: world.secrets.sign(`verify-email|${linkB.id}|${linkA.token}|${expires}`) };
    await validationOf(world, followVerificationLink(forged));
    // ...and the failed attempt did not burn A's token (the transaction rolled back).
    expect((await world.run(followVerificationLink(linkA))).message).toBe(MESSAGES.verified);
  });

  it("fails once expired (24 hours), works up to then", async () => {
    const world = makeTestWorld();
    const early = aParent();
    const late = aParent();
    await world.run(signUp(early));
    await world.run(signUp(late));
    world.clock.advance(24 * HOUR - 1);
    expect((await world.run(followVerificationLink(lastVerificationLink(world, early.email)))).message).toBe(MESSAGES.verified);
    world.clock.advance(1);
    const error = await validationOf(world, followVerificationLink(lastVerificationLink(world, late.email)));
    expect(error.message).toBe(MESSAGES.badVerificationLink);
  });

  it("a resent link replaces the older one", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    await world.run(signUp(payload));
    const old = lastVerificationLink(world, payload.email);
    world.clock.advance(MINUTE);
    expect(await world.run(resendVerification({ email: payload.email }))).toEqual({ message: MESSAGES.verificationSent });
    const fresh = lastVerificationLink(world, payload.email);
    expect(fresh.token).not.toBe(old.token);
    await validationOf(world, followVerificationLink(old));
    expect((await world.run(followVerificationLink(fresh))).message).toBe(MESSAGES.verified);
  });

  it("answers 'already verified' (no change, no audit) for the used link of a verified account", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    await world.run(signUp(payload));
    const link = lastVerificationLink(world, payload.email);
    await world.run(followVerificationLink(link));
    expect(await world.run(followVerificationLink(link))).toEqual({
      message: MESSAGES.alreadyVerified,
      results: { status: "AdditionalInformationRequired", type: "parent" },
    });
    expect(world.audit.filter((a) => a.action === "account.email_verified")).toHaveLength(1);
  });

  it("a blocked, unverified account cannot verify (409), and the refused attempt does not burn the link", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    const { identifier } = await world.run(signUp(payload));
    await world.run(changeStatus(identifier, { type: "BLOCKED" }, "admin"));
    const link = lastVerificationLink(world, payload.email);
    expect((await world.failure(followVerificationLink(link)))._tag).toBe("Conflict");
    expect(world.users.get(identifier)).toMatchObject({ status: "Blocked", emailVerifiedAt: null });
    // Unblocked, it is back to EmailVerificationRequired and the same link works.
    await world.run(changeStatus(identifier, { type: "UNBLOCKED" }, "admin"));
    expect(world.users.get(identifier)!.status).toBe("EmailVerificationRequired");
    expect((await world.run(followVerificationLink(link))).results.status).toBe("AdditionalInformationRequired");
  });

  it("verifyEmail rejects a query without expires or signature", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    await world.run(signUp(payload));
    const link = lastVerificationLink(world, payload.email);
    await validationOf(world, verifyEmail(link.id, link.token, { signature: link.signature }));
    await validationOf(world, verifyEmail(link.id, link.token, { expires: link.expires }));
  });
});

// ---- Recover / resend reveal nothing --------------------------------------------------------------

describe("recover and resend answer the same for unknown addresses and mail nothing", () => {
  it("resendVerification", async () => {
    const world = makeTestWorld();
    const known = aParent();
    await world.run(signUp(known));
    const mailsBefore = world.mails.length;
    const unknownAnswer = await world.run(resendVerification({ email: "nobody@example.com" }));
    expect(world.mails.length).toBe(mailsBefore);
    const knownAnswer = await world.run(resendVerification({ email: known.email }));
    expect(unknownAnswer).toEqual(knownAnswer);
    expect(world.mails.length).toBe(mailsBefore + 1);
    // A verified account gets the same answer and no mail.
    await world.run(followVerificationLink(lastVerificationLink(world, known.email)));
    const count = world.mails.length;
    expect(await world.run(resendVerification({ email: known.email }))).toEqual(knownAnswer);
    expect(world.mails.length).toBe(count);
  });

  it("recoverPassword", async () => {
    const world = makeTestWorld();
    const known = aParent();
    await signUpVerified(world, known);
    const mailsBefore = world.mails.length;
    const unknownAnswer = await world.run(recoverPassword({ email: "nobody@example.com" }));
    expect(unknownAnswer).toEqual({ message: MESSAGES.resetSent });
    // The same work for an unknown address (an audit row and a queued mail, which carries no link).
    expect(world.mails.length).toBe(mailsBefore + 1);
    expect(world.lastMailTo("nobody@example.com")!.text).not.toContain("reset-password");
    expect(world.tokens.size).toBe(1); // only the (used) verification token
    const audited = world.audit.filter((a) => a.action === "account.password_reset_requested").length;
    expect(await world.run(recoverPassword({ email: known.email }))).toEqual(unknownAnswer);
    expect(world.mails.length).toBe(mailsBefore + 2);
    expect(world.lastMailTo(known.email)!.text).toContain("reset-password");
    expect(world.audit.filter((a) => a.action === "account.password_reset_requested").length).toBe(audited + 1);
  });

  test.prop([fc.emailAddress()], { numRuns: 30 })("for any unknown address the answer is the same and no link is mailed", async (email) => {
    const world = makeTestWorld();
    const recover = await world.exit(recoverPassword({ email }));
    const resend = await world.exit(resendVerification({ email }));
    if (recover._tag === "Success") expect(recover.value).toEqual({ message: MESSAGES.resetSent });
    if (resend._tag === "Success") expect(resend.value).toEqual({ message: MESSAGES.verificationSent });
    expect(world.mails.filter((m) => m.text.includes("reset-password") || m.text.includes("verify-email"))).toEqual([]);
    expect(world.tokens.size).toBe(0);
  });

  it("both are rate limited per address, for known and unknown accounts alike", async () => {
    const world = makeTestWorld();
    const known = aParent();
    await world.run(signUp(known));
    for (const email of [known.email, "nobody@example.com"]) {
      for (let i = 0; i < LIMITS.mailPerAccount.limit; i++) await world.run(recoverPassword({ email }));
      const error = await world.failure(recoverPassword({ email }));
      expect(error).toBeInstanceOf(RateLimited);
    }
  });
});

// ---- Sign-in ------------------------------------------------------------------------------------

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

describe("authenticate: unknown, expired, idle and revoked tokens", () => {
  it("fails with Unauthenticated for a missing or unknown token", async () => {
    const world = makeTestWorld();
    await signedIn(world, aParent());
    for (const token of [null, "", "not-a-token", "s00000001_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"]) await isUnauthenticated(world, token);
  });

  it("physicians: 30 minutes idle, 12 hours absolute", async () => {
    const world = makeTestWorld();
    const { token } = await signedIn(world, aPhysician());
    // Active use keeps the session alive up to the absolute limit.
    for (let elapsed = 0; elapsed < 12 * HOUR - 20 * MINUTE; elapsed += 20 * MINUTE) {
      world.clock.advance(20 * MINUTE);
      await authenticates(world, token);
    }
    world.clock.advance(20 * MINUTE);
    await isUnauthenticated(world, token);

    const second = aPhysician();
    await signUpVerified(world, second);
    const idle = (await signInAs(world, second)).token;
    world.clock.advance(30 * MINUTE);
    await authenticates(world, idle);
    world.clock.advance(30 * MINUTE + 1);
    await isUnauthenticated(world, idle);
  });

  it("parents have no idle limit: 12 hours absolute", async () => {
    const world = makeTestWorld();
    const { token } = await signedIn(world, aParent());
    world.clock.advance(12 * HOUR - 1);
    await authenticates(world, token);
    world.clock.advance(1);
    await isUnauthenticated(world, token);
  });

  it("remember_me gives parents 30 days", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    const { token, caller } = await signedIn(world, payload, { rememberMe: true });
    expect(caller.session.idleTimeoutSeconds).toBeNull();
    expect(caller.session.expiresAt.getTime() - caller.session.createdAt.getTime()).toBe(30 * DAY * 1000);
    world.clock.advance(30 * DAY - 1);
    await authenticates(world, token);
    world.clock.advance(1);
    await isUnauthenticated(world, token);
  });

  it("remember_me does not lengthen practice sessions", async () => {
    const world = makeTestWorld();
    const { token } = await signedIn(world, aPhysician(), { rememberMe: true });
    world.clock.advance(31 * MINUTE);
    await isUnauthenticated(world, token);
  });

  it("a revoked session (signed out) fails", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    const { token, caller } = await signedIn(world, payload);
    const other = await signInAs(world, payload);
    expect(await world.runAs(caller, signOut)).toEqual({ message: MESSAGES.signedOut });
    await isUnauthenticated(world, token);
    // Only that session is revoked.
    await authenticates(world, other.token);
    expect(world.audit.filter((a) => a.action === "account.sign_out")).toMatchObject([{ actorId: caller.user.id, subjectId: caller.user.id }]);
  });

  it("blocking an account revokes its sessions", async () => {
    const world = makeTestWorld();
    const { token, user } = await signedIn(world, aPhysician());
    await world.run(changeStatus(user.id, { type: "BLOCKED" }, null));
    await isUnauthenticated(world, token);
    await world.run(changeStatus(user.id, { type: "UNBLOCKED" }, null));
    await isUnauthenticated(world, token);
  });
});


// ---- Passwords ----------------------------------------------------------------------------------

describe("changePassword", () => {
  it("revokes the other sessions but keeps the current one; the new password works and the old one not", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    const current = await signedIn(world, payload);
    const other = await signInAs(world, payload);
    const result = await world.runAs(current.caller, changePassword({ old_password: payload.password, new_password: OTHER_VALID_PASSWORD }));
    expect(result).toEqual({ message: "Password changed successfully" });
    await authenticates(world, current.token);
    await isUnauthenticated(world, other.token);
    await validationOf(world, signIn({ email: payload.email, password: payload.password }));
    await signInAs(world, { email: payload.email, password: OTHER_VALID_PASSWORD });
    expect(world.lastMailTo(payload.email)!.subject).toBe("Your Crown password was changed");
    expect(world.audit.filter((a) => a.action === "account.password_changed")).toHaveLength(1);
  });

  it("rejects a wrong old password (and audits it), a same new password, and a weak new password", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    const { caller } = await signedIn(world, payload);
    const wrong = await validationOf(world, Effect.provideService(changePassword({ old_password: "Nope#1234", new_password: OTHER_VALID_PASSWORD }), CurrentUserTag, caller));
    expect(wrong.errors).toEqual({ old_password: [MESSAGES.wrongOldPassword] });
    expect(world.audit.filter((a) => a.action === "account.password_change_failed")).toHaveLength(1);
    const same = await validationOf(world, Effect.provideService(changePassword({ old_password: payload.password, new_password: payload.password }), CurrentUserTag, caller));
    expect(same.errors).toEqual({ new_password: [MESSAGES.samePassword] });
    const weak = await validationOf(world, Effect.provideService(changePassword({ old_password: payload.password, new_password: "weak" }), CurrentUserTag, caller));
    expect(weak.errors).toEqual({ new_password: [PASSWORD_RULE_MESSAGE] });
    const missing = await validationOf(world, Effect.provideService(changePassword({ new_password: OTHER_VALID_PASSWORD }), CurrentUserTag, caller));
    expect(missing.errors).toEqual({ old_password: ["Old password is required"] });
    expect(world.users.get(caller.user.id)!.passwordHash).toBe(caller.user.passwordHash);
  });
});

describe("recoverPassword and resetPassword", () => {
  it("mails a reset link that works once, revokes every session, and lets the new password in", async () => {
    const world = makeTestWorld();
    const payload = aPhysician();
    const first = await signedIn(world, payload);
    const second = await signInAs(world, payload);
    await world.run(recoverPassword({ email: payload.email }));
    const link = lastResetLink(world, payload.email);
    expect(link.url.origin + link.url.pathname).toBe("http://localhost:8080/reset-password");
    expect(link.email).toBe(payload.email);
    expect(world.lastMailTo(payload.email)!.text).toContain("60 minutes");

    expect(await world.run(resetPassword({ token: link.token, password: OTHER_VALID_PASSWORD }))).toEqual({ message: MESSAGES.passwordChanged });
    await isUnauthenticated(world, first.token);
    await isUnauthenticated(world, second.token);
    await signInAs(world, { email: payload.email, password: OTHER_VALID_PASSWORD });
    await validationOf(world, signIn({ email: payload.email, password: payload.password }));

    const again = await validationOf(world, resetPassword({ token: link.token, password: "Third#7890" }));
    expect(again.errors).toEqual({ token: [MESSAGES.badResetLink] });
    expect(world.audit.map((a) => a.action)).toEqual(expect.arrayContaining(["account.password_reset_requested", "account.password_reset"]));
  });

  it("expires after 60 minutes", async () => {
    const world = makeTestWorld();
    const a = aParent();
    const b = aParent();
    await signUpVerified(world, a);
    await signUpVerified(world, b);
    await world.run(recoverPassword({ email: a.email }));
    await world.run(recoverPassword({ email: b.email }));
    world.clock.advance(60 * MINUTE - 1);
    await world.run(resetPassword({ token: lastResetLink(world, a.email).token, password: OTHER_VALID_PASSWORD }));
    world.clock.advance(1);
    const error = await validationOf(world, resetPassword({ token: lastResetLink(world, b.email).token, password: OTHER_VALID_PASSWORD }));
    expect(error.message).toBe(MESSAGES.badResetLink);
    await signInAs(world, b);
  });

  it("a newer link replaces the older one, and a failed reset (weak password) does not burn the link", async () => {
    const world = makeTestWorld();
    const payload = aParent();
    await signUpVerified(world, payload);
    await world.run(recoverPassword({ email: payload.email }));
    const old = lastResetLink(world, payload.email);
    await world.run(recoverPassword({ email: payload.email }));
    const fresh = lastResetLink(world, payload.email);
    await validationOf(world, resetPassword({ token: old.token, password: OTHER_VALID_PASSWORD }));
    const weak = await validationOf(world, resetPassword({ token: fresh.token, password: "weak" }));
    expect(weak.errors).toEqual({ password: [PASSWORD_RULE_MESSAGE] });
    await world.run(resetPassword({ token: fresh.token, password: OTHER_VALID_PASSWORD }));
  });

  test.prop([fc.array(fc.integer({ min: 0, max: 90 * MINUTE }), { minLength: 1, maxLength: 6 })], { numRuns: 30 })(
    "any sequence of attempts with the same reset link succeeds at most once",
    async (waits) => {
      const world = makeTestWorld();
      const payload = aParent();
      await signUpVerified(world, payload);
      await world.run(recoverPassword({ email: payload.email }));
      const { token } = lastResetLink(world, payload.email);
      let successes = 0;
      for (const [i, wait] of waits.entries()) {
        world.clock.advance(wait);
        const exit = await world.exit(resetPassword({ token, password: `New#pass${i}` }));
        if (exit._tag === "Success") successes++;
      }
      expect(successes).toBe(waits[0]! < 60 * MINUTE ? 1 : 0);
    },
  );

  it("mails a blocked account no reset link (only the no-reset notice an unknown address gets)", async () => {
    const world = makeTestWorld();
    const payload = aPhysician();
    const user = await signUpVerified(world, payload);
    await world.run(changeStatus(user.id, { type: "BLOCKED" }, null));
    const count = world.mails.length;
    expect(await world.run(recoverPassword({ email: payload.email }))).toEqual({ message: MESSAGES.resetSent });
    expect(world.mails.length).toBe(count + 1);
    expect(world.lastMailTo(payload.email)!.text).not.toContain("reset-password");
  });
});

// ---- Profile ------------------------------------------------------------------------------------

describe("profile", () => {
  it("reads the caller's profile (fax only for physicians) and audits the read", async () => {
    const world = makeTestWorld();
    const parent = await signedIn(world, aParent());
    const physician = await signedIn(world, aPhysician());
    const p = await world.runAs(parent.caller, readProfile);
    expect(p).toMatchObject({ identifier: parent.user.id, email: parent.user.email, type: "parent", photo: null });
    expect(p).not.toHaveProperty("fax_number");
    const d = await world.runAs(physician.caller, readProfile);
    expect(d).toHaveProperty("fax_number", null);
    expect(world.audit.filter((a) => a.action === "profile.read").map((a) => a.subjectId)).toEqual([parent.user.id, physician.user.id]);
  });

  it("updates names and phone, never the e-mail, and stores a fax number only for physicians", async () => {
    const world = makeTestWorld();
    const parent = await signedIn(world, aParent());
    const physician = await signedIn(world, aPhysician());
    const change = { first_name: " New ", last_name: "Name", phone: "5550000000", fax_number: "+1 (555) 123-4567", email: "hijack@example.com" };
    const messageless = await world.runAs(parent.caller, updateProfile(change));
    expect(messageless.email).toBe(parent.user.email);
    expect(world.users.get(parent.user.id)).toMatchObject({ firstName: "New", lastName: "Name", phone: "5550000000", faxNumber: null, email: parent.user.email });
    await world.runAs(physician.caller, updateProfile(change));
    expect(world.users.get(physician.user.id)).toMatchObject({ firstName: "New", faxNumber: "+1 (555) 123-4567", email: physician.user.email });
    expect(world.userByEmail("hijack@example.com")).toBeUndefined();
    // An empty fax clears it.
    await world.runAs(physician.caller, updateProfile({ ...change, fax_number: "" }));
    expect(world.users.get(physician.user.id)!.faxNumber).toBeNull();
    expect(world.audit.filter((a) => a.action === "profile.updated")).toHaveLength(3);
  });

  it("validates the profile with the spec's messages", async () => {
    const world = makeTestWorld();
    const { caller } = await signedIn(world, aPhysician());
    const error = await validationOf(
      world,
      Effect.provideService(updateProfile({ first_name: "", last_name: "X", phone: "12", fax_number: "call me" }), CurrentUserTag, caller),
    );
    expect(error.errors).toEqual({ first_name: ["First name is required"], phone: ["Mobile number is invalid"], fax_number: ["Fax number is invalid"] });
  });

  it("accepts PNG and JPEG photos by their bytes, and nothing else", async () => {
    const world = makeTestWorld();
    const { caller, token } = await signedIn(world, aParent());
    for (const [bytes, mime] of [
      [sampleBytes.png(), "image/png"],
      [sampleBytes.jpeg(), "image/jpeg"],
    ] as const) {
      const now = await world.run(authenticate(token));
      const updated = await world.runAs(now, updateProfilePhoto(bytes));
      expect(updated.photoType).toBe(mime);
      expect(world.blobs.get(updated.photoKey!)!.contentType).toBe(mime);
    }
    // The replaced photo is gone: only the latest remains.
    expect(world.blobs.size).toBe(1);
    for (const bytes of [sampleBytes.gif(), sampleBytes.mp4(), sampleBytes.mov(), sampleBytes.text()]) {
      const exit = await world.exitAs(caller, updateProfilePhoto(bytes));
      expect(JSON.stringify(exit)).toContain(MESSAGES.photoType);
    }
    for (const bytes of [null, new Uint8Array(0)]) {
      expect(JSON.stringify(await world.exitAs(caller, updateProfilePhoto(bytes)))).toContain(MESSAGES.photoMissing);
    }
    expect(JSON.stringify(await world.exitAs(caller, updateProfilePhoto(sampleBytes.png(PROFILE_PHOTO_MAX_BYTES + 1))))).toContain("at most 5 MB");
    expect(world.blobs.size).toBe(1);
  });

  it("serves and removes the photo", async () => {
    const world = makeTestWorld();
    const { token } = await signedIn(world, aParent());
    const caller = await world.run(authenticate(token));
    await world.runAs(caller, updateProfilePhoto(sampleBytes.png(100)));
    const fresh = await world.run(authenticate(token));
    const blob = await world.runAs(fresh, readProfilePhoto);
    expect(blob).toMatchObject({ contentType: "image/png", size: 100 });
    expect((await world.runAs(fresh, readProfile)).photo).toMatch(/^\/api\/v1\/en\/user\/profile-photo\?v=/);
    await world.runAs(fresh, removeProfilePhoto);
    expect(world.blobs.size).toBe(0);
    const after = await world.run(authenticate(token));
    expect(JSON.stringify(await world.exitAs(after, readProfilePhoto))).toContain("Profile photo not found");
    expect(world.audit.map((a) => a.action)).toEqual(expect.arrayContaining(["profile.photo_updated", "profile.photo_removed"]));
  });
});

// ---- Audit and secrecy ----------------------------------------------------------------------------

describe("audit trail and secrecy", () => {
  it("records sign-in success and failure, sign-out, password changes, profile reads and changes, with the address and time", async () => {
    const world = makeTestWorld();
    const payload = aPhysician();
    await signUpVerified(world, payload);
    await validationOf(world, signIn({ email: payload.email, password: "Wrong#123" }));
    const { caller } = await signInAs(world, payload);
    await world.runAs(caller, readProfile);
    await world.runAs(caller, updateProfile({ first_name: "A", last_name: "B", phone: "5551112222" }));
    await world.runAs(caller, changePassword({ old_password: payload.password, new_password: OTHER_VALID_PASSWORD }));
    await world.runAs(caller, signOut);
    const actions = world.audit.map((a) => a.action);
    expect(actions).toEqual([
      "account.sign_up",
      "account.email_verified",
      "account.sign_in_failed",
      "account.sign_in",
      "profile.read",
      "profile.updated",
      "account.password_changed",
      "account.sign_out",
    ]);
    for (const entry of world.audit) {
      expect(entry.ip).toBe("203.0.113.7");
      expect(entry.at).toEqual(world.clock.now());
    }
    expect(world.audit.find((a) => a.action === "account.sign_in_failed")).toMatchObject({ actorId: caller.user.id, details: { email: payload.email } });
  });

  test.prop([arbSignUp, arbPassword, arbPassword], { numRuns: 25 })(
    "no audit entry and no mail ever contains a password",
    async (payload, wrong, next) => {
      fc.pre(wrong !== payload.password && next !== payload.password && next !== wrong);
      const world = makeTestWorld();
      await world.run(signUp(payload));
      await world.run(resendVerification({ email: payload.email }));
      await world.exit(signIn({ email: payload.email, password: wrong }));
      await world.run(followVerificationLink(lastVerificationLink(world, payload.email)));
      await world.exit(signIn({ email: payload.email, password: wrong }));
      const { caller } = await signInAs(world, payload);
      await world.exitAs(caller, changePassword({ old_password: wrong, new_password: next }));
      await world.runAs(caller, changePassword({ old_password: payload.password, new_password: next }));
      await world.run(recoverPassword({ email: payload.email }));
      await world.run(resetPassword({ token: lastResetLink(world, payload.email).token, password: wrong }));
      await world.exit(signIn({ email: "unknown@example.com", password: next }));

      const written = [JSON.stringify(world.audit), ...world.mails.flatMap((m) => [m.subject, m.text, m.html])];
      for (const password of [payload.password, wrong, next]) {
        for (const text of written) expect(text).not.toContain(password);
      }
      // ...nor a hash of one.
      for (const text of written) expect(text).not.toContain("hash:");
    },
  );
});
