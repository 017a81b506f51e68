import { encodePassword, request } from "./client.ts";
import type { SignInResult } from "./types.ts";

/** Two-step sign-in's calls (issue 44): the app, recovery codes, passkeys, proving it is you again. */

export interface SecondFactorStatus {
  readonly enabled: boolean;
  readonly required: boolean;
  readonly proved_in_this_session: boolean;
  readonly authenticator_app: boolean;
  readonly recovery_codes_left: number;
  readonly passkeys: ReadonlyArray<{ identifier: string; name: string; synced: boolean; created_at: string; last_used_at: string | null }>;
}

export const secondFactorStatus = () => request<SecondFactorStatus>("GET", "/user/second-factor");
export const startAuthenticatorApp = () => request<{ secret: string; otpauth_url: string }>("POST", "/user/second-factor/app");
export const confirmAuthenticatorApp = (code: string) => request<{ recovery_codes: string[] | null }>("POST", "/user/second-factor/app/confirm", { json: { code } });
export const removeAuthenticatorApp = () => request<null>("POST", "/user/second-factor/app/remove");
export const regenerateRecoveryCodes = () => request<{ recovery_codes: string[] }>("POST", "/user/second-factor/recovery-codes");
export const turnOffSecondFactor = () => request<null>("POST", "/user/second-factor/off");

export const passkeyRegistrationOptions = () => request<{ options: unknown }>("POST", "/user/passkeys/options");
export const addPasskey = (response: unknown, name: string) =>
  request<{ identifier: string; recovery_codes: string[] | null }>("POST", "/user/passkeys", { json: { response, name: name || undefined } });
export const removePasskey = (identifier: string) => request<null>("POST", "/user/passkeys/remove", { json: { identifier } });

export const proveWithPassword = (password: string) => request<{ proved_at: string }>("POST", "/user/proof", { keepSessionOn401: true, json: { password: encodePassword(password) } });
export const passkeyProofOptions = () => request<{ options: unknown }>("POST", "/user/proof/passkey/options");
export const proveWithPasskey = (response: unknown) => request<{ proved_at: string }>("POST", "/user/proof/passkey", { json: { response } });

export const passkeySignInOptions = (email: string) =>
  request<{ options: unknown }>("POST", "/user/sign-in/passkey/options", { auth: false, json: email ? { email } : {} });
export const signInWithPasskey = (response: unknown, rememberMe: boolean) =>
  request<SignInResult>("POST", "/user/sign-in/passkey", { auth: false, json: { response, remember_me: rememberMe, device_type: "web" } });
