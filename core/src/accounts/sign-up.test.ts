import { test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { RateLimited } from "../shared/errors.ts";
import { PASSWORD_RULE_MESSAGE } from "../shared/validation.ts";
import { signUpWith, validationOf } from "../testing/account-checks.ts";
import { aParent, aPhysician, arbBadPhone, arbSignUp, arbWeakPassword, makeTestWorld } from "../testing/index.ts";
import { LIMITS, MESSAGES, signUp } from "./service.ts";

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
