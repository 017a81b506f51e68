import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { dictionary } from "@zxcvbn-ts/language-common";
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { Effect, Layer, Option } from "effect";
import { generateSecret, generateSync, generateURI, verifySync } from "otplib";
import {
  AuthenticatorCodes,
  type AuthenticatorCodesPort,
  CommonPasswords,
  type CommonPasswordsPort,
  SecretBox,
  type SecretBoxPort,
  WebAuthn,
  type WebAuthnPort,
} from "@crown/core";

/**
 * Two-step sign-in's crypto (issue 44, ADRs 146–148): the sealed box for authenticator secrets
 * (HKDF-SHA-256 from the server secret, AES-256-GCM), the app codes (otplib, RFC 6238), WebAuthn
 * (@simplewebauthn/server) and the list of passwords attackers try first (@zxcvbn-ts/language-common).
 */

// ---- The sealed box -------------------------------------------------------------------------------

/** Names the key's use: another use of the server secret never derives this key. */
const BOX_INFO = "crown/second-factor/secret-box/v1";
const VERSION = "v1";

/** AES-256-GCM with a key derived from the server secret; the context (the owner) is authenticated too. */
export const makeSecretBox = (serverSecret: string | Uint8Array): SecretBoxPort => {
  const key = Buffer.from(hkdfSync("sha256", Buffer.from(serverSecret), Buffer.alloc(0), BOX_INFO, 32));
  return {
    seal: (plain, context) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return [VERSION, iv.toString("base64url"), body.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".");
    },
    open: (sealed, context) => {
      const [version, iv, body, tag] = sealed.split(".");
      if (version !== VERSION || !iv || body === undefined || !tag) return Option.none();
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAAD(Buffer.from(context, "utf8"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Option.some(Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8"));
      } catch {
        return Option.none();
      }
    },
  };
};

// ---- Authenticator app codes ------------------------------------------------------------------------

const PERIOD = 30;
/** One step either side: a phone's clock a little off, or a code typed as it turned. */
const TOLERANCE_SECONDS = PERIOD;

export const authenticatorCodes: AuthenticatorCodesPort = {
  newSecret: () => generateSecret({ length: 20 }),
  address: (secret, account) => generateURI({ issuer: "Crown", label: account, secret }),
  check: (secret, code, at) =>
    Effect.sync(() => {
      if (!/^\d{6}$/.test(code)) return Option.none();
      const result = verifySync({ secret, token: code, epoch: Math.floor(at.getTime() / 1000), epochTolerance: TOLERANCE_SECONDS });
      // The step the code belongs to (otplib's `epoch` is that step's start): a step is accepted once.
      return result.valid && "epoch" in result ? Option.some(Math.floor(result.epoch / PERIOD)) : Option.none();
    }),
};

/** The code an authenticator app shows for `secret` at `at` (the tests' and the CLI's stand-in for a phone). */
export const authenticatorCodeAt = (secret: string, at: Date = new Date()) => generateSync({ secret, epoch: Math.floor(at.getTime() / 1000) });

// ---- WebAuthn ---------------------------------------------------------------------------------------

/** The relying party is the portal's own origin (PUBLIC_URL): a passkey made for it works nowhere else. */
export const makeWebAuthn = (publicUrl: string): WebAuthnPort => {
  const origin = new URL(publicUrl).origin;
  const rpID = new URL(publicUrl).hostname;
  // What every response must answer to: this portal, and core's challenge. Core's challenge is a
  // base64url string; the browser signs its UTF-8 bytes, base64url-encoded again.
  const expectations = (challenge: string) => ({ expectedChallenge: Buffer.from(challenge, "utf8").toString("base64url"), expectedOrigin: origin, expectedRPID: rpID });
  const clientData = (response: unknown): Option.Option<{ challenge: string }> => {
    try {
      const encoded = (response as { response?: { clientDataJSON?: unknown } })?.response?.clientDataJSON;
      if (typeof encoded !== "string" || encoded.length > 4096) return Option.none();
      const parsed = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")) as { challenge?: unknown };
      return typeof parsed.challenge === "string" ? Option.some({ challenge: parsed.challenge }) : Option.none();
    } catch {
      return Option.none();
    }
  };
  const attempt = <A>(f: () => Promise<Option.Option<A>>) => Effect.promise(() => f().catch(() => Option.none<A>()));
  return {
    registrationOptions: (input) =>
      Effect.promise(() =>
        generateRegistrationOptions({
          rpName: "Crown",
          rpID,
          userName: input.userName,
          userID: Buffer.from(input.userId, "utf8"),
          userDisplayName: input.displayName,
          challenge: input.challenge,
          attestationType: "none",
          excludeCredentials: input.exclude.map((p) => ({ id: p.credentialId, transports: [...p.transports] })),
          // Platform (Touch ID, Windows Hello, a phone) or roaming (a security key): either may sign in alone.
          authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
        }),
      ),
    verifyRegistration: (response, challenge) =>
      attempt(async () => {
        const result = await verifyRegistrationResponse({
          response: response as RegistrationResponseJSON,
          ...expectations(challenge),
          requireUserVerification: false,
        });
        if (!result.verified) return Option.none();
        const info = result.registrationInfo;
        return Option.some({
          credentialId: info.credential.id,
          publicKey: new Uint8Array(info.credential.publicKey),
          counter: info.credential.counter,
          transports: info.credential.transports ?? [],
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
        });
      }),
    authenticationOptions: (input) =>
      Effect.promise(() =>
        generateAuthenticationOptions({
          rpID,
          challenge: input.challenge,
          allowCredentials: input.allow.map((p) => ({ id: p.credentialId, transports: [...p.transports] as never })),
          // A passkey signs in alone, so its owner must unlock it (PIN, fingerprint, face).
          userVerification: "required",
        }),
      ),
    credentialIdOf: (response) => {
      const id = (response as { id?: unknown })?.id;
      return typeof id === "string" && id.length > 0 && id.length <= 1024 ? Option.some(id) : Option.none();
    },
    challengeOf: (response) =>
      Option.flatMap(clientData(response), ({ challenge }) => {
        const decoded = Buffer.from(challenge, "base64url").toString("utf8");
        return decoded.length > 0 ? Option.some(decoded) : Option.none();
      }),
    verifyAuthentication: (response, challenge, passkey) =>
      attempt(async () => {
        const result = await verifyAuthenticationResponse({
          response: response as AuthenticationResponseJSON,
          ...expectations(challenge),
          credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.counter, transports: [...passkey.transports] as never },
          requireUserVerification: true,
        });
        return result.verified ? Option.some({ counter: result.authenticationInfo.newCounter }) : Option.none();
      }),
  };
};

// ---- Passwords attackers try first ------------------------------------------------------------------

/** zxcvbn-ts's list of common passwords (about 49,000, most used first), loaded once. */
let common: ReadonlySet<string> | null = null;
export const commonPasswords: CommonPasswordsPort = {
  listed: (text) => {
    common ??= new Set(dictionary["passwords-common"] as ReadonlyArray<string>);
    return common.has(text);
  },
};

export const secondFactorCryptoLayer = (serverSecret: string | Uint8Array, publicUrl: string): Layer.Layer<SecretBox | AuthenticatorCodes | WebAuthn | CommonPasswords> =>
  Layer.mergeAll(
    Layer.succeed(SecretBox, makeSecretBox(serverSecret)),
    Layer.succeed(AuthenticatorCodes, authenticatorCodes),
    Layer.succeed(WebAuthn, makeWebAuthn(publicUrl)),
    Layer.succeed(CommonPasswords, commonPasswords),
  );
