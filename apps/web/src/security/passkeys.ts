/**
 * The browser's side of passkeys (WebAuthn through @simplewebauthn/browser), loaded only when a
 * passkey is used: the sign-in page's budget (ADR 74) does not carry it.
 */

/** Can this browser make and use passkeys at all? */
export const passkeysSupported = () => typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";

/** Asks the browser (and the user's authenticator) to make a passkey for the server's options. */
export const createPasskey = async (options: unknown) => {
  const { startRegistration } = await import("@simplewebauthn/browser");
  return startRegistration({ optionsJSON: options as Parameters<typeof startRegistration>[0]["optionsJSON"] });
};

/** Asks the browser to sign the server's challenge with one of the user's passkeys. */
export const signWithPasskey = async (options: unknown) => {
  const { startAuthentication } = await import("@simplewebauthn/browser");
  return startAuthentication({ optionsJSON: options as Parameters<typeof startAuthentication>[0]["optionsJSON"] });
};
