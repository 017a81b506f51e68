import { assign, setup } from "xstate";
import type { UserType } from "../accounts/lifecycle.ts";
import type { QualityReason, VerdictOutcome } from "../measurement/verdict.ts";
import { autoCaptureComplete, type CapturedShot, type CaptureMode, CAPTURE_SECONDS, defaultSelection, enoughShots, isReferredShot, keepShot, minGoodShots } from "./rules.ts";

/**
 * One capture session as a machine (docs/adr/0044-one-capture-machine.md): a source opened (camera
 * or video), Auto Capture (good frames, and up to 3 referred ones flagged; stops by itself at 10 good) or Regular Capture (10 seconds on
 * a clock, frames judged as the model catches up), then the shots selected, and saved only with the
 * minimum good shots for who is capturing. The portal's capture page renders it; the kiosk machine
 * keeps its shots with the same rules (rules.ts). The app drives the camera and the model and sends
 * what they saw; the machine decides.
 */

export type CaptureSource = "camera" | "video";

export interface CaptureContext {
  /** Who is capturing: decides the minimum good shots. */
  readonly role: UserType | null;
  readonly source: CaptureSource | null;
  readonly mode: CaptureMode | null;
  readonly shots: ReadonlyArray<CapturedShot>;
  /** The ids of the shots selected for upload. */
  readonly selected: ReadonlyArray<string>;
  /** Regular Capture's countdown, in whole seconds. */
  readonly secondsLeft: number | null;
}

export interface CaptureInput {
  readonly role?: UserType | null;
}

export type CaptureEvent =
  | { type: "SOURCE_OPENED"; source: CaptureSource }
  | { type: "START"; mode: CaptureMode }
  /** A frame the app took (Auto Capture: with its verdict; Regular Capture: judged later, verdict null). */
  | { type: "SHOT_TAKEN"; shot: CapturedShot }
  /** The model's verdict on a shot taken earlier. */
  | { type: "SHOT_JUDGED"; id: string; verdict: VerdictOutcome; reasons: ReadonlyArray<QualityReason> }
  /** Regular Capture's clock, elapsed milliseconds since START. */
  | { type: "TICK"; elapsedMs: number }
  /** The person stopped, or the chosen video ended. */
  | { type: "STOP" }
  | { type: "TOGGLE_SHOT"; id: string }
  | { type: "SAVE" }
  /** The upload dialog closed: `uploaded` when the shots were sent. */
  | { type: "UPLOAD_CLOSED"; uploaded: boolean }
  /** Back to choosing a source; every shot is dropped. */
  | { type: "RESTART" };

const fresh = { source: null, mode: null, shots: [] as ReadonlyArray<CapturedShot>, selected: [] as ReadonlyArray<string>, secondsLeft: null };

export const selectedShots = (context: CaptureContext) => context.shots.filter((s) => context.selected.includes(s.id));
export const minimumShots = (context: Pick<CaptureContext, "role">) => minGoodShots(context.role);

export const captureMachine = setup({
  types: {} as { context: CaptureContext; events: CaptureEvent; input: CaptureInput },
  guards: {
    autoComplete: ({ context }) => context.mode === "auto" && autoCaptureComplete(context.shots),
    clockDone: ({ context, event }) => context.mode === "regular" && event.type === "TICK" && event.elapsedMs >= CAPTURE_SECONDS * 1000,
    // referred frames go to the reviewer with the rest but do not count towards the minimum
    enoughSelected: ({ context }) => enoughShots(selectedShots(context).filter((s) => !isReferredShot(s)).length, context.role),
  },
  actions: {
    /** Capture ended: the good shots (and those not judged yet) are selected to start with. */
    selectDefaults: assign({ selected: ({ context }) => defaultSelection(context.shots), secondsLeft: null }),
    /** Hook for the app: release what dropped shots pointed to (object URLs). */
    released: () => undefined,
  },
}).createMachine({
  id: "capture",
  context: ({ input }) => ({ role: input.role ?? null, ...fresh }),
  initial: "choosing",
  on: {
    RESTART: { target: ".choosing", actions: [assign(fresh), "released"] },
    SHOT_JUDGED: {
      actions: assign({
        shots: ({ context, event }) => context.shots.map((s) => (s.id === event.id ? { ...s, verdict: event.verdict, reasons: event.reasons } : s)),
      }),
    },
  },
  states: {
    choosing: { on: { SOURCE_OPENED: { target: "live", actions: assign({ source: ({ event }) => event.source }) } } },
    /** The preview: the model draws the outline, nothing is kept yet. */
    live: {
      on: {
        START: {
          target: "capturing",
          actions: [
            assign({ mode: ({ event }) => event.mode, shots: [], selected: [], secondsLeft: ({ event }) => (event.mode === "regular" ? CAPTURE_SECONDS : null) }),
            "released",
          ],
        },
      },
    },
    capturing: {
      always: { guard: "autoComplete", target: "selecting", actions: "selectDefaults" },
      on: {
        SHOT_TAKEN: { actions: assign({ shots: ({ context, event }) => keepShot(context.mode ?? "auto", context.shots, event.shot) }) },
        TICK: [
          { guard: "clockDone", target: "selecting", actions: "selectDefaults" },
          {
            guard: ({ context }) => context.mode === "regular",
            actions: assign({ secondsLeft: ({ event }) => Math.max(0, Math.ceil(CAPTURE_SECONDS - event.elapsedMs / 1000)) }),
          },
        ],
        STOP: { target: "selecting", actions: "selectDefaults" },
      },
    },
    selecting: {
      on: {
        TOGGLE_SHOT: {
          actions: assign({
            selected: ({ context, event }) =>
              context.selected.includes(event.id) ? context.selected.filter((id) => id !== event.id) : context.shots.some((s) => s.id === event.id) ? [...context.selected, event.id] : context.selected,
          }),
        },
        SAVE: { guard: "enoughSelected", target: "saving" },
      },
    },
    /** The upload dialog holds the selected shots; closing it without an upload returns to the selection. */
    saving: {
      on: {
        UPLOAD_CLOSED: [{ guard: ({ event }) => event.uploaded, target: "saved" }, { target: "selecting" }],
      },
    },
    saved: { type: "final", entry: [assign(fresh), "released"] },
  },
});

export type CaptureState = "choosing" | "live" | "capturing" | "selecting" | "saving" | "saved";
