import { Effect, Option, Schema } from "effect";
import { Forbidden, NotFound, ValidationFailed } from "../shared/errors.ts";
import { audit, now, Random, Secrets, transaction } from "../shared/ports.ts";
import { clientAddress, throttle } from "../shared/throttle.ts";
import { validate } from "../shared/validation.ts";
import { AccountsConfig, CurrentUser, normaliseEmail, type User, Users } from "./model.ts";
import { recordProof, requireRecentProof } from "./recent-proof.ts";
import { SECOND_FACTOR_MESSAGES } from "./second-factor-messages.ts";
import { CEREMONY_SECONDS, type CeremonyPurpose, SecondFactors, WebAuthn } from "./second-factor-model.ts";
import { firstFactorAdded, lastFactorGone, refuseIfLast, secondFactorMail } from "./second-factor.ts";
import { send } from "./tokens.ts";

/**
 * Passkeys (issue 44, ADR 147): WebAuthn credentials, platform or roaming. A passkey is both factors
 * at once (something held, unlocked by something known or being), so it signs in alone; it is also a
 * second factor and a fresh proof. Each ceremony's challenge is random, kept as a digest, used once.
 */

const openCeremony = (purpose: CeremonyPurpose, userId: string | null) =>
  Effect.gen(function* () {
    const challenge = (yield* Random).secret(32);
    const at = yield* now;
    yield* (yield* SecondFactors).insertCeremony({
      digest: (yield* Secrets).digest(challenge),
      purpose,
      userId,
      expiresAt: new Date(at.getTime() + CEREMONY_SECONDS * 1000),
    });
    return challenge;
  });

/** The ceremony the response answers, used up now; None when unknown, lapsed, used or of another purpose. */
const closeCeremony = (purpose: CeremonyPurpose, response: unknown) =>
  Effect.gen(function* () {
    const challenge = (yield* WebAuthn).challengeOf(response);
    if (Option.isNone(challenge)) return Option.none();
    const ceremony = yield* (yield* SecondFactors).consumeCeremony((yield* Secrets).digest(challenge.value), purpose, yield* now);
    return Option.map(ceremony, (c) => ({ ...c, challenge: challenge.value }));
  });

const refused = () => ValidationFailed.field("passkey", SECOND_FACTOR_MESSAGES.passkeyRefused);

/** The passkey that signed this response for this ceremony, its counter moved on; None when anything fails. */
const assertion = (purpose: CeremonyPurpose, response: unknown, userId: string | null) =>
  Effect.gen(function* () {
    const webauthn = yield* WebAuthn;
    const factors = yield* SecondFactors;
    const ceremony = yield* closeCeremony(purpose, response);
    if (Option.isNone(ceremony)) return Option.none();
    const credentialId = webauthn.credentialIdOf(response);
    if (Option.isNone(credentialId)) return Option.none();
    const passkey = yield* factors.findPasskey(credentialId.value);
    if (Option.isNone(passkey)) return Option.none();
    const owner = userId ?? ceremony.value.userId;
    if (owner !== null && owner !== passkey.value.userId) return Option.none();
    const verified = yield* webauthn.verifyAuthentication(response, ceremony.value.challenge, passkey.value);
    if (Option.isNone(verified)) return Option.none();
    yield* factors.passkeyUsed(passkey.value.id, verified.value.counter, yield* now);
    return Option.some(passkey.value);
  });

const allowList = (userId: string) => Effect.map(SecondFactors, (f) => f.passkeysOf(userId)).pipe(Effect.flatten);

// ---- Adding and removing ------------------------------------------------------------------------------

/** `POST /user/passkeys/options`: what the browser needs to make a passkey for the caller. */
export const passkeyRegistrationOptions = Effect.gen(function* () {
  const { user } = yield* requireRecentProof;
  const challenge = yield* openCeremony("passkey_registration", user.id);
  const exclude = yield* allowList(user.id);
  const options = yield* (yield* WebAuthn).registrationOptions({
    userId: user.id,
    userName: user.email,
    displayName: `${user.firstName} ${user.lastName}`,
    challenge,
    exclude,
  });
  return { message: SECOND_FACTOR_MESSAGES.passkeyOptions, options };
});

export const AddPasskeyRequest = Schema.Struct({
  response: Schema.Unknown,
  name: Schema.optional(Schema.String.pipe(Schema.maxLength(60, { message: () => SECOND_FACTOR_MESSAGES.passkeyNameTooLong }))),
});

/** `POST /user/passkeys` with the browser's answer: the passkey is the caller's (and maybe their first factor). */
export const addPasskey = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(AddPasskeyRequest, input);
    const { user, session } = yield* requireRecentProof;
    const ceremony = yield* closeCeremony("passkey_registration", request.response);
    if (Option.isNone(ceremony) || ceremony.value.userId !== user.id) return yield* refused();
    const made = yield* (yield* WebAuthn).verifyRegistration(request.response, ceremony.value.challenge);
    if (Option.isNone(made)) return yield* refused();
    const at = yield* now;
    const id = (yield* Random).identifier();
    const name = request.name?.trim() || (made.value.deviceType === "multiDevice" ? "Synced passkey" : "Security key");
    const recoveryCodes = yield* transaction(
      Effect.gen(function* () {
        yield* (yield* SecondFactors).insertPasskey({ id, userId: user.id, ...made.value, name, createdAt: at, lastUsedAt: null });
        yield* audit({ action: "account.passkey_added", actorId: user.id, subjectId: user.id, details: { passkey: id } });
        return user.secondFactorAt === null ? yield* firstFactorAdded(user, session.id, "passkey") : null;
      }),
    );
    if (recoveryCodes !== null) yield* send(secondFactorMail(user, "enabled", "passkey"));
    return { message: SECOND_FACTOR_MESSAGES.passkeyAdded, identifier: id, recovery_codes: recoveryCodes };
  });

