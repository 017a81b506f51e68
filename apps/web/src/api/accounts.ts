import { crown, encodePassword } from "./crown.ts";

/** The session's calls (spec section 7): the sign-in route loads only these (its budget, ADR 74); the account pages' are in account-pages.ts. */

export const signIn = (email: string, password: string, rememberMe: boolean) =>
  crown.call((api) => api.user["sign-in"].$post({ json: { email, password: encodePassword(password), device_type: "web", remember_me: rememberMe } }), { auth: false });

export const signOut = () => crown.call((api) => api.user["sign-out"].$get(), { keepSessionOn401: true, quiet: true });
