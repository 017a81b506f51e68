import { Either, Schema } from "effect";
import { describe, expect, it } from "vitest";
import { INPUT_MESSAGES, inputProblem, storableText } from "./input.ts";
import { check, Required, trimStrings } from "./validation.ts";

const Form = Schema.Struct({ name: Required("Name") });

describe("input any field may carry", () => {
  it("a body nested 5,000 deep is a field error, not a stack overflow", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    const result = check(Form, { name: deep });
    expect(Either.isLeft(result) && result.left.errors).toEqual({ name: [INPUT_MESSAGES.tooDeep] });
    expect(() => trimStrings(deep)).not.toThrow();
  });

  it("NUL bytes and lone surrogates are field errors naming the field", () => {
    for (const bad of ["a\u0000b", "\uD800", "x\uDC00", "\uDBFF\uDBFF"]) {
      const result = check(Form, { name: bad });
      expect(Either.isLeft(result) && result.left.errors).toEqual({ name: [INPUT_MESSAGES.badText] });
    }
    expect(inputProblem({ list: [{ note: "ok" }, { note: "\u0000" }] })).toEqual({ field: "list.1.note", message: INPUT_MESSAGES.badText });
    expect(Either.isRight(check(Form, { name: "Zoë 😀" }))).toBe(true);
  });

  it("a display name is made storable rather than refused", () => {
    expect(storableText("photo\u0000\uD800.jpg")).toBe("photo\uFFFD.jpg");
  });
});
