import { Exit } from "effect";
import { describe, expect, it } from "vitest";
import { Forbidden } from "../shared/errors.ts";
import { MINUTE } from "../testing/account-checks.ts";
import { aParent, makeTestWorld, signedIn } from "../testing/index.ts";
import { authenticate } from "./service.ts";
import { PROOF_REQUIRED_STATUS, proveWithPassword, requireRecentProof } from "./recent-proof.ts";

const forbiddenStatus = (exit: Exit.Exit<unknown, unknown>) =>
  Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error instanceof Forbidden ? exit.cause.error.status : null;

describe("a fresh proof within ten minutes", () => {
  it("sign-in is a proof for ten minutes; then the password proves it again", async () => {
    const world = makeTestWorld();
    const parent = aParent();
    const { token } = await signedIn(world, parent);
    const caller = async () => world.run(authenticate(token));
    world.clock.advance(10 * MINUTE);
    await world.runAs(await caller(), requireRecentProof);
    world.clock.advance(1);
    expect(forbiddenStatus(await world.exitAs(await caller(), requireRecentProof))).toBe(PROOF_REQUIRED_STATUS);

    const wrong = await world.exitAs(await caller(), proveWithPassword({ password: "not-the-password" }));
    expect(Exit.isFailure(wrong)).toBe(true);
    expect(forbiddenStatus(await world.exitAs(await caller(), requireRecentProof))).toBe(PROOF_REQUIRED_STATUS);

    await world.runAs(await caller(), proveWithPassword({ password: parent.password }));
    await world.runAs(await caller(), requireRecentProof);
    world.clock.advance(10 * MINUTE + 1);
    expect(forbiddenStatus(await world.exitAs(await caller(), requireRecentProof))).toBe(PROOF_REQUIRED_STATUS);
  });

  it("five wrong passwords, then even the right one waits", async () => {
    const world = makeTestWorld();
    const parent = aParent();
    const { token } = await signedIn(world, parent);
    const caller = await world.run(authenticate(token));
    for (let i = 0; i < 5; i++) await world.exitAs(caller, proveWithPassword({ password: `wrong-${i}` }));
    const exit = await world.exitAs(caller, proveWithPassword({ password: parent.password }));
    expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error._tag : null).toBe("RateLimited");
  });
});
