import { captureMachine } from "@crown/core/capture/machine";
import { AUTO_CAPTURE_SHOTS, minGoodShots } from "@crown/core/capture/rules";
import { kioskMachine, kioskMinimumShots } from "@crown/core/kiosk/machine";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { createActor } from "xstate";
import { minimumShotsFor } from "./rules.ts";

/**
 * The portal's capture page and the kiosk share the minimum-shots rule (ADR 0044): the same person,
 * with the same good shots, may save on the portal exactly when they may upload at the kiosk.
 */

const PROVIDERS = ["physician", "physician_staff"] as const;

/** The portal: the capture machine as CapturePage starts it (the session's role), Auto Capture, Save. */
const portalMaySave = (role: (typeof PROVIDERS)[number], good: number) => {
  const actor = createActor(captureMachine, { input: { role } }).start();
  actor.send({ type: "SOURCE_OPENED", source: "camera" });
  actor.send({ type: "START", mode: "auto" });
  for (let i = 0; i < good; i++) actor.send({ type: "SHOT_TAKEN", shot: { id: `p${i}`, image: i, verdict: "accept" } });
  if (actor.getSnapshot().value === "capturing") actor.send({ type: "STOP" });
  actor.send({ type: "SAVE" });
  return actor.getSnapshot().value === "saving";
};

/** The kiosk: the same person signed in with their PIN (role from the device's staff list), Auto Capture, Upload. */
const kioskMayUpload = (role: (typeof PROVIDERS)[number], good: number) => {
  const actor = createActor(kioskMachine, { input: { device: { identifier: "d", name: "Exam room", practice: "Dr. Grey" } } }).start();
  actor.send({ type: "SIGNED_IN", staff: { identifier: "u", name: "Someone", role }, session: "s" });
  actor.send({ type: "PATIENT_CHOSEN", patient: { identifier: "b", name: "Baby" } });
  actor.send({ type: "START_CAPTURE" });
  for (let i = 0; i < good; i++) actor.send({ type: "SHOT_TAKEN", shot: { id: `k${i}`, image: i, verdict: "accept" } });
  if (actor.getSnapshot().value === "capturing") actor.send({ type: "STOP_CAPTURE" });
  actor.send({ type: "UPLOAD" });
  return actor.getSnapshot().value === "uploading";
};

describe("the minimum good shots: one rule for the portal and the kiosk", () => {
  test.prop([fc.constantFrom(...PROVIDERS), fc.integer({ min: 1, max: AUTO_CAPTURE_SHOTS })])("the same person with the same shots is allowed on both or on neither", (role, good) => {
    const expected = good >= minGoodShots(role);
    expect(portalMaySave(role, good)).toBe(expected);
    expect(kioskMayUpload(role, good)).toBe(expected);
  });

  test.prop([fc.constantFrom(...PROVIDERS)])("both apps resolve the number they show through core's minGoodShots", (role) => {
    const kiosk = kioskMinimumShots({ staff: { identifier: "u", name: "Someone", role } });
    expect(minimumShotsFor({ userRole: role })).toBe(minGoodShots(role));
    expect(kiosk).toBe(minGoodShots(role));
  });

  it("a physician needs 3 and their staff 5, wherever they capture", () => {
    expect(minimumShotsFor({ userRole: "physician" })).toBe(3);
    expect(minimumShotsFor({ userRole: "physician_staff" })).toBe(5);
    expect(minimumShotsFor({ userRole: "parent" })).toBe(5);
  });
});
