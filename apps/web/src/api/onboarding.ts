import { crown } from "./crown.ts";
import type { Api } from "./wire.ts";

/** Baby registration, providers, BAA, disclaimer and quiz flags (spec section 7). */

export const NO_PHYSICIAN_ID = "no-physician";
export const NO_PHYSICIAN_NAME = "No Physician";

/** A baby's form as the routes take it (register-baby, update-baby, add-baby, update-child). */
export type BabyInput = Parameters<Api["user"]["register-baby"]["$post"]>[0]["json"] & { identifier?: string };

const withName = <B extends { first_name: string; middle_name?: string | null | undefined; last_name: string }>(b: B): B => ({
  ...b,
  name: [b.first_name, b.middle_name, b.last_name].filter((s) => s && s.trim()).join(" "),
});

export const registerBaby = (b: Parameters<Api["user"]["register-baby"]["$post"]>[0]["json"]) =>
  crown.call((api) => api.user["register-baby"].$post({ json: withName(b) }));
export const updateBaby = (b: Parameters<Api["user"]["update-baby"]["$post"]>[0]["json"]) => crown.call((api) => api.user["update-baby"].$post({ json: withName(b) }));
export const addBaby = (b: Parameters<Api["user"]["add-baby"]["$post"]>[0]["json"]) => crown.call((api) => api.user["add-baby"].$post({ json: withName(b) }));
export const updateChild = (b: Parameters<Api["user"]["update-child"]["$post"]>[0]["json"]) => crown.call((api) => api.user["update-child"].$post({ json: withName(b) }));

export const searchPhysicians = (name: string, signal?: AbortSignal) =>
  crown.call((api) => api.physicians.$get({ query: { name } }), { auth: false, quiet: true, ...(signal ? { signal } : {}) });

export const staffPhysicians = () => crown.call((api) => api.physician.list.$get());

export const signBaa = (v: Parameters<Api["user"]["sign-baa"]["$post"]>[0]["json"]) => crown.call((api) => api.user["sign-baa"].$post({ json: v }));

export const acceptDisclaimer = () => crown.call((api) => api.user["accept-disclaimer"].$post({ json: { accepted: true } }));

/** Sends the answers; the server grades them against the pool and records the attempt. */
export const submitQuiz = (v: Parameters<Api["user"]["update-quiz"]["$post"]>[0]["json"]) => crown.call((api) => api.user["update-quiz"].$post({ json: v }));
