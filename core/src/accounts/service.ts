import { Effect, Option } from "effect";
import { Conflict, Forbidden, NotFound, Unauthenticated, ValidationFailed } from "../shared/errors.ts";
import {
  audit,
  BlobStore,
  ContentSniffer,
  Mailer,
  now,
  PasswordHasher,
  Random,
  Secrets,
  transaction,
  type OutgoingMail,
} from "../shared/ports.ts";
import { clientAddress, throttle, TOO_MANY_ATTEMPTS } from "../shared/throttle.ts";
import { validate } from "../shared/validation.ts";
import { NPI_MESSAGES, normaliseNpi } from "../practice/npi.ts";
import { practiceVerification } from "../practice/verification.ts";
import { LiveEvents } from "../live/model.ts";
import { passwordChangedMail, passwordResetMail, resetUnavailableMail, verificationMail } from "./emails.ts";
import { awaitSignInTurn, clearSignInFailures, recordSignInFailure } from "./sign-in-throttle.ts";
import { AccountHooks, AccountsConfig, type Caller, CurrentUser, OneTimeTokens, type Session, Sessions, type User, Users } from "./model.ts";
import {
  ChangePasswordRequest,
  EmailRequest,
  ProfileUpdateRequest,
  InvitationNames,
  ResetPasswordRequest,
  SignInRequest,
  SignUpRequest,
  VerifyEmailQuery,
} from "./schemas.ts";
import { type AccountEvent, accountCan, statusAfter, type UserType } from "./lifecycle.ts";

export const MESSAGES = {
  signedUp: "Thanks for signing up. Please check your email inbox and verify your email",
  emailTaken: "The email has already been taken.",
  badCredentials: "These credentials do not match our records.",
  emailNotVerified: "Please verify your email address before signing in.",
  blocked: "Your account has been blocked. Please contact support.",
  passwordExpired: "Your password has expired. Please reset your password.",
  signedIn: "Signed in successfully",
  signedOut: "Signed out successfully",
  signedOutWaitingApproval:
    "Your request has been received. You will be contacted after an administrator reviews your child's information.",
  verified: "Your email has been verified successfully. Please sign in.",
  alreadyVerified: "Your email is already verified. Please sign in.",
  badVerificationLink: "This verification link is invalid or has expired.",
  verificationSent: "Verification link sent successfully. Please check your email inbox",
  resetSent: "Reset password link successfully sent to your email address",
  badResetLink: "This password reset link is invalid or has expired.",
  passwordChanged: "Password changed successfully",
  wrongOldPassword: "The old password is incorrect.",
  samePassword: "The new password must be different from the old password.",
  profile: "Profile fetched successfully",
  profileUpdated: "Profile updated successfully",
  photoRemoved: "Profile photo removed successfully",
  photoType: "The profile photo must be a PNG or JPEG image.",
  photoMissing: "Please choose a profile photo to upload.",
  tooManyAttempts: TOO_MANY_ATTEMPTS,
} as const;

/** Rate limits of the authentication calls: per account and per address, shared across processes. */
export const LIMITS = {
  // Failed sign-ins: growing delays, in sign-in-throttle.ts. Changing the password needs a session already.
  changePasswordPerAccount: { limit: 5, windowSeconds: 15 * 60 },
  signInPerAddress: { limit: 30, windowSeconds: 15 * 60 },
  signUpPerAddress: { limit: 10, windowSeconds: 60 * 60 },
  // Repeated sign-ups for one e-mail from many addresses (probing whether it is taken, mail flooding).
  signUpPerAccount: { limit: 5, windowSeconds: 60 * 60 },
  mailPerAccount: { limit: 3, windowSeconds: 60 * 60 },
  mailPerAddress: { limit: 10, windowSeconds: 60 * 60 },
} as const;

export const PROFILE_PHOTO_MAX_BYTES = 5 * 1024 * 1024;

const normaliseEmail = (email: string) => email.trim().toLowerCase();