/** `DELETE /user/passkeys/:id`: never the last factor of an account that must keep two-step sign-in. */
export const removePasskey = (id: string) =>
  Effect.gen(function* () {
    const { user } = yield* requireRecentProof;
    const factors = yield* SecondFactors;
    const passkeys = yield* factors.passkeysOf(user.id);
    if (!passkeys.some((p) => p.id === id)) return yield* new NotFound({ message: SECOND_FACTOR_MESSAGES.passkeyMissing });
    const app = yield* factors.findTotp(user.id);
    const appOn = Option.isSome(app) && app.value.confirmedAt !== null;
    const remaining = passkeys.length - 1 + (appOn ? 1 : 0);
    const refusal = refuseIfLast(user, remaining);
    if (refusal) return yield* refusal;
    yield* transaction(
      Effect.gen(function* () {
        yield* factors.removePasskey(user.id, id);
        if (remaining === 0) yield* lastFactorGone(user);
        yield* audit({ action: "account.passkey_removed", actorId: user.id, subjectId: user.id, details: { passkey: id } });
      }),
    );
    if (remaining === 0) yield* send(secondFactorMail(user, "disabled"));
    return { message: remaining === 0 ? SECOND_FACTOR_MESSAGES.turnedOff : SECOND_FACTOR_MESSAGES.passkeyRemoved };
  });

// ---- Signing in and proving ----------------------------------------------------------------------------

export const PasskeyOptionsRequest = Schema.Struct({ email: Schema.optional(Schema.String) });

/**
 * `POST /user/sign-in/passkey/options`: a challenge for signing in. With an e-mail of an account that
 * has passkeys, the browser is told which; otherwise (and for an unknown address alike) it offers
 * the passkeys it holds for Crown, so the answer says nothing about who has an account.
 */
export const passkeySignInOptions = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(PasskeyOptionsRequest, input);
    const config = yield* AccountsConfig;
    yield* throttle(`passkey-options:addr:${yield* clientAddress}`, config.limits.signInPerAddress);
    const found = request.email ? yield* (yield* Users).findByEmail(normaliseEmail(request.email)) : Option.none<User>();
    const allow = Option.isSome(found) ? yield* allowList(found.value.id) : [];
    const challenge = yield* openCeremony("passkey_sign_in", allow.length > 0 && Option.isSome(found) ? found.value.id : null);
    const options = yield* (yield* WebAuthn).authenticationOptions({ challenge, allow });
    return { message: SECOND_FACTOR_MESSAGES.passkeyOptions, options };
  });

export const PasskeyResponseRequest = Schema.Struct({
  response: Schema.Unknown,
  remember_me: Schema.optional(Schema.Boolean),
  device_type: Schema.optional(Schema.String),
});

/** The account a passkey sign-in opens a session for, or the refusal (a failed passkey is counted per address). */
export const passkeySignInUser = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(PasskeyResponseRequest, input);
    const config = yield* AccountsConfig;
    const address = yield* clientAddress;
    yield* throttle(`sign-in:passkey:addr:${address}`, config.limits.signInPerAddress);
    const passkey = yield* assertion("passkey_sign_in", request.response, null);
    if (Option.isNone(passkey)) {
      yield* audit({ action: "account.sign_in_failed", actorId: null, details: { method: "passkey" } });
      return yield* refused();
    }
    const user = yield* (yield* Users).findById(passkey.value.userId);
    if (Option.isNone(user)) return yield* refused();
    return { user: user.value, request, passkeyId: passkey.value.id };
  });

/** `POST /user/proof/passkey/options`: a challenge for the caller's own passkeys. */
export const passkeyProofOptions = Effect.gen(function* () {
  const { user } = yield* CurrentUser;
  const allow = yield* allowList(user.id);
  if (allow.length === 0) return yield* new Forbidden({ message: SECOND_FACTOR_MESSAGES.passkeyMissing });
  const challenge = yield* openCeremony("passkey_proof", user.id);
  return { message: SECOND_FACTOR_MESSAGES.passkeyOptions, options: yield* (yield* WebAuthn).authenticationOptions({ challenge, allow }) };
});

/** `POST /user/proof/passkey`: one of the caller's passkeys proves who they are (a fresh proof, and the second factor). */
export const proveWithPasskey = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(PasskeyResponseRequest, input);
    const { user, session } = yield* CurrentUser;
    const passkey = yield* assertion("passkey_proof", request.response, user.id);
    if (Option.isNone(passkey)) {
      yield* audit({ action: "account.proof_failed", actorId: user.id, subjectId: user.id, details: { method: "passkey" } });
      return yield* refused();
    }
    const at = yield* now;
    yield* recordProof(session);
    yield* audit({ action: "account.proof", actorId: user.id, subjectId: user.id, details: { method: "passkey", passkey: passkey.value.id } });
    return { provedAt: at };
  });
