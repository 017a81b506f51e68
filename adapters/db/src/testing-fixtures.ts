import type { OneTimeToken, Session, User } from "@crown/core";
import { randomBytes } from "node:crypto";

/** Test-data builders for the accounts tables (object mothers): valid by default, override what matters. */

let sequence = 0;
/** A unique, sortable, ULID-shaped identifier for tests. */
export const testId = (): string => `01TEST${String(++sequence).padStart(8, "0")}${randomBytes(6).toString("hex").toUpperCase()}`.slice(0, 26);

/** Whole milliseconds, as PostgreSQL keeps microseconds and JavaScript milliseconds. */
export const at = (iso: string): Date => new Date(iso);

export const aUser = (overrides: Partial<User> = {}): User => {
  const id = overrides.id ?? testId();
  return {
    id,
    email: `user-${id.toLowerCase()}@example.com`,
    passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
    type: "parent",
    status: "Active",
    firstName: "Ada",
    lastName: "Lovelace",
    phone: "+1 555 0100",
    faxNumber: null,
    emailVerifiedAt: at("2026-11-01T10:00:00.000Z"),
    passwordChangedAt: at("2026-11-01T09:00:00.000Z"),
    photoKey: null,
    photoType: null,
    disclaimerAcceptedAt: null,
    baaSignedAt: null,
    quizPassedAt: null,
    npi: null,
    // A physician of the fixtures has a verified practice, as every physician before ADR 25.
    practiceVerifiedAt: (overrides.type ?? "parent") === "physician" ? at("2026-11-01T09:30:00.000Z") : null,
    language: "en",
    secondFactorAt: null,
    createdAt: at("2026-11-01T09:00:00.000Z"),
    ...overrides,
  };
};

export const aSession = (userId: string, overrides: Partial<Session> = {}): Session => ({
  id: testId(),
  userId,
  tokenDigest: randomBytes(32).toString("hex"),
  createdAt: at("2026-11-22T08:00:00.000Z"),
  lastSeenAt: at("2026-11-22T08:00:00.000Z"),
  expiresAt: at("2026-11-22T20:00:00.000Z"),
  idleTimeoutSeconds: 1800,
  revokedAt: null,
  deviceType: "web",
  lastProofAt: new Date(0),
  secondFactorAt: null,
  ...overrides,
});

export const aToken = (userId: string, overrides: Partial<OneTimeToken> = {}): OneTimeToken => ({
  id: testId(),
  userId,
  purpose: "password_reset",
  digest: randomBytes(32).toString("hex"),
  expiresAt: at("2026-11-22T09:00:00.000Z"),
  consumedAt: null,
  createdAt: at("2026-11-22T08:00:00.000Z"),
  ...overrides,
});