const applyStatusEvent = (user: User, event: AccountEvent) => {
  const next = statusAfter(user, event);
  return next === null
    ? Effect.fail(new Conflict({ message: `This account cannot do that while its status is ${user.status}.` }))
    : Effect.succeed(next);
};

export const newUser = (fields: {
  id: string;
  email: string;
  passwordHash: string;
  type: UserType;
  firstName: string;
  lastName: string;
  phone: string | null;
  at: Date;
}): User => ({
  id: fields.id,
  email: normaliseEmail(fields.email),
  passwordHash: fields.passwordHash,
  type: fields.type,
  status: "EmailVerificationRequired",
  firstName: fields.firstName,
  lastName: fields.lastName,
  phone: fields.phone,
  faxNumber: null,
  emailVerifiedAt: null,
  passwordChangedAt: fields.at,
  photoKey: null,
  photoType: null,
  disclaimerAcceptedAt: null,
  baaSignedAt: null,
  quizPassedAt: null,
  npi: null,
  practiceVerifiedAt: null,
  createdAt: fields.at,
});

/**
 * Writes a fresh verification link for the user (older links stop working) and returns the mail
 * that carries it. Callers send it after their transaction commits, so no mail ever carries a
 * link that was rolled back, and no transaction waits on a mail server.
 */
const issueVerificationLink = (user: User) =>
  Effect.gen(function* () {
    const config = yield* AccountsConfig;
    const random = yield* Random;
    const secrets = yield* Secrets;
    const tokens = yield* OneTimeTokens;
    const at = yield* now;
    const token = random.secret(32);
    const expires = Math.floor(at.getTime() / 1000) + config.verificationTtlSeconds;
    yield* tokens.retireAll(user.id, "email_verification", at);
    yield* tokens.insert({
      id: random.identifier(),
      userId: user.id,
      purpose: "email_verification",
      digest: secrets.digest(token),
      expiresAt: new Date(expires * 1000),
      consumedAt: null,
      createdAt: at,
    });
    const signature = secrets.sign(verificationPayload(user.id, token, expires));
    const url = `${config.publicUrl}/verify-email?id=${encodeURIComponent(user.id)}&token=${encodeURIComponent(token)}&expires=${expires}&signature=${signature}`;
    return verificationMail(user.email, user.firstName, url, Math.round(config.verificationTtlSeconds / 3600));
  });

const send = (mail: OutgoingMail) => Effect.flatMap(Mailer, (mailer) => mailer.send(mail));

const verificationPayload = (id: string, token: string, expires: number) => `verify-email|${id}|${token}|${expires}`;

// ---- Sign-up and verification --------------------------------------------------------------------

export const signUp = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(SignUpRequest, input);
    const npi = request.npi ? normaliseNpi(request.npi) : null;
    if (request.type === "physician" && npi === null) return yield* ValidationFailed.field("npi", NPI_MESSAGES.required);
    yield* throttle(`sign-up:addr:${yield* clientAddress}`, LIMITS.signUpPerAddress);
    yield* throttle(`sign-up:acct:${normaliseEmail(request.email)}`, LIMITS.signUpPerAccount);
    const users = yield* Users;
    const random = yield* Random;
    const at = yield* now;
    const passwordHash = yield* (yield* PasswordHasher).hash(request.password);
    const [user, mail] = yield* transaction(
      Effect.gen(function* () {
        if (Option.isSome(yield* users.findByEmail(normaliseEmail(request.email)))) {
          return yield* ValidationFailed.field("email", MESSAGES.emailTaken);
        }
        const created: User = {
          ...newUser({
            id: random.identifier(),
            email: request.email,
            passwordHash,
            type: request.type,
            firstName: request.first_name,
            lastName: request.last_name,
            phone: request.phone,
            at,
          }),
          // Only a physician's; their practice is being verified until an admin verifies it (ADR 25).
          npi: request.type === "physician" ? npi : null,
        };
        yield* users.insert(created);
        const link = yield* issueVerificationLink(created);
        yield* audit({ action: "account.sign_up", actorId: created.id, subjectId: created.id, details: { type: created.type } });
        return [created, link] as const;
      }),
    );
    yield* send(mail);
    return { identifier: user.id, email: user.email, type: user.type, status: user.status };
  });

