import { crown, encodePassword } from "./crown.ts";
import type { Api } from "./wire.ts";

/** The account pages' calls (spec section 7): sign-up, verification, passwords, the profile and its photo. */

/** What the sign-up form sends: the route's body, the password in clear (encoded here). */
export type SignUpInput = Omit<Parameters<Api["user"]["sign-up"]["$post"]>[0]["json"], "register_type">;

export const signUp = (input: SignUpInput) =>
  crown.call((api) => api.user["sign-up"].$post({ json: { ...input, password: encodePassword(input.password), register_type: "normal" } }), { auth: false });

export const verifyEmail = (id: string, token: string, expires: string, signature: string) =>
  crown.call((api) => api.email.verify[":id"][":token"].$get({ param: { id, token }, query: { expires, signature } }), { auth: false });

export const resendVerification = (email: string) => crown.call((api) => api.email.verify.$post({ json: { email } }), { auth: false });

export const recoverPassword = (email: string) => crown.call((api) => api.user.password.recover.$post({ json: { email } }), { auth: false });

/** Resets a password, or sets the first one from an invitation (which also carries the invitee's name). */
export const resetPassword = (token: string, email: string, password: string, names?: { first_name: string; last_name: string }) =>
  crown.call((api) => api.user.password.reset.$post({ json: { token, email, password: encodePassword(password), ...names } }), { auth: false });

export const changePassword = (oldPassword: string, newPassword: string) =>
  crown.call((api) => api.user.password.change.$post({ json: { old_password: encodePassword(oldPassword), new_password: encodePassword(newPassword) } }), {
    keepSessionOn401: true,
  });

const readProfile = () => crown.call((api) => api.user.profile.$get());
let profileInFlight: ReturnType<typeof readProfile> | null = null;

/**
 * The account's profile. On a page load the header, the profile menu, the language and the page itself
 * all ask at once, and the server audits every read: callers that ask while a read is on its way share
 * it. A change to the profile starts the next read afresh.
 */
export const getProfile = (): ReturnType<typeof readProfile> => {
  if (profileInFlight) return profileInFlight;
  const read = readProfile().finally(() => {
    if (profileInFlight === read) profileInFlight = null;
  });
  profileInFlight = read;
  return read;
};

const changeProfile = <A>(change: () => Promise<A>): Promise<A> => {
  profileInFlight = null;
  return change();
};

export const updateProfile = (values: { first_name: string; last_name: string; phone: string; fax_number?: string }) =>
  changeProfile(() => crown.call((api) => api.user.profile.$post({ json: values })));

export const uploadProfilePhoto = (file: File) =>
  changeProfile(() => crown.call((api) => api.user.profile.$post({ form: { profile_photo: file, profile_photo_action: "update" } })));

export const removeProfilePhoto = () => changeProfile(() => crown.call((api) => api.user.profile.$post({ form: { profile_photo_action: "remove" } })));

/** The photo needs the bearer token, so it is fetched and shown as a PNG/JPEG data URL. */
export const getProfilePhoto = async (): Promise<string> => {
  const blob = await crown.blob((api) => api.user["profile-photo"].$get(), { quiet: true });
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
};
