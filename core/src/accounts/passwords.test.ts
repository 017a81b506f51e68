import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { PASSWORD_RULE_MESSAGE } from "../shared/validation.ts";
import { isUnauthenticated, MINUTE, validationOf } from "../testing/account-checks.ts";
import { aParent, aPhysician, lastResetLink, makeTestWorld, OTHER_VALID_PASSWORD, signedIn, signInAs, signUpVerified } from "../testing/index.ts";
import { changeStatus, MESSAGES, recoverPassword, resetPassword, signIn } from "./service.ts";

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
