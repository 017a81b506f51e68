import { Layer, ManagedRuntime } from "effect";
import { describe, expect, it } from "vitest";
import { API_BASE, createHttpApp } from "./app.ts";
import type { HttpRuntime } from "./effect-bridge.ts";
import { REDACTED, redactPath, redactText } from "./redact.ts";

const TOKEN = "q7Jx0c3TtW1pX-uYz_9aLk2mN4bV6cR8sD0fG2hJ4kL";
const ID = "01JABCDEFGHJKMNPQRSTVWXYZ0";

describe("redactPath", () => {
  it("hides the verification link's token, keeps the user id and drops the query", () => {
    expect(redactPath(`${API_BASE}/email/verify/${ID}/${TOKEN}?expires=1&signature=abc`)).toBe(`${API_BASE}/email/verify/${ID}/${REDACTED}`);
    // A short token is hidden too: the route says where the secret is.
    expect(redactPath(`/email/verify/${ID}/short`)).toBe(`/email/verify/${ID}/${REDACTED}`);
  });

  it("hides any long random segment of another path, and leaves ordinary paths and ULIDs alone", () => {
    expect(redactPath(`/some/future/${TOKEN}/route`)).toBe(`/some/future/${REDACTED}/route`);
    expect(redactPath(`${API_BASE}/report/${ID}/download`)).toBe(`${API_BASE}/report/${ID}/download`);
    expect(redactPath(`${API_BASE}/user/profile`)).toBe(`${API_BASE}/user/profile`);
  });

  it("hides tokens quoted in free text", () => {
    expect(redactText(`failed for /email/verify/${ID}/${TOKEN}: bearer ${TOKEN}`)).not.toContain(TOKEN);
  });
});

describe("the 500 log line", () => {
  it("never carries the verification token of the failing request", async () => {
    const lines: Array<Record<string, unknown>> = [];
    // A runtime without the services: the use case dies, the app answers 500 and logs the failure.
    const app = createHttpApp({
      runtime: ManagedRuntime.make(Layer.empty) as unknown as HttpRuntime,
      clientIp: () => null,
      publicUrl: "http://crown.test",
      log: (line) => lines.push(line),
    });
    const response = await app.request(`${API_BASE}/email/verify/${ID}/${TOKEN}?expires=9999999999&signature=${TOKEN}`);
    expect(response.status).toBe(500);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error", path: `${API_BASE}/email/verify/${ID}/${REDACTED}` });
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });
});
