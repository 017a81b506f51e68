import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { validationOf } from "../testing/account-checks.ts";
import { aParent, aPhysician, makeTestWorld, sampleBytes, signedIn } from "../testing/index.ts";
import { CurrentUser as CurrentUserTag } from "./model.ts";
import { authenticate, MESSAGES, PROFILE_PHOTO_MAX_BYTES, readProfile, readProfilePhoto, removeProfilePhoto, updateProfile, updateProfilePhoto } from "./service.ts";

describe("profile", () => {
  it("reads the caller's profile (fax only for physicians) and audits the read", async () => {
    const world = makeTestWorld();
    const parent = await signedIn(world, aParent());
    const physician = await signedIn(world, aPhysician());
    const p = await world.runAs(parent.caller, readProfile);
    expect(p).toMatchObject({ identifier: parent.user.id, email: parent.user.email, type: "parent", photo: null });
    expect(p).not.toHaveProperty("fax_number");
    const d = await world.runAs(physician.caller, readProfile);
    expect(d).toHaveProperty("fax_number", null);
    expect(world.audit.filter((a) => a.action === "profile.read").map((a) => a.subjectId)).toEqual([parent.user.id, physician.user.id]);
  });

  it("updates names and phone, never the e-mail, and stores a fax number only for physicians", async () => {
    const world = makeTestWorld();
    const parent = await signedIn(world, aParent());
    const physician = await signedIn(world, aPhysician());
    const change = { first_name: " New ", last_name: "Name", phone: "5550000000", fax_number: "+1 (555) 123-4567", email: "hijack@example.com" };
    const messageless = await world.runAs(parent.caller, updateProfile(change));
    expect(messageless.email).toBe(parent.user.email);
    expect(world.users.get(parent.user.id)).toMatchObject({ firstName: "New", lastName: "Name", phone: "5550000000", faxNumber: null, email: parent.user.email });
    await world.runAs(physician.caller, updateProfile(change));
    expect(world.users.get(physician.user.id)).toMatchObject({ firstName: "New", faxNumber: "+1 (555) 123-4567", email: physician.user.email });
    expect(world.userByEmail("hijack@example.com")).toBeUndefined();
    // An empty fax clears it.
    await world.runAs(physician.caller, updateProfile({ ...change, fax_number: "" }));
    expect(world.users.get(physician.user.id)!.faxNumber).toBeNull();
    expect(world.audit.filter((a) => a.action === "profile.updated")).toHaveLength(3);
  });

  it("validates the profile with the spec's messages", async () => {
    const world = makeTestWorld();
    const { caller } = await signedIn(world, aPhysician());
    const error = await validationOf(
      world,
      Effect.provideService(updateProfile({ first_name: "", last_name: "X", phone: "12", fax_number: "call me" }), CurrentUserTag, caller),
    );
    expect(error.errors).toEqual({ first_name: ["First name is required"], phone: ["Mobile number is invalid"], fax_number: ["Fax number is invalid"] });
  });

  it("accepts PNG and JPEG photos by their bytes, and nothing else", async () => {
    const world = makeTestWorld();
    const { caller, token } = await signedIn(world, aParent());
    for (const [bytes, mime] of [
      [sampleBytes.png(), "image/png"],
      [sampleBytes.jpeg(), "image/jpeg"],
    ] as const) {
      const now = await world.run(authenticate(token));
      const updated = await world.runAs(now, updateProfilePhoto(bytes));
      expect(updated.photoType).toBe(mime);
      expect(world.blobs.get(updated.photoKey!)!.contentType).toBe(mime);
    }
    // The replaced photo is gone: only the latest remains.
    expect(world.blobs.size).toBe(1);
    for (const bytes of [sampleBytes.gif(), sampleBytes.mp4(), sampleBytes.mov(), sampleBytes.text()]) {
      const exit = await world.exitAs(caller, updateProfilePhoto(bytes));
      expect(JSON.stringify(exit)).toContain(MESSAGES.photoType);
    }
    for (const bytes of [null, new Uint8Array(0)]) {
      expect(JSON.stringify(await world.exitAs(caller, updateProfilePhoto(bytes)))).toContain(MESSAGES.photoMissing);
    }
    expect(JSON.stringify(await world.exitAs(caller, updateProfilePhoto(sampleBytes.png(PROFILE_PHOTO_MAX_BYTES + 1))))).toContain("at most 5 MB");
    expect(world.blobs.size).toBe(1);
  });

  it("serves and removes the photo", async () => {
    const world = makeTestWorld();
    const { token } = await signedIn(world, aParent());
    const caller = await world.run(authenticate(token));
    await world.runAs(caller, updateProfilePhoto(sampleBytes.png(100)));
    const fresh = await world.run(authenticate(token));
    const blob = await world.runAs(fresh, readProfilePhoto);
    expect(blob).toMatchObject({ contentType: "image/png", size: 100 });
    expect((await world.runAs(fresh, readProfile)).photo).toMatch(/^\/api\/v1\/en\/user\/profile-photo\?v=/);
    await world.runAs(fresh, removeProfilePhoto);
    expect(world.blobs.size).toBe(0);
    const after = await world.run(authenticate(token));
    expect(JSON.stringify(await world.exitAs(after, readProfilePhoto))).toContain("Profile photo not found");
    expect(world.audit.map((a) => a.action)).toEqual(expect.arrayContaining(["profile.photo_updated", "profile.photo_removed"]));
  });
});

// ---- Audit and secrecy ----------------------------------------------------------------------------
