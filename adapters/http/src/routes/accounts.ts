import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { Accounts, ChangePasswordRequest, EmailRequest, LanguageRequest, ProfileUpdateRequest, ResetPasswordRequest, SignInRequest, SignUpRequest, Onboarding } from "@crown/core";
import { RemovalRequestBody, requestRemoval } from "@crown/core/accounts/removal";
import { endOtherSessions, endSession, listSessions } from "@crown/core/accounts/devices";
import { DEVICE_MESSAGES, SessionIdentifierRequest } from "@crown/core/accounts/devices-schemas";
import { DownloadExportRequest, downloadExport, FAMILY_DATA_MESSAGES, listExports, requestExport } from "@crown/core/family-data/index";
import { ok, runUseCase } from "../effect-bridge.ts";
import type { Env } from "../env.ts";
import { takesJson, takesQuery } from "../wire-input.ts";
import { requireCaller, requireCallerDuringSetup } from "../middleware.ts";
import { documented } from "../openapi.ts";
import { formBody, jsonBody } from "../request.ts";

const tag = "Accounts";
documented({ method: "post", path: "/user/sign-up", summary: "Sign up as a parent, physician or other", tag, auth: false, body: SignUpRequest });
documented({ method: "post", path: "/user/sign-in", summary: "Sign in; answers the session token, its absolute end (expires_at; 30 days for a parent with remember_me) and the onboarding flags", tag, auth: false, body: SignInRequest });
documented({ method: "get", path: "/email/verify/:id/:token", summary: "Verify an e-mail address from the signed link (query: expires, signature)", tag, auth: false });
documented({ method: "post", path: "/email/verify", summary: "Resend the verification link (same answer whether or not the e-mail exists)", tag, auth: false, body: EmailRequest });
documented({ method: "post", path: "/user/password/recover", summary: "Mail a password reset link (same answer whether or not the e-mail exists)", tag, auth: false, body: EmailRequest });
documented({ method: "post", path: "/user/password/reset", summary: "Set a new password with a reset token", tag, auth: false, body: ResetPasswordRequest });
documented({ method: "post", path: "/user/password/change", summary: "Change the password (revokes the other sessions)", tag, auth: true, body: ChangePasswordRequest });
documented({ method: "get", path: "/user/profile", summary: "Read the caller's profile", tag, auth: true });
documented({ method: "post", path: "/user/language", summary: "Choose the language of the caller's e-mails, reports and portal (en or es)", tag, auth: true, body: LanguageRequest });
documented({ method: "post", path: "/user/profile", summary: "Update first name, last name, phone (and fax for physicians), or the profile photo (multipart profile_photo with profile_photo_action update|remove)", tag, auth: true, body: ProfileUpdateRequest });
documented({ method: "get", path: "/user/profile-photo", summary: "The caller's profile photo as an image", tag, auth: true, response: "binary" });
documented({ method: "post", path: "/user/remove-account", summary: "Ask Crown to remove the account: confirms with the password (base64), records the request once, audits it and e-mails a confirmation; admins see it under /admin/removal-requests", tag, auth: true, body: RemovalRequestBody });
documented({ method: "post", path: "/user/proof", summary: "Confirm it is you with the password (base64): the sensitive actions (e-mail, password, second factor, export, deletion) need a proof under 10 minutes old (403 ProofRequired otherwise)", tag, auth: true, body: Accounts.ProofRequest });
documented({ method: "get", path: "/user/sessions", summary: "The caller's signed-in devices: every live session (identifier, current, browser, browser_version, os, kind, country from a shipped database or null, first_seen, last_seen), this one first", tag, auth: true });
documented({ method: "post", path: "/user/sessions/end", summary: "End another of the caller's sessions (identifier): its next call is 401 and its event streams close; audited", tag, auth: true, body: SessionIdentifierRequest });
documented({ method: "post", path: "/user/sessions/end-others", summary: "End every session of the caller but this one (results: ended); audited", tag, auth: true });
documented({ method: "post", path: "/user/data-exports", summary: "Parents: prepare an archive of everything Crown holds about the caller and their children (needs a proof within 10 minutes, 403 ProofRequired otherwise); one at a time; the link is e-mailed when ready", tag, auth: true });
documented({ method: "get", path: "/user/data-exports", summary: "The caller's latest data exports with their progress (status, items_done, items_total, expires_at)", tag, auth: true });
documented({ method: "post", path: "/user/data-exports/download", summary: "Download an export with the e-mailed link's identifier and token: the caller's own, a proof within 10 minutes, once, within 24 hours (409 otherwise); answers application/zip; audited", tag, auth: true, body: DownloadExportRequest, response: "binary" });
documented({ method: "post", path: "/user/sign-in/passkey/options", summary: "A WebAuthn challenge for signing in with a passkey (optional email narrows it to that account's passkeys; the same answer for an unknown address)", tag, auth: false, body: Accounts.PasskeyOptionsRequest });
documented({ method: "post", path: "/user/sign-in/passkey", summary: "Sign in with a passkey alone (both factors): the browser's WebAuthn answer; answers as /user/sign-in", tag, auth: false, body: Accounts.PasskeyResponseRequest });
documented({ method: "get", path: "/user/second-factor", summary: "The caller's two-step sign-in: on or off, required, the app, recovery codes left, passkeys", tag, auth: true });
documented({ method: "post", path: "/user/second-factor/app", summary: "Start setting up an authenticator app: its secret and otpauth:// address (for the QR code); needs a proof under 10 minutes old", tag, auth: true });
documented({ method: "post", path: "/user/second-factor/app/confirm", summary: "Confirm the app with its current code; a first factor answers ten recovery codes, shown once", tag, auth: true, body: Accounts.CodeRequest });
documented({ method: "post", path: "/user/second-factor/app/remove", summary: "Remove the authenticator app (never the last factor of a physician, staff member, reviewer or admin)", tag, auth: true });
documented({ method: "post", path: "/user/second-factor/recovery-codes", summary: "Ten new recovery codes; the old ones stop working", tag, auth: true });
documented({ method: "post", path: "/user/second-factor/off", summary: "Turn two-step sign-in off (parents and other accounts that do not require it)", tag, auth: true });
documented({ method: "post", path: "/user/passkeys/options", summary: "A WebAuthn challenge for adding a passkey (platform or roaming)", tag, auth: true });
documented({ method: "post", path: "/user/passkeys", summary: "Add a passkey from the browser's WebAuthn answer (optional name); a first factor answers ten recovery codes", tag, auth: true, body: Accounts.AddPasskeyRequest });
documented({ method: "post", path: "/user/passkeys/remove", summary: "Remove one of the caller's passkeys", tag, auth: true, body: Accounts.ResetSecondFactorRequest });
documented({ method: "post", path: "/user/proof/passkey/options", summary: "A WebAuthn challenge for proving it is you with one of your passkeys", tag, auth: true });
documented({ method: "post", path: "/user/proof/passkey", summary: "Prove it is you with a passkey (a fresh proof for 10 minutes)", tag, auth: true, body: Accounts.PasskeyResponseRequest });
documented({ method: "get", path: "/user/sign-out", summary: "Sign out (revokes this session)", tag, auth: true });

