import { describe, expect, it } from "vitest";
import { retryAfterRefusal } from "./retry.ts";

const answer = (status: number, retryAfter?: string) => ({ status, headers: new Headers(retryAfter === undefined ? {} : { "Retry-After": retryAfter }) });

describe("a call the server shed (ADR 0100)", () => {
  it("comes back once after the server's Retry-After when it is short", () => {
    expect(retryAfterRefusal(answer(503, "1"))).toBe(1000);
    expect(retryAfterRefusal(answer(503, "5"))).toBe(5000);
  });

  it("does not come back for other answers, a 503 without Retry-After, or a long wait", () => {
    expect(retryAfterRefusal(answer(200, "1"))).toBeNull();
    expect(retryAfterRefusal(answer(429, "1"))).toBeNull();
    expect(retryAfterRefusal(answer(503))).toBeNull();
    expect(retryAfterRefusal(answer(503, "60"))).toBeNull();
    expect(retryAfterRefusal(answer(503, "soon"))).toBeNull();
  });
});
