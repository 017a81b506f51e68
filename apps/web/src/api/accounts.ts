import { encodePassword, request, requestBlob } from "./client.ts";
import type { Profile, SignInResult, SignUpResult } from "./types.ts";

/** The accounts calls of the spec (section 7). */

export interface SignUpInput {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  phone: string;
  type: "parent" | "physician" | "other";
  npi?: string;
  token?: string;
}

export const signUp = (input: SignUpInput) =>
  request<SignUpResult>("POST", "/user/sign-up", {
    auth: false,
    json: { ...input, password: encodePassword(input.password), register_type: "normal" },
  });

/** The password, and with `code` the second step (an authenticator app's code or a recovery code; issue 44). */
export const signIn = (email: string, password: string, rememberMe: boolean, code?: string) =>
  request<SignInResult>("POST", "/user/sign-in", {
    auth: false,
    json: { email, password: encodePassword(password), device_type: "web", remember_me: rememberMe, ...(code ? { code } : {}) },
  });

export const signOut = () => request<unknown>("GET", "/user/sign-out", { keepSessionOn401: true, quiet: true });

export const verifyEmail = (id: string, token: string, expires: string, signature: string) =>
  request<unknown>("GET", `/email/verify/${encodeURIComponent(id)}/${encodeURIComponent(token)}`, {
    auth: false,
    query: { expires, signature },
  });

export const resendVerification = (email: string) => request<unknown>("POST", "/email/verify", { auth: false, json: { email } });

export const recoverPassword = (email: string) => request<unknown>("POST", "/user/password/recover", { auth: false, json: { email } });

/** Resets a password, or sets the first one from an invitation (which also carries the invitee's name). */
export const resetPassword = (token: string, email: string, password: string, names?: { first_name: string; last_name: string }) =>
  request<unknown>("POST", "/user/password/reset", { auth: false, json: { token, email, password: encodePassword(password), ...names } });

export const changePassword = (oldPassword: string, newPassword: string) =>
  request<unknown>("POST", "/user/password/change", {
    keepSessionOn401: true,
    json: { old_password: encodePassword(oldPassword), new_password: encodePassword(newPassword) },
  });

export const getProfile = () => request<Profile>("GET", "/user/profile");

export const updateProfile = (values: { first_name: string; last_name: string; phone: string; fax_number?: string }) =>
  request<Profile>("POST", "/user/profile", { json: values });

export const uploadProfilePhoto = (file: File) => {
  const form = new FormData();
  form.set("profile_photo", file);
  form.set("profile_photo_action", "update");
  return request<Profile>("POST", "/user/profile", { form });
};

export const removeProfilePhoto = () => {
  const form = new FormData();
  form.set("profile_photo_action", "remove");
  return request<Profile>("POST", "/user/profile", { form });
};

/** The photo needs the bearer token, so it is fetched and shown as a PNG/JPEG data URL. */
export const getProfilePhoto = async (): Promise<string> => {
  const blob = await requestBlob("/user/profile-photo", { quiet: true });
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
};
