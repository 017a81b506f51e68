import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { validationOf } from "../testing/account-checks.ts";
import { aPhysician, arbPassword, arbSignUp, followVerificationLink, lastResetLink, lastVerificationLink, makeTestWorld, OTHER_VALID_PASSWORD, signInAs, signUpVerified } from "../testing/index.ts";
import { changePassword, readProfile, recoverPassword, resendVerification, resetPassword, signIn, signOut, signUp, updateProfile } from "./service.ts";

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
