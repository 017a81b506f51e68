import { afterAll, describe, expect, it, vi } from "vitest";

/** The little of a browser window the session store and the API client touch (tests run under Node). */
const storage = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k), clear: () => m.clear() };
};

describe("a session the server no longer accepts (issue 46)", () => {
  vi.stubGlobal("window", { location: { origin: "http://crown.test", href: "http://crown.test/" }, sessionStorage: storage(), localStorage: storage(), addEventListener: () => undefined, removeEventListener: () => undefined, setTimeout, clearTimeout });
  afterAll(() => vi.unstubAllGlobals());

  it("takes the user to sign-in told that the session ended, not that they are not authorised", async () => {
    const { staffPhysicians } = await import("../api/onboarding.ts");
    const { sessionFromSignIn } = await import("./machine.ts");
    const { sessionActor } = await import("./store.ts");
    sessionActor.send({ type: "SIGNED_IN", session: sessionFromSignIn({ token: "revoked-token", identifier: "u1", first_name: "Ana", last_name: "Lopez", email: "ana@example.org", type: "parent", step: "dashboard" } as never) });
    expect(sessionActor.getSnapshot().matches("signedIn")).toBe(true);
    vi.stubGlobal("fetch", async () => Response.json({ message: "You are not authorised to perform this action" }, { status: 401 }));
    await expect(staffPhysicians()).rejects.toMatchObject({ httpStatus: 401 });
    expect(sessionActor.getSnapshot().matches("signedOut")).toBe(true);
    expect(sessionActor.getSnapshot().context.notice).toEqual({ text: "Your session has ended. Please sign in again.", tone: "error" });
  });
});
