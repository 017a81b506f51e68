import type { UserType } from "../accounts/lifecycle.ts";
import type { Caller, Session, User } from "../accounts/model.ts";
import { authenticate, createVerifiedUser, signIn, signUp, verifyEmail } from "../accounts/service.ts";
import type { OutgoingMail } from "../shared/ports.ts";
import type { TestWorld } from "./memory.ts";
import type { SignUpPayload } from "./mothers.ts";

/** Scenario helpers over a test world: follow links from mails, sign up, verify and sign in. */

/** The first http(s) address in a mail's text. */
export const linkIn = (mail: OutgoingMail): URL => {
  const match = /https?:\/\/\S+/.exec(mail.text);
  if (!match) throw new Error(`no link in mail "${mail.subject}"`);
  return new URL(match[0]);
};

export interface VerificationLink {
  readonly url: URL;
  readonly id: string;
  readonly token: string;
  readonly expires: string;
  readonly signature: string;
}

/** The parts of a `/verify-email?id&token&expires&signature` link. */
export const verificationLinkIn = (mail: OutgoingMail): VerificationLink => {
  const url = linkIn(mail);
  const get = (name: string) => {
    const value = url.searchParams.get(name);
    if (value === null) throw new Error(`verification link without ${name}: ${url.href}`);
    return value;
  };
  return { url, id: get("id"), token: get("token"), expires: get("expires"), signature: get("signature") };
};

/** Calls the API the page calls for a verification link: GET /email/verify/{id}/{token}?expires&signature. */
export const followVerificationLink = (link: Pick<VerificationLink, "id" | "token" | "expires" | "signature">) =>
  verifyEmail(link.id, link.token, { expires: link.expires, signature: link.signature });

export const resetLinkIn = (mail: OutgoingMail): { url: URL; token: string; email: string } => {
  const url = linkIn(mail);
  const token = url.searchParams.get("token");
  const email = url.searchParams.get("email");
  if (token === null || email === null) throw new Error(`reset link without token or email: ${url.href}`);
  return { url, token, email };
};

export const lastVerificationLink = (world: TestWorld, email: string): VerificationLink => {
  const mail = world.mailsTo(email).filter((m) => m.subject.toLowerCase().includes("verify")).at(-1);
  if (!mail) throw new Error(`no verification mail to ${email}`);
  return verificationLinkIn(mail);
};

export const lastResetLink = (world: TestWorld, email: string) => {
  const mail = world.mailsTo(email).filter((m) => m.subject.toLowerCase().includes("reset")).at(-1);
  if (!mail) throw new Error(`no reset mail to ${email}`);
  return resetLinkIn(mail);
};

/** Signs up and follows the mailed verification link; returns the stored user. */
export const signUpVerified = async (world: TestWorld, payload: SignUpPayload): Promise<User> => {
  await world.run(signUp(payload));
  await world.run(followVerificationLink(lastVerificationLink(world, payload.email)));
  const user = world.userByEmail(payload.email);
  if (!user) throw new Error(`user ${payload.email} missing after sign-up`);
  return user;
};

/** Signs in with the payload's credentials and resolves the token to its caller. */
export const signInAs = async (
  world: TestWorld,
  credentials: { email: string; password: string },
  options: { rememberMe?: boolean; deviceType?: string } = {},
): Promise<{ token: string; caller: Caller }> => {
  const { token } = await world.run(
    signIn({ email: credentials.email, password: credentials.password, remember_me: options.rememberMe, device_type: options.deviceType }),
  );
  const caller = await world.run(authenticate(token));
  return { token, caller };
};

/** Signs up, verifies and signs in. */
export const signedIn = async (world: TestWorld, payload: SignUpPayload, options: { rememberMe?: boolean } = {}) => {
  const user = await signUpVerified(world, payload);
  const session = await signInAs(world, payload, options);
  return { user, ...session };
};

/** A live session of a user, to call a use case as them without signing in. */
export const sessionOf = (userId: string): Session => ({
  id: `s-${userId}`,
  userId,
  tokenDigest: `d-${userId}`,
  createdAt: new Date(0),
  lastSeenAt: new Date(0),
  expiresAt: new Date(8.64e15),
  idleTimeoutSeconds: null,
  revokedAt: null,
  deviceType: "web",
  lastProofAt: new Date(0),
  secondFactorAt: new Date(0),
});

/** The user as the world stores them now, with a live session. */
export const callerIn = (world: TestWorld, userId: string): Caller => ({ user: world.users.get(userId)!, session: sessionOf(userId) });

/**
 * A verified, Active account made as an operator makes one (password "Secret#123"); a physician
 * comes with the practice's BAA signed, since practice calls are refused before it (issue 22).
 */
export const anAccount = async (world: TestWorld, type: UserType, name: string): Promise<User> => {
  const user = await world.run(createVerifiedUser({ email: `${name}@example.com`, password: "Secret#123", type, firstName: name, lastName: "Test" }));
  const made = type === "physician" ? { ...user, baaSignedAt: new Date(0) } : user;
  world.users.set(user.id, made);
  return made;
};
