import { crown, encodePassword } from "./crown.ts";
import type { Api, ResultsOf } from "./wire.ts";

/** Two-step sign-in's calls (issue 44): the app, recovery codes, passkeys, proving it is you again; each names its route (ADR 0143). */

export type SecondFactorStatus = ResultsOf<Api["user"]["second-factor"]["$get"]>;

export const secondFactorStatus = () => crown.call((api) => api.user["second-factor"].$get());
export const startAuthenticatorApp = () => crown.call((api) => api.user["second-factor"].app.$post());
export const confirmAuthenticatorApp = (code: string) => crown.call((api) => api.user["second-factor"].app.confirm.$post({ json: { code } }));
export const removeAuthenticatorApp = () => crown.call((api) => api.user["second-factor"].app.remove.$post());
export const regenerateRecoveryCodes = () => crown.call((api) => api.user["second-factor"]["recovery-codes"].$post());
export const turnOffSecondFactor = () => crown.call((api) => api.user["second-factor"].off.$post());

export const passkeyRegistrationOptions = () => crown.call((api) => api.user.passkeys.options.$post());
export const addPasskey = (response: unknown, name: string) =>
  crown.call((api) => api.user.passkeys.$post({ json: { response: response as never, ...(name ? { name } : {}) } }));
export const removePasskey = (identifier: string) => crown.call((api) => api.user.passkeys.remove.$post({ json: { identifier } }));

export const proveWithPassword = (password: string) => crown.call((api) => api.user.proof.$post({ json: { password: encodePassword(password) } }), { keepSessionOn401: true });
export const passkeyProofOptions = () => crown.call((api) => api.user.proof.passkey.options.$post());
export const proveWithPasskey = (response: unknown) => crown.call((api) => api.user.proof.passkey.$post({ json: { response: response as never } }));

export const passkeySignInOptions = (email: string) => crown.call((api) => api.user["sign-in"].passkey.options.$post({ json: email ? { email } : {} }), { auth: false });
export const signInWithPasskey = (response: unknown, rememberMe: boolean) =>
  crown.call((api) => api.user["sign-in"].passkey.$post({ json: { response: response as never, remember_me: rememberMe, device_type: "web" } }), { auth: false });