export const verifyEmail = (id: string, token: string, query: unknown) =>
  Effect.gen(function* () {
    const bad = ValidationFailed.field("token", MESSAGES.badVerificationLink);
    const { expires, signature } = yield* Effect.mapError(validate(VerifyEmailQuery, query), () => bad);
    const secrets = yield* Secrets;
    const at = yield* now;
    if (!secrets.verifySignature(verificationPayload(id, token, expires), signature) || expires * 1000 < at.getTime()) {
      return yield* bad;
    }
    const users = yield* Users;
    const tokens = yield* OneTimeTokens;
    return yield* transaction(
      Effect.gen(function* () {
        const user = yield* Effect.flatMap(users.findById(id), Option.match({ onNone: () => Effect.fail(bad), onSome: Effect.succeed }));
        if (user.emailVerifiedAt !== null) {
          return { message: MESSAGES.alreadyVerified, results: { status: user.status, type: user.type } };
        }
        const consumed = yield* tokens.consume("email_verification", secrets.digest(token), at);
        if (Option.isNone(consumed) || consumed.value.userId !== user.id) return yield* bad;
        const status = yield* applyStatusEvent(user, { type: "EMAIL_VERIFIED" });
        yield* users.update(user.id, { emailVerifiedAt: at, status });
        yield* audit({ action: "account.email_verified", actorId: user.id, subjectId: user.id });
        return { message: MESSAGES.verified, results: { status, type: user.type } };
      }),
    );
  });

/** Answers the same whether or not the address is known, so it reveals nothing. */
export const resendVerification = (input: unknown) =>
  Effect.gen(function* () {
    const { email } = yield* validate(EmailRequest, input);
    const address = normaliseEmail(email);
    yield* throttle(`verify-mail:addr:${yield* clientAddress}`, LIMITS.mailPerAddress);
    yield* throttle(`verify-mail:acct:${address}`, LIMITS.mailPerAccount);
    const user = yield* (yield* Users).findByEmail(address);
    if (Option.isSome(user) && user.value.emailVerifiedAt === null && accountCan(user.value, { type: "EMAIL_VERIFIED" })) {
      yield* send(yield* transaction(issueVerificationLink(user.value)));
    }
    return { message: MESSAGES.verificationSent };
  });

// ---- Sessions -------------------------------------------------------------------------------------

const isInternalOrPractice = (type: UserType) => type !== "parent";

export const sessionLifetime = (type: UserType, rememberMe: boolean, config: typeof AccountsConfig.Service) =>
  isInternalOrPractice(type)
    ? { absoluteSeconds: config.staffAbsoluteSeconds, idleSeconds: config.staffIdleSeconds as number | null }
    : { absoluteSeconds: rememberMe ? config.parentRememberSeconds : config.parentAbsoluteSeconds, idleSeconds: null };

/** Opens a session and returns its token; only the token's digest is stored. */
export const openSession = (user: User, options: { rememberMe: boolean; deviceType: string }) =>
  Effect.gen(function* () {
    const config = yield* AccountsConfig;
    const random = yield* Random;
    const secrets = yield* Secrets;
    const at = yield* now;
    const token = random.secret(32);
    const lifetime = sessionLifetime(user.type, options.rememberMe, config);
    const session: Session = {
      id: random.identifier(),
      userId: user.id,
      tokenDigest: secrets.digest(token),
      createdAt: at,
      lastSeenAt: at,
      expiresAt: new Date(at.getTime() + lifetime.absoluteSeconds * 1000),
      idleTimeoutSeconds: lifetime.idleSeconds,
      revokedAt: null,
      deviceType: options.deviceType,
    };
    yield* (yield* Sessions).insert(session);
    return { token, session };
  });

