import { fc } from "@fast-check/vitest";
import { expect } from "vitest";
import { type AnyActorRef, type AnyMachineSnapshot, createActor, transition } from "xstate";
import { AUTO_CAPTURE_SHOTS, minGoodShots } from "../capture/rules.ts";
import { submissionActors } from "../capture/submission.ts";
import type { KioskRevocation } from "../kiosk/revocation.ts";
import { holdsNoPatientData, type KioskContext, type KioskEvent, type KioskInput, kioskMachine, kioskSubmission, type KioskStaff, type UploadStep } from "../kiosk/machine.ts";

/** The kiosk machine's test model: events made for each snapshot, the abstraction the graph walks, and the rules every step keeps. */

export const DEVICE = { identifier: "dev-1", name: "Exam room 2", practice: "Dr. Ada Grey" };
export const STAFF: KioskStaff = { identifier: "staff-1", name: "Nina Nurse", role: "physician_staff" };
/** A nurse signs in: the minimum good shots of provider staff (5), as on the portal. */
export const STAFF_MIN_SHOTS = minGoodShots(STAFF.role);
export const PATIENT = { identifier: "baby-1", name: "Baby Doe", date_of_birth: "2026-06-01" };
/** What the server's 403 DeviceRevoked tells the tablet (ADR 0170). */
export const REVOCATION: KioskRevocation = { revoked_at: "2026-11-29T03:00:00.000Z", reason: "lost_or_stolen" };

let shotSerial = 0;
const NEXT_STEP = { prepare: "upload", upload: "finalize", finalize: "finalize" } as const satisfies Record<UploadStep, UploadStep>;

/**
 * One event of every type, made for the snapshot it is sent in: each shot gets a fresh id, DISCARD_SHOT
 * names the first shot and FILE_SENT the first queued one, and UPLOAD_PROGRESS moves to the next step.
 * So the abstract effect of an event type depends only on the abstract state (see `abstraction`).
 */
export const eventsFor = (snapshot: AnyMachineSnapshot): KioskEvent[] => {
  const context = snapshot.context as KioskContext;
  const total = context.shots.length;
  return [
    { type: "PAIRED", device: DEVICE },
    { type: "REVOKED", revocation: REVOCATION },
    { type: "SIGNED_IN", staff: STAFF, session: "kiosk-session-token" },
    { type: "SIGN_OUT" },
    { type: "IDLE_TIMEOUT" },
    { type: "SESSION_ENDED" },
    { type: "PATIENT_CHOSEN", patient: PATIENT },
    { type: "CHANGE_PATIENT" },
    { type: "START_CAPTURE" },
    { type: "SHOT_TAKEN", shot: { id: `shot-${++shotSerial}`, image: { pixels: "..." } } },
    { type: "STOP_CAPTURE" },
    { type: "DISCARD_SHOT", id: context.shots[0]?.id ?? "none" },
    { type: "RETAKE" },
    { type: "UPLOAD" },
    {
      type: "UPLOAD_PROGRESS",
      progress: { step: context.upload ? NEXT_STEP[context.upload.step] : "prepare", sent: total - context.queue.length, total, reportIdentifier: "rep-1" },
    },
    { type: "FILE_SENT", id: context.queue[0]?.id ?? "none" },
    { type: "UPLOAD_SUCCEEDED" },
    { type: "UPLOAD_FAILED", message: "Oops! There was some error" },
    { type: "NETWORK_DOWN" },
    { type: "NETWORK_UP" },
    { type: "FINISH" },
    { type: "CHOOSE_LANGUAGE", language: "es" },
  ];
};
export const eventOf = (snapshot: AnyMachineSnapshot, type: string) => eventsFor(snapshot).find((e) => e.type === type)!;
export const ALL_EVENT_TYPES = eventsFor(createActor(kioskMachine, { input: {} }).getSnapshot()).map((e) => e.type);

