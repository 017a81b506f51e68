import { crown, encodePassword } from "./crown.ts";

/** The session's calls (spec section 7): the sign-in route loads only these (its budget, ADR 74); the account pages' are in account-pages.ts. */

/** The password, and with `code` the second step (an authenticator app's code or a recovery code; issue 44). */
export const signIn = (email: string, password: string, rememberMe: boolean, code?: string) =>
  crown.call(
    (api) => api.user["sign-in"].$post({ json: { email, password: encodePassword(password), device_type: "web", remember_me: rememberMe, ...(code ? { code } : {}) } }),
    { auth: false },
  );

export const signOut = () => crown.call((api) => api.user["sign-out"].$get(), { keepSessionOn401: true, quiet: true });
