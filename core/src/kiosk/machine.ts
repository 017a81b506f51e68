import { assign, enqueueActions, not, sendTo, setup, spawnChild, stateIn, stopChild } from "xstate";
import type { UserType } from "../accounts/lifecycle.ts";
import type { Language } from "../shared/i18n.ts";
import type { KioskRevocation } from "./revocation.ts";
import { autoCaptureComplete, type CapturedShot, enoughShots, goodShotCount, keepShot, minGoodShots } from "../capture/rules.ts";
import { type SubmissionReport, type SubmissionStep, submissionMachine, type UploadProgress } from "../capture/submission.ts";

/**
 * The kiosk tablet's lifecycle as one machine: paired (or not), the attract screen, a staff member
 * signed in with a PIN, a patient chosen, capturing, reviewing the shots, uploading, done, and back
 * to the attract screen; or revoked, for good. The React app only renders its state and sends it
 * events; side effects (starting an upload, releasing photos) are injected with `.provide(...)`.
 *
 * Patient data (the patient, the shots, the queued uploads) lives only in this context, in memory,
 * and every way back to the attract screen or to `done` wipes it: the property tests walk every path.
 *
 * The language (issue 21) is the session's: chosen on the tablet for one family, it holds until the
 * tablet is back on the attract screen (after done, a timeout, a sign-out, an ended session) or revoked,
 * and then the device's own default is back (`language: null`; the app knows the default).
 *
 * The shots follow the one set of capture rules (capture/rules.ts, docs/adr/0044-one-capture-machine.md):
 * Auto Capture's 10 good shots, and the minimum good shots of whoever signed in (a physician 3, their
 * staff 5), the same rule as the portal's capture page.
 */

export const DEFAULT_IDLE_TIMEOUT_MS = 2 * 60 * 1000;

export interface KioskDeviceInfo {
  readonly identifier: string;
  readonly name: string;
  /** The practice: the physician the device belongs to. */
  readonly practice: string;
}
export interface KioskStaff {
  readonly identifier: string;
  readonly name: string;
  /** The physician or one of their staff: decides the minimum good shots. */
  readonly role: UserType;
}
export interface KioskPatient {
  readonly identifier: string;
  readonly name: string;
  readonly date_of_birth?: string | null;
}
/** A captured frame. `image` is whatever the app holds (a Blob in the browser); core never reads it. */
export type KioskShot = CapturedShot;
export type UploadStep = SubmissionStep;
export type { UploadProgress };

/**
 * The upload is core's submission machine (capture/submission.ts, ADR 0161), invoked as the child
 * `submission` while `uploading`: it reports to this machine (UPLOAD_PROGRESS, FILE_SENT,
 * NETWORK_DOWN, UPLOAD_SUCCEEDED, UPLOAD_FAILED), and leaving `uploading` stops it, aborting its call.
 * The app provides its calls: `kioskSubmission.provide({ actors: submissionActors(ports) })`.
 */
export const kioskSubmission = submissionMachine.provide({
  actions: {
    reported: enqueueActions(({ enqueue }, report: SubmissionReport | null) => {
      if (report) enqueue.sendParent(report);
    }),
  },
});
/** Tries of one call while the network is down: about a minute (1+2+4+8+15+15+15 s) before back to review. */
export const KIOSK_UPLOAD_ATTEMPTS = 8;

export interface KioskContext {
  readonly device: KioskDeviceInfo | null;
  readonly idleTimeoutMs: number;
  readonly staff: KioskStaff | null;
  /** The kiosk session token of the signed-in staff member (ends after each patient). */
  readonly session: string | null;
  readonly patient: KioskPatient | null;
  readonly shots: ReadonlyArray<KioskShot>;
  /** Shots waiting to be sent; kept only in memory, and only until they are sent. */
  readonly queue: ReadonlyArray<KioskShot>;
  readonly upload: UploadProgress | null;
  readonly online: boolean;
  readonly error: string | null;
  /** The language chosen for this session; null is the device's default (the browser's language). */
  readonly language: Language | null;
  /** Once revoked: when and why, as the server told it (ADR 0170); null before, or when it did not say. */
  readonly revocation: KioskRevocation | null;
}

export interface KioskInput {
  readonly device?: KioskDeviceInfo | null;
  readonly idleTimeoutMs?: number;
  readonly online?: boolean;
}