/** States that must never hold patient data. */
export const WIPED_STATES = ["unpaired", "idle", "done", "revoked"];

/**
 * The full model's abstraction: everything the flow depends on (counts, flags and the upload step, not
 * contents). 0 to 10 shots, 0 to 10 queued, the network up or down, an error shown or not.
 */
export const abstraction = (snapshot: AnyMachineSnapshot) => {
  const c = snapshot.context as KioskContext;
  return JSON.stringify([
    snapshot.value,
    c.device !== null,
    c.staff !== null,
    c.session !== null,
    c.patient !== null,
    c.shots.length,
    c.queue.length,
    c.online,
    c.error !== null,
    c.upload?.step ?? null,
  ]);
};
export const byType = (event: KioskEvent) => event.type;

export const UNPAIRED: KioskInput = {};
export const PAIRED: KioskInput = { device: DEVICE, idleTimeoutMs: 60_000 };

export type Hook = "started" | "stopped" | "resumed" | "released";
/** The side-effect hooks the live actors ran since the last reset, as the app's would run. */
export const hooks: Hook[] = [];
const record = (hook: Hook) => () => void hooks.push(hook);
/**
 * The upload child's calls never answer: the tests play its part, sending its reports (UPLOAD_PROGRESS,
 * FILE_SENT, …) to the kiosk machine. Its first call says it started; the call's abort, that it stopped.
 */
const silentSubmission = kioskSubmission.provide({
  actors: submissionActors({
    prepare: (signal) => {
      hooks.push("started");
      signal.addEventListener("abort", record("stopped"), { once: true });
      return new Promise<string>(() => undefined);
    },
    upload: () => new Promise<void>(() => undefined),
    finalize: () => new Promise<void>(() => undefined),
    failure: (e) => ({ message: String(e), transient: false, offline: false }),
  }),
});
// Provided once: `provide` builds a new machine, far too slow to repeat for each of thousands of paths.
const recordingMachine = kioskMachine.provide({ actions: { released: record("released") }, actors: { submission: silentSubmission } });
export const liveActor = (input: KioskInput) => {
  hooks.length = 0;
  return createActor(recordingMachine, {
    input,
    // What the kiosk machine tells its upload child: the network is back.
    inspect: (e) => {
      if (e.type === "@xstate.event" && (e.actorRef as AnyActorRef).id === "submission" && e.event.type === "RESUME") hooks.push("resumed");
    },
  }).start();
};

export const must = (ok: boolean, what: string) => {
  if (!ok) throw new Error(what);
};
/**
 * The rules every step of every path keeps: nothing about a patient in a wiped state, shots only with a
 * patient, the queue only of shots taken, an upload started once on entry and cancelled on leaving it,
 * released on every wipe, and a revoked device with nothing left.
 */
