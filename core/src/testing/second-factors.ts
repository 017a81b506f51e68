import { Effect, Option } from "effect";
import type { CommonPasswordsPort } from "../accounts/common-passwords.ts";
import type {
  AuthenticatorCodesPort,
  Ceremony,
  Passkey,
  SecondFactorsPort,
  SecretBoxPort,
  TotpFactor,
  WebAuthnPort,
} from "../accounts/second-factor-model.ts";

/** In-memory two-step sign-in for core's tests; the real app codes, sealing and WebAuthn are the adapters' (tested there). */

export const makeMemorySecondFactors = () => {
  const totp = new Map<string, TotpFactor>();
  const recovery = new Map<string, { userId: string; digest: string; usedAt: Date | null }>();
  const passkeys = new Map<string, Passkey>();
  const ceremonies = new Map<string, Ceremony & { consumedAt: Date | null }>();
  const port: SecondFactorsPort = {
    findTotp: (userId) => Effect.sync(() => Option.fromNullable(totp.get(userId))),
    startTotp: (userId, sealedPending, at) =>
      Effect.sync(() => {
        const current = totp.get(userId);
        totp.set(userId, { userId, sealedSecret: current?.sealedSecret ?? null, confirmedAt: current?.confirmedAt ?? null, lastStep: current?.lastStep ?? null, pendingSecret: sealedPending, pendingAt: at });
      }),
    confirmTotp: (userId, at, step) =>
      Effect.sync(() => {
        const current = totp.get(userId);
        if (current?.pendingSecret) totp.set(userId, { userId, sealedSecret: current.pendingSecret, confirmedAt: at, lastStep: step, pendingSecret: null, pendingAt: null });
      }),
    useTotpStep: (userId, step) =>
      Effect.sync(() => {
        const current = totp.get(userId);
        if (!current || (current.lastStep !== null && current.lastStep >= step)) return false;
        totp.set(userId, { ...current, lastStep: step });
        return true;
      }),
    removeTotp: (userId) => Effect.sync(() => void totp.delete(userId)),
    replaceRecoveryCodes: (userId, digests) =>
      Effect.sync(() => {
        for (const [key, code] of recovery) if (code.userId === userId) recovery.delete(key);
        for (const digest of digests) recovery.set(`${userId}:${digest}`, { userId, digest, usedAt: null });
      }),
    spendRecoveryCode: (userId, digest, at) =>
      Effect.sync(() => {
        const code = recovery.get(`${userId}:${digest}`);
        if (!code || code.usedAt !== null) return false;
        code.usedAt = at;
        return true;
      }),
    unusedRecoveryCodes: (userId) => Effect.sync(() => [...recovery.values()].filter((c) => c.userId === userId && c.usedAt === null).length),
    passkeysOf: (userId) => Effect.sync(() => [...passkeys.values()].filter((p) => p.userId === userId)),
    findPasskey: (credentialId) => Effect.sync(() => Option.fromNullable([...passkeys.values()].find((p) => p.credentialId === credentialId))),
    insertPasskey: (passkey) => Effect.sync(() => void passkeys.set(passkey.id, passkey)),
    passkeyUsed: (id, counter, at) =>
      Effect.sync(() => {
        const p = passkeys.get(id);
        if (p) passkeys.set(id, { ...p, counter, lastUsedAt: at });
      }),
    removePasskey: (userId, id) => Effect.sync(() => passkeys.get(id)?.userId === userId && passkeys.delete(id)),
    removeAll: (userId) =>
      Effect.sync(() => {
        totp.delete(userId);
        for (const [key, code] of recovery) if (code.userId === userId) recovery.delete(key);
        for (const [key, p] of passkeys) if (p.userId === userId) passkeys.delete(key);
      }),
    insertCeremony: (ceremony) => Effect.sync(() => void ceremonies.set(ceremony.digest, { ...ceremony, consumedAt: null })),
    consumeCeremony: (digest, purpose, at) =>
      Effect.sync(() => {
        const c = ceremonies.get(digest);
        if (!c || c.purpose !== purpose || c.consumedAt !== null || c.expiresAt.getTime() <= at.getTime()) return Option.none();
        c.consumedAt = at;
        return Option.some(c);
      }),
  };
  return { port, totp, recovery, passkeys };
};

/** Reversible on purpose (tests read it back); the adapter's AES-GCM box is tested in adapters/crypto. */
export const testSecretBox: SecretBoxPort = {
  seal: (plain, context) => `sealed:${context}:${plain}`,
  open: (sealed, context) => (sealed.startsWith(`sealed:${context}:`) ? Option.some(sealed.slice(`sealed:${context}:`.length)) : Option.none()),
};

const stepOf = (at: Date) => Math.floor(at.getTime() / 30_000);
const codeAt = (secret: string, step: number) => {
  let h = 7;
  for (const ch of `${secret}:${step}`) h = (h * 31 + ch.charCodeAt(0)) % 1_000_000;
  return String(h).padStart(6, "0");
};
/** The test app's code at `at`, as the fake below accepts it (a stand-in for an authenticator app). */
export const testAppCode = (secret: string, at: Date, offsetSteps = 0) => codeAt(secret, stepOf(at) + offsetSteps);

export const testAuthenticatorCodes: AuthenticatorCodesPort = {
  newSecret: () => `SECRET${Math.random().toString(36).slice(2, 12).toUpperCase()}`,
  address: (secret, account) => `otpauth://totp/Crown:${encodeURIComponent(account)}?secret=${secret}&issuer=Crown`,
  check: (secret, code, at) =>
    Effect.sync(() => {
      for (const offset of [-1, 0, 1]) if (codeAt(secret, stepOf(at) + offset) === code) return Option.some(stepOf(at) + offset);
      return Option.none();
    }),
};

/** No authenticator in core's tests: every ceremony is refused (passkeys are tested end to end in Chromium). */
export const testWebAuthn: WebAuthnPort = {
  registrationOptions: (input) => Effect.succeed({ challenge: input.challenge }),
  verifyRegistration: () => Effect.succeed(Option.none()),
  authenticationOptions: (input) => Effect.succeed({ challenge: input.challenge }),
  credentialIdOf: () => Option.none(),
  challengeOf: () => Option.none(),
  verifyAuthentication: () => Effect.succeed(Option.none()),
};

/** A few of the passwords attackers try first: enough for core's tests (the real list is the adapter's). */
export const TEST_COMMON_PASSWORDS = ["password", "secret", "welcome", "summer", "qwerty", "letmein", "dragon", "monkey"];
export const testCommonPasswords: CommonPasswordsPort = { listed: (text) => TEST_COMMON_PASSWORDS.includes(text) };