export type KioskEvent =
  | { type: "PAIRED"; device: KioskDeviceInfo }
  /**
   * The server refused the device credential (any call, or the heartbeat every few seconds): the device was
   * revoked. `revocation` is its when and why from the 403; absent when the credential is simply unknown (401).
   */
  | { type: "REVOKED"; revocation?: KioskRevocation | null }
  | { type: "SIGNED_IN"; staff: KioskStaff; session: string }
  | { type: "SIGN_OUT" }
  /** No touch for the idle timeout. */
  | { type: "IDLE_TIMEOUT" }
  /** The server ended the kiosk session (expired or the staff member lost access). */
  | { type: "SESSION_ENDED" }
  | { type: "PATIENT_CHOSEN"; patient: KioskPatient }
  /** Back to the patient search (another patient). */
  | { type: "CHANGE_PATIENT" }
  | { type: "START_CAPTURE" }
  | { type: "SHOT_TAKEN"; shot: KioskShot }
  | { type: "STOP_CAPTURE" }
  | { type: "DISCARD_SHOT"; id: string }
  | { type: "RETAKE" }
  | { type: "UPLOAD" }
  /** The submission's reports (UPLOAD_PROGRESS, FILE_SENT: one queued shot reached the server and leaves the device's memory, …). */
  | SubmissionReport
  | { type: "NETWORK_DOWN" }
  | { type: "NETWORK_UP" }
  | { type: "FINISH" }
  /** English or Español, picked on the tablet for this session. */
  | { type: "CHOOSE_LANGUAGE"; language: Language };

const patientWiped = {
  patient: null,
  shots: [] as ReadonlyArray<KioskShot>,
  queue: [] as ReadonlyArray<KioskShot>,
  upload: null,
  error: null,
} satisfies Partial<KioskContext>;

/** The session's end wipes the patient's data and who was signed in. */
const wiped = { ...patientWiped, staff: null, session: null } satisfies Partial<KioskContext>;

/** The minimum good shots for the staff member signed in (capture/rules.ts, as on the portal). */
export const kioskMinimumShots = (context: Pick<KioskContext, "staff">) => minGoodShots(context.staff?.role);

/** True when the context holds nothing about a patient (the property every wipe must keep). */
export const holdsNoPatientData = (context: KioskContext) =>
  context.patient === null && context.shots.length === 0 && context.queue.length === 0 && context.upload === null;