export const checkStep = (before: AnyMachineSnapshot, event: KioskEvent, after: AnyMachineSnapshot, hooks: ReadonlyArray<Hook>, where: string) => {
  const from = String(before.value);
  const to = String(after.value);
  const c = after.context as KioskContext;
  const count = (hook: Hook) => hooks.filter((h) => h === hook).length;
  must(from !== "revoked", `${where}: a revoked device took an event`);
  if (WIPED_STATES.includes(to)) {
    must(holdsNoPatientData(c), `${where}: patient data left in ${to}`);
    must(c.staff === null && c.session === null, `${where}: a staff session left in ${to}`);
  }
  must(c.patient !== null || c.shots.length === 0, `${where}: shots without a patient`);
  must(c.shots.length <= AUTO_CAPTURE_SHOTS, `${where}: more than ${AUTO_CAPTURE_SHOTS} shots`);
  must(
    c.queue.every((q) => c.shots.some((s) => s.id === q.id)),
    `${where}: a queued shot that is not one of the patient's shots`,
  );
  must(to !== "uploading" || c.shots.length >= STAFF_MIN_SHOTS, `${where}: uploading fewer than ${STAFF_MIN_SHOTS} shots`);
  must(count("started") === (from !== "uploading" && to === "uploading" ? 1 : 0), `${where}: the upload started ${count("started")} times`);
  must(count("stopped") === (from === "uploading" && to !== "uploading" ? 1 : 0), `${where}: the upload stopped ${count("stopped")} times`);
  must((after.children as Record<string, unknown>).submission !== undefined === (to === "uploading"), `${where}: an upload child outside uploading, or none in it`);
  must(
    count("resumed") === (from === "uploading" && to === "uploading" && event.type === "NETWORK_UP" ? 1 : 0),
    `${where}: the upload was resumed ${count("resumed")} times`,
  );
  if (from !== to && ["idle", "signedIn", "done", "revoked"].includes(to)) must(count("released") > 0, `${where}: entered ${to} without releasing`);
  // The session's language ends with it: back on the attract screen (or revoked) the device's default is back.
  if ((from !== to || event.type === "IDLE_TIMEOUT") && (to === "idle" || to === "revoked")) must(c.language === null, `${where}: the session's language outlived it`);
  if (event.type === "CHOOSE_LANGUAGE" && to !== "revoked") must(c.language === event.language, `${where}: the language chosen was not kept`);
  if (to === "revoked") must(c.device === null && after.status === "done", `${where}: revoked but still enrolled or active`);
  // The server's when and why reach the revoked screen; before that the tablet holds none.
  if (to === "revoked") must(c.revocation === (event.type === "REVOKED" ? (event.revocation ?? null) : null), `${where}: the revocation's when and why were not kept`);
  else must(c.revocation === null, `${where}: a revocation outside the revoked state`);
};

/** A revoked snapshot ignores every event: same state, same context, no action run. */
export const checkRevokedIgnores = (revoked: AnyMachineSnapshot) => {
  for (const type of ALL_EVENT_TYPES) {
    const [next, actions] = transition(kioskMachine, revoked as never, eventOf(revoked, type));
    must(next.value === "revoked" && actions.length === 0, `revoked: ${type} was not ignored`);
    expect(next.context).toEqual(revoked.context);
  }
};

/** Random event sequences, with shot ids that the machine has seen or not. */
export const arbitraryEvent: fc.Arbitrary<KioskEvent> = fc.oneof(
  fc.constantFrom<KioskEvent>(
    { type: "PAIRED", device: DEVICE },
    { type: "REVOKED" },
    { type: "REVOKED", revocation: REVOCATION },
    { type: "SIGNED_IN", staff: STAFF, session: "s" },
    { type: "SIGN_OUT" },
    { type: "IDLE_TIMEOUT" },
    { type: "SESSION_ENDED" },
    { type: "PATIENT_CHOSEN", patient: PATIENT },
    { type: "CHANGE_PATIENT" },
    { type: "START_CAPTURE" },
    { type: "STOP_CAPTURE" },
    { type: "RETAKE" },
    { type: "UPLOAD" },
    { type: "UPLOAD_PROGRESS", progress: { step: "finalize", sent: 3, total: 3, reportIdentifier: "r" } },
    { type: "UPLOAD_SUCCEEDED" },
    { type: "UPLOAD_FAILED", message: "x" },
    { type: "NETWORK_DOWN" },
    { type: "NETWORK_UP" },
    { type: "FINISH" },
    { type: "CHOOSE_LANGUAGE", language: "es" },
    { type: "CHOOSE_LANGUAGE", language: "en" },
  ),
  fc.integer({ min: 0, max: 12 }).map((n): KioskEvent => ({ type: "SHOT_TAKEN", shot: { id: `s${n}`, image: n } })),
  fc.integer({ min: 0, max: 12 }).map((n): KioskEvent => ({ type: "DISCARD_SHOT", id: `s${n}` })),
  fc.integer({ min: 0, max: 12 }).map((n): KioskEvent => ({ type: "FILE_SENT", id: `s${n}` })),
);