export const isFirstLogin = (user: User) => (user.type === "physician" ? user.baaSignedAt === null : user.disclaimerAcceptedAt === null);
export const isQuizTime = (user: User) =>
  (user.type === "parent" || user.type === "physician" || user.type === "physician_staff") && user.quizPassedAt === null;

export const signIn = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(SignInRequest, input);
    const email = normaliseEmail(request.email);
    const at = yield* now;
    const address = yield* clientAddress;
    yield* throttle(`sign-in:addr:${address}`, LIMITS.signInPerAddress);
    const users = yield* Users;
    const found = yield* users.findByEmail(email);
    // The failure counters belong to the current password, so a reset link lets the owner in at once.
    const epoch = Option.isSome(found) ? found.value.passwordChangedAt.getTime() : 0;
    // While a delay earned by failures runs, no password is checked, not even the right one.
    yield* awaitSignInTurn(email, epoch, address, MESSAGES.tooManyAttempts);
    // A dummy hash keeps the time of an unknown address close to that of a wrong password.
    const hasher = yield* PasswordHasher;
    const matches = Option.isSome(found)
      ? yield* hasher.verify(found.value.passwordHash, request.password)
      : yield* Effect.as(hasher.hash(request.password), false);
    if (!matches || Option.isNone(found)) {
      yield* recordSignInFailure(email, epoch, address);
      yield* audit({ action: "account.sign_in_failed", actorId: Option.isSome(found) ? found.value.id : null, details: { email } });
      return yield* ValidationFailed.field("email", MESSAGES.badCredentials);
    }
    yield* clearSignInFailures(email, epoch, address);

    const user = found.value;
    if (user.status === "EmailVerificationRequired") {
      return yield* new Forbidden({ message: MESSAGES.emailNotVerified, status: "EmailVerificationRequired" });
    }
    if (user.status === "Blocked") return yield* new Forbidden({ message: MESSAGES.blocked, status: "Blocked" });
    const config = yield* AccountsConfig;
    if (config.passwordMaxAgeDays > 0 && at.getTime() - user.passwordChangedAt.getTime() > config.passwordMaxAgeDays * 86_400_000) {
      return yield* new Forbidden({ message: MESSAGES.passwordExpired, status: "PasswordExpired" });
    }
    const { token, session } = yield* openSession(user, { rememberMe: request.remember_me === true, deviceType: request.device_type ?? "web" });
    yield* audit({ action: "account.sign_in", actorId: user.id, subjectId: user.id, details: { device_type: request.device_type ?? "web" } });
    // The absolute end tells a remembering client how long to keep the token (ADR 32).
    return { token, user, expiresAt: session.expiresAt };
  });

/** Resolves a bearer token to its caller; every failure is the same 401. */
export const authenticate = (token: string | null) =>
  Effect.gen(function* () {
    const unauthenticated = new Unauthenticated({ message: Unauthenticated.default });
    if (!token) return yield* unauthenticated;
    const secrets = yield* Secrets;
    const sessions = yield* Sessions;
    const at = yield* now;
    const found = yield* sessions.findByDigest(secrets.digest(token));
    if (Option.isNone(found)) return yield* unauthenticated;
    const session = found.value;
    const idleExpired = session.idleTimeoutSeconds !== null && at.getTime() - session.lastSeenAt.getTime() > session.idleTimeoutSeconds * 1000;
    if (session.revokedAt !== null || session.expiresAt.getTime() <= at.getTime() || idleExpired) return yield* unauthenticated;
    const user = yield* (yield* Users).findById(session.userId);
    if (Option.isNone(user) || user.value.status === "Blocked") return yield* unauthenticated;
    // Touch at most once a minute: the idle limit is in minutes, and it spares a write per request.
    if (at.getTime() - session.lastSeenAt.getTime() > 60_000) yield* sessions.touch(session.id, at);
    return { user: user.value, session } satisfies Caller;
  });

