import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { RateLimited } from "../shared/errors.ts";
import { HOUR, MINUTE, validationOf } from "../testing/account-checks.ts";
import { aParent, aPhysician, arbSignUpType, aSignUpOf, followVerificationLink, lastVerificationLink, makeTestWorld, signUpVerified } from "../testing/index.ts";
import { changeStatus, LIMITS, MESSAGES, recoverPassword, resendVerification, signUp, verifyEmail } from "./service.ts";

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