/** Core's photo limit, and room for the multipart framing around it (the domain checks the photo itself). */
const PHOTO_LIMIT = Accounts.PROFILE_PHOTO_MAX_BYTES + 1024 * 1024;

/** Accounts calls; the sign-in and profile answers are onboarding's (the account with its next step, ADR 0145). */
export const accountsRoutes = () =>
  new Hono<Env>()
    .post("/user/sign-up", takesJson(SignUpRequest), async (c) => {
      const results = await runUseCase(c, Accounts.signUp(await jsonBody(c)));
      return c.json(ok(Accounts.MESSAGES.signedUp, results), 201);
    })
    .post("/user/sign-in", takesJson(SignInRequest), async (c) => {
      const results = await runUseCase(c, Onboarding.signIn(await jsonBody(c)));
      return c.json(ok(Accounts.MESSAGES.signedIn, results), 200);
    })
    .post("/user/sign-in/passkey/options", takesJson(Accounts.PasskeyOptionsRequest), async (c) => {
      const { message, options } = await runUseCase(c, Accounts.passkeySignInOptions(await jsonBody(c)));
      return c.json(ok(message, { options }), 200);
    })
    .post("/user/sign-in/passkey", takesJson(Accounts.PasskeyResponseRequest), async (c) => {
      const results = await runUseCase(c, Onboarding.signInWithPasskey(await jsonBody(c)));
      return c.json(ok(Accounts.MESSAGES.signedIn, results), 200);
    })
    .get("/user/second-factor", requireCallerDuringSetup, async (c) => c.json(ok(Accounts.SECOND_FACTOR_MESSAGES.status, await runUseCase(c, Accounts.secondFactorStatus)), 200))
    .post("/user/second-factor/app", requireCallerDuringSetup, async (c) => {
      const { message, ...results } = await runUseCase(c, Accounts.startAuthenticatorApp);
      return c.json(ok(message, results), 200);
    })
    .post("/user/second-factor/app/confirm", takesJson(Accounts.CodeRequest), requireCallerDuringSetup, async (c) => {
      const { message, ...results } = await runUseCase(c, Accounts.confirmAuthenticatorApp(await jsonBody(c)));
      return c.json(ok(message, results), 200);
    })
    .post("/user/second-factor/app/remove", requireCaller, async (c) => {
      const { message } = await runUseCase(c, Accounts.removeAuthenticatorApp);
      return c.json(ok(message, null), 200);
    })
    .post("/user/second-factor/recovery-codes", requireCaller, async (c) => {
      const { message, ...results } = await runUseCase(c, Accounts.regenerateRecoveryCodes);
      return c.json(ok(message, results), 200);
    })
    .post("/user/second-factor/off", requireCaller, async (c) => {
      const { message } = await runUseCase(c, Accounts.turnOffSecondFactor);
      return c.json(ok(message, null), 200);
    })
    .post("/user/passkeys/options", requireCallerDuringSetup, async (c) => {
      const { message, options } = await runUseCase(c, Accounts.passkeyRegistrationOptions);
      return c.json(ok(message, { options }), 200);
    })
    .post("/user/passkeys", takesJson(Accounts.AddPasskeyRequest), requireCallerDuringSetup, async (c) => {
      const { message, ...results } = await runUseCase(c, Accounts.addPasskey(await jsonBody(c)));
      return c.json(ok(message, results), 200);
    })
    .post("/user/passkeys/remove", takesJson(Accounts.ResetSecondFactorRequest), requireCaller, async (c) => {
      const body = (await jsonBody(c)) as { identifier?: unknown };
      const { message } = await runUseCase(c, Accounts.removePasskey(typeof body?.identifier === "string" ? body.identifier : ""));
      return c.json(ok(message, null), 200);
    })
    .post("/user/proof/passkey/options", requireCallerDuringSetup, async (c) => {
      const { message, options } = await runUseCase(c, Accounts.passkeyProofOptions);
      return c.json(ok(message, { options }), 200);
    })
    .post("/user/proof/passkey", takesJson(Accounts.PasskeyResponseRequest), requireCallerDuringSetup, async (c) => {
      const { provedAt } = await runUseCase(c, Accounts.proveWithPasskey(await jsonBody(c)));
      return c.json(ok(Accounts.PROOF_MESSAGES.proved, { proved_at: provedAt.toISOString() }), 200);
    })
    .get("/email/verify/:id/:token", takesQuery<{ expires: string; signature: string }>(), async (c) => {
      const { message, results } = await runUseCase(c, Accounts.verifyEmail(c.req.param("id"), c.req.param("token"), c.req.query()));
      return c.json(ok(message, results), 200);
    })
    .post("/email/verify", takesJson(EmailRequest), async (c) => {
      const { message } = await runUseCase(c, Accounts.resendVerification(await jsonBody(c)));
      return c.json(ok(message, null), 200);
    })
    .post("/user/password/recover", takesJson(EmailRequest), async (c) => {
      const { message } = await runUseCase(c, Accounts.recoverPassword(await jsonBody(c)));
      return c.json(ok(message, null), 200);
    })
    .post("/user/password/reset", takesJson(ResetPasswordRequest), async (c) => {
      const { message } = await runUseCase(c, Accounts.resetPassword(await jsonBody(c)));
      return c.json(ok(message, null), 200);
    })
    .post("/user/password/change", takesJson(ChangePasswordRequest), requireCaller, async (c) => {
      const { message } = await runUseCase(c, Accounts.changePassword(await jsonBody(c)));
      return c.json(ok(message, null), 200);
    })
    .post("/user/language", takesJson(LanguageRequest), requireCallerDuringSetup, async (c) => {
      const language = await runUseCase(c, Accounts.changeLanguage(await jsonBody(c)));
      return c.json(ok(Accounts.MESSAGES.languageChanged, { language }), 200);
    })
    .get("/user/profile", requireCallerDuringSetup, async (c) => {
      return c.json(ok(Accounts.MESSAGES.profile, await runUseCase(c, Onboarding.readProfile)), 200);
    })
    .post(
      "/user/profile",
      // Who is asking first: a stranger's body is never read.
      requireCaller,
      bodyLimit({ maxSize: PHOTO_LIMIT, onError: (c) => c.json({ message: "The profile photo must be at most 5 MB." }, 413) }),
      async (c) => {
        const type = c.req.header("content-type") ?? "";
        if (type.includes("multipart/form-data")) {
          const form = await formBody(c);
          const action = typeof form.profile_photo_action === "string" ? form.profile_photo_action : undefined;
          if (action === "remove") {
            return c.json(ok(Accounts.MESSAGES.photoRemoved, await runUseCase(c, Onboarding.profileAfter(Accounts.removeProfilePhoto))), 200);
          }
          if (action === "update" || form.profile_photo instanceof File) {
            const file = form.profile_photo;
            const bytes = file instanceof File ? new Uint8Array(await file.arrayBuffer()) : null;
            return c.json(ok(Accounts.MESSAGES.profileUpdated, await runUseCase(c, Onboarding.profileAfter(Accounts.updateProfilePhoto(bytes)))), 200);
          }
        }
        const body = await jsonBody(c);
        return c.json(ok(Accounts.MESSAGES.profileUpdated, await runUseCase(c, Onboarding.profileAfter(Accounts.updateProfile(body)))), 200);
      },
    )
    .get("/user/profile-photo", requireCallerDuringSetup, async (c) => {
      const blob = await runUseCase(c, Accounts.readProfilePhoto);
      return new Response(blob.body, {
        status: 200,
        headers: { "content-type": blob.contentType, "content-length": String(blob.size), "cache-control": "private, no-store" },
      });
    })
    .post("/user/remove-account", takesJson(RemovalRequestBody), requireCaller, async (c) => {
      const { message, results } = await runUseCase(c, requestRemoval(await jsonBody(c)));
      return c.json(ok(message, results), 200);
    })
    .post("/user/proof", takesJson(Accounts.ProofRequest), requireCallerDuringSetup, async (c) => {
      const { message, provedAt } = await runUseCase(c, Accounts.proveWithPassword(await jsonBody(c)));
      return c.json(ok(message, { proved_at: provedAt.toISOString() }), 200);
    })
    .get("/user/sessions", requireCaller, async (c) => c.json(ok(DEVICE_MESSAGES.list, await runUseCase(c, listSessions)), 200))
    .post("/user/sessions/end", takesJson(SessionIdentifierRequest), requireCaller, async (c) => {
      const { message } = await runUseCase(c, endSession(await jsonBody(c)));
      return c.json(ok(message, null), 200);
    })
    .post("/user/sessions/end-others", requireCaller, async (c) => {
      const { message, ended } = await runUseCase(c, endOtherSessions);
      return c.json(ok(message, { ended }), 200);
    })
    .post("/user/data-exports", requireCaller, async (c) => {
      const { message, results } = await runUseCase(c, requestExport);
      return c.json(ok(message, results), 202);
    })
    .get("/user/data-exports", requireCaller, async (c) => c.json(ok(FAMILY_DATA_MESSAGES.exports, await runUseCase(c, listExports)), 200))
    .post("/user/data-exports/download", takesJson(DownloadExportRequest), requireCaller, async (c) => {
      const { blob, fileName } = await runUseCase(c, downloadExport(await jsonBody(c)));
      return new Response(blob.body, {
        status: 200,
        headers: {
          "content-type": "application/zip",
          "content-length": String(blob.size),
          "content-disposition": `attachment; filename="${fileName}"`,
          "cache-control": "private, no-store",
        },
      });
    })
    .get("/user/sign-out", requireCallerDuringSetup, async (c) => {
      const { message } = await runUseCase(c, Accounts.signOut);
      return c.json(ok(message, null), 200);
    });