export const signOut = Effect.gen(function* () {
  const { user, session } = yield* CurrentUser;
  yield* (yield* Sessions).revoke(session.id, yield* now);
  // Open event streams of this session close now rather than at their next check.
  const live = yield* Effect.serviceOption(LiveEvents);
  if (Option.isSome(live)) yield* live.value.sessionEnded(session.id);
  yield* audit({ action: "account.sign_out", actorId: user.id, subjectId: user.id });
  // The spec's sign-out after a child submission that waits for an administrator.
  return { message: user.status === "WaitingApproval" ? MESSAGES.signedOutWaitingApproval : MESSAGES.signedOut };
});

// ---- Passwords ----------------------------------------------------------------------------------

export const recoverPassword = (input: unknown) =>
  Effect.gen(function* () {
    const { email } = yield* validate(EmailRequest, input);
    const address = normaliseEmail(email);
    yield* throttle(`recover:addr:${yield* clientAddress}`, LIMITS.mailPerAddress);
    yield* throttle(`recover:acct:${address}`, LIMITS.mailPerAccount);
    const found = yield* (yield* Users).findByEmail(address);
    const user = Option.filter(found, (u) => u.status !== "Blocked");
    // Known or not, the same work: a token, one transaction with an audit row, one queued mail;
    // only the mail's words differ (no timing tells whether the address has an account).
    const config = yield* AccountsConfig;
    const random = yield* Random;
    const secrets = yield* Secrets;
    const tokens = yield* OneTimeTokens;
    const at = yield* now;
    const token = random.secret(32);
    const digest = secrets.digest(token);
    const mail = yield* transaction(
      Effect.gen(function* () {
        yield* audit({ action: "account.password_reset_requested", actorId: null, subjectId: Option.isSome(user) ? user.value.id : null });
        // No account: the same token statement (it matches nothing), like sign-in's dummy hash.
        yield* tokens.retireAll(Option.isSome(user) ? user.value.id : random.identifier(), "password_reset", at);
        if (Option.isNone(user)) return resetUnavailableMail(address, `${config.publicUrl}/sign-up`);
        yield* tokens.insert({
          id: random.identifier(),
          userId: user.value.id,
          purpose: "password_reset",
          digest,
          expiresAt: new Date(at.getTime() + config.resetTtlSeconds * 1000),
          consumedAt: null,
          createdAt: at,
        });
        const url = `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.value.email)}`;
        return passwordResetMail(user.value.email, user.value.firstName, url, Math.round(config.resetTtlSeconds / 60));
      }),
    );
    yield* send(mail);
    return { message: MESSAGES.resetSent };
  });

export const resetPassword = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ResetPasswordRequest, input);
    const secrets = yield* Secrets;
    const users = yield* Users;
    const at = yield* now;
    const passwordHash = yield* (yield* PasswordHasher).hash(request.password);
    const { user, mails } = yield* transaction(
      Effect.gen(function* () {
        const tokens = yield* OneTimeTokens;
        const digest = secrets.digest(request.token);
        // An invitation link (staff, caregivers) works like a reset link that also proves the e-mail.
        const reset = yield* tokens.consume("password_reset", digest, at);
        const consumed = Option.isSome(reset) ? reset : yield* tokens.consume("invitation", digest, at);
        if (Option.isNone(consumed)) return yield* ValidationFailed.field("token", MESSAGES.badResetLink);
        const user = yield* Effect.flatMap(users.findById(consumed.value.userId), Option.match({
          onNone: () => Effect.fail(ValidationFailed.field("token", MESSAGES.badResetLink)),
          onSome: Effect.succeed,
        }));
        yield* users.update(user.id, { passwordHash, passwordChangedAt: at });
        yield* (yield* Sessions).revokeAllForUser(user.id, at);
        yield* audit({ action: "account.password_reset", actorId: user.id, subjectId: user.id });
        if (consumed.value.purpose === "invitation" && user.emailVerifiedAt === null) {
          // An invited account starts without a name (staff) or with the patient's last name (caregivers):
          // the invitee names themself here, as sign-up would have asked.
          const names = yield* validate(InvitationNames, { first_name: request.first_name || user.firstName, last_name: request.last_name || user.lastName });
          const status = yield* applyStatusEvent(user, { type: "EMAIL_VERIFIED" });
          yield* users.update(user.id, { emailVerifiedAt: at, status, firstName: names.first_name, lastName: names.last_name });
          yield* audit({ action: "account.invitation_accepted", actorId: user.id, subjectId: user.id, details: { from: user.status, to: status } });
          const hooks = yield* Effect.serviceOption(AccountHooks);
          // The hooks' mails (e.g. "your invitation was accepted") go out after the commit, like ours.
          const hookMails = Option.isSome(hooks)
            ? yield* hooks.value.invitationAccepted({ ...user, passwordHash, emailVerifiedAt: at, status, firstName: names.first_name, lastName: names.last_name })
            : [];
          return { user, mails: hookMails };
        }
        return { user, mails: [passwordChangedMail(user.email, user.firstName)] };
      }),
    );
    for (const mail of mails) yield* send(mail);
    return { message: MESSAGES.passwordChanged };
  });