export const kioskMachine = setup({
  types: {} as { context: KioskContext; events: KioskEvent; input: KioskInput },
  actors: { submission: kioskSubmission },
  guards: {
    paired: ({ context }) => context.device !== null,
    enoughShots: ({ context }) => enoughShots(goodShotCount(context.shots), context.staff?.role),
    hasShots: ({ context }) => context.shots.length > 0,
    languageChosen: ({ context }) => context.language !== null,
    allShotsTaken: ({ context }) => autoCaptureComplete(context.shots),
  },
  actions: {
    wipeSession: assign(() => wiped),
    wipePatient: assign(() => patientWiped),
    wipeEverything: assign(() => ({ ...wiped, device: null, language: null })),
    /** Back to the device's default language: the session that chose another one is over. */
    defaultLanguage: assign({ language: null }),
    /** Hook for the app: release what the wiped context pointed to (object URLs, camera frames). */
    released: () => undefined,
  },
}).createMachine({
  id: "kiosk",
  context: ({ input }) => ({
    device: input.device ?? null,
    idleTimeoutMs: input.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    online: input.online ?? true,
    language: null,
    revocation: null,
    ...wiped,
  }),
  initial: "starting",
  // Guarded so that even a pure `transition` from the final `revoked` state changes nothing.
  on: {
    // The when and why is kept (it is about the tablet, not a patient); the revoked state's entry wipes the rest.
    REVOKED: { guard: not(stateIn("revoked")), target: ".revoked", actions: assign({ revocation: ({ event }) => event.revocation ?? null }) },
    NETWORK_DOWN: { guard: not(stateIn("revoked")), actions: assign({ online: false }) },
    NETWORK_UP: { guard: not(stateIn("revoked")), actions: assign({ online: true }) },
    CHOOSE_LANGUAGE: { guard: not(stateIn("revoked")), actions: assign({ language: ({ event }) => event.language }) },
  },
  states: {
    starting: { always: [{ guard: "paired", target: "idle" }, { target: "unpaired" }] },
    unpaired: {
      on: { PAIRED: { target: "idle", actions: assign({ device: ({ event }) => event.device }) } },
    },
    /** The attract screen: nobody signed in, nothing about any patient on the device. */
    idle: {
      entry: ["wipeSession", "released", "defaultLanguage"],
      on: {
        // A language picked here for a session that never started goes back to the default, unattended.
        IDLE_TIMEOUT: { guard: "languageChosen", actions: "defaultLanguage" },
        SIGNED_IN: { target: "signedIn", actions: assign({ staff: ({ event }) => event.staff, session: ({ event }) => event.session }) },
      },
    },
    signedIn: {
      entry: ["wipePatient", "released"],
      on: {
        PATIENT_CHOSEN: { target: "patientChosen", actions: assign({ patient: ({ event }) => event.patient }) },
        IDLE_TIMEOUT: "idle",
        SIGN_OUT: "idle",
        SESSION_ENDED: "idle",
      },
    },
    patientChosen: {
      on: {
        START_CAPTURE: "capturing",
        CHANGE_PATIENT: "signedIn",
        IDLE_TIMEOUT: "idle",
        SIGN_OUT: "idle",
        SESSION_ENDED: "idle",
      },
    },
    capturing: {
      always: { guard: "allShotsTaken", target: "reviewing" },
      on: {
        SHOT_TAKEN: { actions: assign({ shots: ({ context, event }) => keepShot("auto", context.shots, event.shot) }) },
        STOP_CAPTURE: { guard: "hasShots", target: "reviewing" },
        CHANGE_PATIENT: "signedIn",
        IDLE_TIMEOUT: "idle",
        SIGN_OUT: "idle",
        SESSION_ENDED: "idle",
      },
    },
    reviewing: {
      on: {
        DISCARD_SHOT: { actions: [assign({ shots: ({ context, event }) => context.shots.filter((s) => s.id !== event.id) }), "released"] },
        RETAKE: { target: "capturing", actions: [assign({ shots: [], error: null }), "released"] },
        UPLOAD: { guard: "enoughShots", target: "uploading" },
        CHANGE_PATIENT: "signedIn",
        IDLE_TIMEOUT: "idle",
        SIGN_OUT: "idle",
        SESSION_ENDED: "idle",
      },
    },
    /**
     * The shots move to the in-memory queue and leave it one by one as the server stores them (the
     * submission child sends them). The idle timeout does not interrupt an upload (the queue would be
     * lost); a dropped network keeps the queue while the child tries again (a bounded number of times,
     * at once when the network is back), then the shots are back in review with the reason.
     */
    uploading: {
      entry: [
        assign({
          queue: ({ context }) => context.shots,
          upload: ({ context }) => ({ step: "prepare" as const, sent: 0, total: context.shots.length, reportIdentifier: null }),
          error: null,
        }),
        // Spawned and stopped by hand rather than invoked, the same lifetime: xstate/graph's test model refuses invocations.
        spawnChild("submission", {
          id: "submission",
          input: ({ context }) => ({
            files: context.shots.map((s) => ({ id: s.id, name: `kiosk-${s.id}.jpg`, size: 1, content: s.image })),
            maxAttempts: KIOSK_UPLOAD_ATTEMPTS,
            byHand: false,
          }),
        }),
      ],
      // Leaving (done, failed, revoked, session ended) stops the child: its call in flight is aborted.
      exit: stopChild("submission"),
      on: {
        UPLOAD_PROGRESS: { actions: assign({ upload: ({ event }) => event.progress }) },
        FILE_SENT: { actions: assign({ queue: ({ context, event }) => context.queue.filter((s) => s.id !== event.id) }) },
        UPLOAD_SUCCEEDED: "done",
        UPLOAD_FAILED: { target: "reviewing", actions: assign({ queue: [], upload: null, error: ({ event }) => event.message }) },
        NETWORK_UP: { actions: [assign({ online: true }), sendTo("submission", { type: "RESUME" })] },
        SESSION_ENDED: "idle",
      },
    },
    /** Uploaded: the patient's data is already gone; the session ends with this patient (its language until the attract screen). */
    done: {
      entry: ["wipeSession", "released"],
      on: { FINISH: "idle", IDLE_TIMEOUT: "idle" },
    },
    revoked: { type: "final", entry: ["wipeEverything", "released"] },
  },
});

export type KioskState = "starting" | "unpaired" | "idle" | "signedIn" | "patientChosen" | "capturing" | "reviewing" | "uploading" | "done" | "revoked";

/** Paired and not revoked: the tablet reports to the server (the heartbeat) in every state but these. */
export const reachesServer = (state: KioskState) => state !== "starting" && state !== "unpaired" && state !== "revoked";
