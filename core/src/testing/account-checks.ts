import type { Effect } from "effect";
import { expect } from "vitest";
import { authenticate } from "../accounts/authenticate.ts";
import { Unauthenticated, ValidationFailed } from "../shared/errors.ts";
import type { TestServices, TestWorld } from "./memory.ts";
import { aParent } from "./mothers.ts";

/** Checks shared by the accounts use-case tests. */


export const validationOf = async (world: TestWorld, effect: Effect.Effect<unknown, unknown, TestServices>) => {
  const error = await world.failure(effect);
  expect(error).toBeInstanceOf(ValidationFailed);
  return error as ValidationFailed;
};

export const isUnauthenticated = async (world: TestWorld, token: string | null) => {
  const error = await world.failure(authenticate(token));
  expect(error).toBeInstanceOf(Unauthenticated);
  expect((error as Unauthenticated).message).toBe(Unauthenticated.default);
};

export const authenticates = async (world: TestWorld, token: string) => {
  const caller = await world.run(authenticate(token));
  expect(caller.session.revokedAt).toBeNull();
  return caller;
};

export const MINUTE = 60;
export const HOUR = 3600;
export const DAY = 86_400;

export const signUpWith = (overrides: Record<string, unknown>) => {
  const { first_name, last_name, email, password, phone, type } = aParent();
  return { first_name, last_name, email, password, phone, type, ...overrides };
};

// ---- Sign-up ------------------------------------------------------------------------------------