export const changePassword = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ChangePasswordRequest, input);
    const { user, session } = yield* CurrentUser;
    const hasher = yield* PasswordHasher;
    const at = yield* now;
    yield* throttle(`change-password:${user.id}`, LIMITS.changePasswordPerAccount);
    if (!(yield* hasher.verify(user.passwordHash, request.old_password))) {
      yield* audit({ action: "account.password_change_failed", actorId: user.id, subjectId: user.id });
      return yield* ValidationFailed.field("old_password", MESSAGES.wrongOldPassword);
    }
    if (request.old_password === request.new_password) return yield* ValidationFailed.field("new_password", MESSAGES.samePassword);
    const passwordHash = yield* hasher.hash(request.new_password);
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* Users).update(user.id, { passwordHash, passwordChangedAt: at });
        yield* (yield* Sessions).revokeAllForUser(user.id, at, session.id);
        yield* audit({ action: "account.password_changed", actorId: user.id, subjectId: user.id });
      }),
    );
    yield* send(passwordChangedMail(user.email, user.firstName));
    return { message: MESSAGES.passwordChanged };
  });

// ---- Profile ------------------------------------------------------------------------------------

export const profileOf = (user: User) => ({
  identifier: user.id,
  first_name: user.firstName,
  last_name: user.lastName,
  email: user.email,
  phone: user.phone,
  type: user.type,
  status: user.status,
  photo: user.photoKey ? `/api/v1/en/user/profile-photo?v=${encodeURIComponent(user.photoKey.split("/").pop() ?? "")}` : null,
  ...(user.type === "physician" ? { fax_number: user.faxNumber, npi: user.npi, practice_verification: practiceVerification(user) } : {}),
});

export const readProfile = Effect.gen(function* () {
  const { user } = yield* CurrentUser;
  yield* audit({ action: "profile.read", actorId: user.id, subjectId: user.id });
  return profileOf(user);
});

export const updateProfile = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ProfileUpdateRequest, input);
    const { user } = yield* CurrentUser;
    const patch = {
      firstName: request.first_name,
      lastName: request.last_name,
      phone: request.phone,
      // Fax numbers are kept only for physicians; e-mail is never editable here.
      ...(user.type === "physician" ? { faxNumber: request.fax_number ? request.fax_number : null } : {}),
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* Users).update(user.id, patch);
        yield* audit({ action: "profile.updated", actorId: user.id, subjectId: user.id, details: { fields: Object.keys(patch) } });
      }),
    );
    return { ...user, ...patch };
  });

