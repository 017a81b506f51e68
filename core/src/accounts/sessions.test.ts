import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { Unauthenticated } from "../shared/errors.ts";
import { PASSWORD_RULE_MESSAGE } from "../shared/validation.ts";
import { authenticates, DAY, HOUR, isUnauthenticated, MINUTE, validationOf } from "../testing/account-checks.ts";
import { aParent, aPhysician, makeTestWorld, OTHER_VALID_PASSWORD, signedIn, signInAs, signUpVerified } from "../testing/index.ts";
import { CurrentUser as CurrentUserTag } from "./model.ts";
import { authenticate, changePassword, changeStatus, MESSAGES, signIn, signOut } from "./service.ts";

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
