import { describe, expect, it } from "vitest";
import { CONSENT_STATUSES, consentAfter, consentCan, delegationActs, delegationConsent } from "./consent.ts";

describe("consent lifecycle (ADR 56)", () => {
  it("a pending request is answered once: accepted, declined or withdrawn, and then nothing more", () => {
    expect(consentAfter("pending", "ACCEPT")).toBe("accepted");
    expect(consentAfter("pending", "DECLINE")).toBe("declined");
    expect(consentAfter("pending", "WITHDRAW")).toBe("withdrawn");
    for (const status of CONSENT_STATUSES.filter((s) => s !== "pending")) {
      for (const event of ["ACCEPT", "DECLINE", "WITHDRAW"] as const) expect(consentCan(status, event), `${status} ${event}`).toBe(false);
    }
  });

  it("a delegation's consent is read from its columns; only an accepted, live one acts", () => {
    const at = new Date("2026-11-24T15:00:00Z");
    const offer = { staffId: "s", acceptedAt: null, endedAt: null, endedBy: null };
    expect(delegationConsent(offer)).toBe("pending");
    expect(delegationActs(offer)).toBe(false);
    expect(delegationConsent({ ...offer, acceptedAt: at })).toBe("accepted");
    expect(delegationActs({ ...offer, acceptedAt: at })).toBe(true);
    expect(delegationActs({ ...offer, acceptedAt: at, endedAt: at })).toBe(false);
    expect(delegationConsent({ ...offer, endedAt: at, endedBy: "s" })).toBe("declined");
    expect(delegationConsent({ ...offer, endedAt: at, endedBy: "the-physician" })).toBe("withdrawn");
  });
});