/** Replaces the profile photo; the type is decided by the bytes, and only PNG and JPEG pass. */
export const updateProfilePhoto = (bytes: Uint8Array | null) =>
  Effect.gen(function* () {
    const { user } = yield* CurrentUser;
    if (bytes === null || bytes.length === 0) return yield* ValidationFailed.field("profile_photo", MESSAGES.photoMissing);
    if (bytes.length > PROFILE_PHOTO_MAX_BYTES) {
      return yield* ValidationFailed.field("profile_photo", "The profile photo must be at most 5 MB.");
    }
    const kind = yield* (yield* ContentSniffer).sniff(bytes.subarray(0, 4100));
    if (Option.isNone(kind) || (kind.value.mime !== "image/png" && kind.value.mime !== "image/jpeg")) {
      return yield* ValidationFailed.field("profile_photo", MESSAGES.photoType);
    }
    const blobs = yield* BlobStore;
    const key = `profile-photos/${user.id}/${(yield* Random).identifier()}.${kind.value.ext}`;
    yield* blobs.put(key, bytes, kind.value.mime);
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* Users).update(user.id, { photoKey: key, photoType: kind.value.mime });
        yield* audit({ action: "profile.photo_updated", actorId: user.id, subjectId: user.id });
      }),
    );
    // The old photo goes only after the new one is committed, so a failure never leaves none.
    if (user.photoKey) yield* blobs.remove(user.photoKey);
    return { ...user, photoKey: key, photoType: kind.value.mime };
  });

export const removeProfilePhoto = Effect.gen(function* () {
  const { user } = yield* CurrentUser;
  yield* transaction(
    Effect.gen(function* () {
      yield* (yield* Users).update(user.id, { photoKey: null, photoType: null });
      yield* audit({ action: "profile.photo_removed", actorId: user.id, subjectId: user.id });
    }),
  );
  if (user.photoKey) yield* (yield* BlobStore).remove(user.photoKey);
  return { ...user, photoKey: null, photoType: null };
});

export const readProfilePhoto = Effect.gen(function* () {
  const { user } = yield* CurrentUser;
  const missing = NotFound.of("Profile photo");
  if (!user.photoKey) return yield* missing;
  const blob = yield* (yield* BlobStore).get(user.photoKey);
  if (Option.isNone(blob)) return yield* missing;
  return blob.value;
});

// ---- Administration (CLI and admin console) ------------------------------------------------------

/** Creates an Active, verified account directly (operators and demo data). */
export const createVerifiedUser = (fields: { email: string; password: string; type: UserType; firstName: string; lastName: string; phone?: string | null }) =>
  Effect.gen(function* () {
    const users = yield* Users;
    const at = yield* now;
    const email = normaliseEmail(fields.email);
    if (Option.isSome(yield* users.findByEmail(email))) return yield* ValidationFailed.field("email", MESSAGES.emailTaken);
    const passwordHash = yield* (yield* PasswordHasher).hash(fields.password);
    const user: User = {
      ...newUser({ id: (yield* Random).identifier(), email, passwordHash, type: fields.type, firstName: fields.firstName, lastName: fields.lastName, phone: fields.phone ?? null, at }),
      status: "Active",
      emailVerifiedAt: at,
      // An operator vouches for the accounts it creates: a physician's practice is verified at once.
      practiceVerifiedAt: fields.type === "physician" ? at : null,
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* users.insert(user);
        yield* audit({ action: "account.created_by_operator", actorId: null, subjectId: user.id, details: { type: user.type } });
      }),
    );
    return user;
  });

/** Moves an account through the status machine (approve, reject, block, unblock). */
export const changeStatus = (userId: string, event: AccountEvent, actorId: string | null) =>
  Effect.gen(function* () {
    const users = yield* Users;
    return yield* transaction(
      Effect.gen(function* () {
        const user = yield* Effect.flatMap(users.findById(userId), Option.match({ onNone: () => Effect.fail(NotFound.of("User")), onSome: Effect.succeed }));
        const status = yield* applyStatusEvent(user, event);
        yield* users.update(user.id, { status });
        if (status === "Blocked") yield* (yield* Sessions).revokeAllForUser(user.id, yield* now);
        yield* audit({ action: `account.${event.type.toLowerCase()}`, actorId, subjectId: user.id, details: { from: user.status, to: status } });
        return { ...user, status };
      }),
    );
  });

export const findUserByEmail = (email: string) => Effect.flatMap(Users, (users) => users.findByEmail(normaliseEmail(email)));
export { setPasswordByOperator } from "./operator.ts";
