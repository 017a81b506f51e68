import { signOut } from "../api/accounts.ts";
import type { SessionContext } from "./machine.ts";
import { clearToasts } from "../ui/toasts.tsx";
import { sessionActor } from "./store.ts";

/** Revokes the token on the server (best effort) and resets every piece of user state. */
export const signOutNow = async (notice?: SessionContext["notice"]) => {
  try {
    await signOut();
  } catch {
    // The session is ended locally whatever the server answers.
  }
  clearToasts();
  sessionActor.send(notice ? { type: "SIGN_OUT", notice } : { type: "SIGN_OUT" });
};
