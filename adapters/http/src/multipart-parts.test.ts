import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { partCounter } from "./multipart-parts.ts";

const body = (boundary: string, parts: ReadonlyArray<string>) =>
  Buffer.from(parts.map((p) => `--${boundary}\r\nContent-Disposition: form-data; name="f"\r\n\r\n${p}\r\n`).join("") + `--${boundary}--\r\n`);

test.prop([fc.array(fc.stringMatching(/^[a-z\r\n-]{0,40}$/), { maxLength: 6 }), fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 40 })])(
  "counts a body's parts however its bytes are split into chunks",
  (parts, cuts) => {
    const boundary = "----crown-count";
    const bytes = body(boundary, parts);
    const counter = partCounter(`multipart/form-data; boundary=${boundary}`);
    let at = 0;
    for (const size of [...cuts, bytes.length]) {
      counter.feed(bytes.subarray(at, at + size));
      at += size;
      if (at >= bytes.length) break;
    }
    expect(counter.parts()).toBe(parts.length);
  },
);

test("a quoted boundary is read, and a content type without one counts nothing", () => {
  const counter = partCounter('multipart/form-data; boundary="a b"');
  counter.feed(body("a b", ["x", "y"]));
  expect(counter.parts()).toBe(2);
  const none = partCounter("multipart/form-data");
  none.feed(body("a b", ["x"]));
  expect(none.parts()).toBe(0);
});
