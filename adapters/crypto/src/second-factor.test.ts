import { Effect, Option } from "effect";
import { describe, expect, it } from "vitest";
import { guessableForms, isCommonPassword } from "@crown/core/accounts/common-passwords";
import { authenticatorCodeAt, authenticatorCodes, commonPasswords, makeSecretBox } from "./second-factor.ts";

describe("the sealed box for authenticator secrets", () => {
  const box = makeSecretBox("a server secret of enough length");
  it("opens what it sealed, for the same owner only, and never shows the secret", () => {
    const sealed = box.seal("JBSWY3DPEHPK3PXPJBSWY3DP", "totp:user-1");
    expect(sealed).not.toContain("JBSWY3DP");
    expect(box.seal("JBSWY3DPEHPK3PXPJBSWY3DP", "totp:user-1")).not.toBe(sealed);
    expect(box.open(sealed, "totp:user-1")).toEqual(Option.some("JBSWY3DPEHPK3PXPJBSWY3DP"));
    expect(box.open(sealed, "totp:user-2")).toEqual(Option.none());
    expect(makeSecretBox("another server secret, also long").open(sealed, "totp:user-1")).toEqual(Option.none());
    const [v, iv, body, tag] = sealed.split(".");
    const flipped = `${v}.${iv}.${body!.slice(0, -2)}${body!.endsWith("A") ? "B" : "A"}${body!.slice(-1)}.${tag}`;
    expect(box.open(flipped, "totp:user-1")).toEqual(Option.none());
    expect(box.open("garbage", "totp:user-1")).toEqual(Option.none());
  });
});

describe("authenticator app codes (RFC 6238)", () => {
  it("accepts the code of now and of the step either side, and says which step", async () => {
    const secret = authenticatorCodes.newSecret();
    const at = new Date("2026-11-28T20:00:10Z");
    const step = Math.floor(at.getTime() / 30_000);
    const check = (code: string, when = at) => Effect.runPromise(authenticatorCodes.check(secret, code, when));
    expect(await check(authenticatorCodeAt(secret, at))).toEqual(Option.some(step));
    expect(await check(authenticatorCodeAt(secret, new Date(at.getTime() - 30_000)))).toEqual(Option.some(step - 1));
    expect(await check(authenticatorCodeAt(secret, new Date(at.getTime() + 30_000)))).toEqual(Option.some(step + 1));
    expect(await check(authenticatorCodeAt(secret, new Date(at.getTime() - 120_000)))).toEqual(Option.none());
    expect(await check("12345")).toEqual(Option.none());
    expect(authenticatorCodes.address(secret, "dr.who@example.org")).toMatch(/^otpauth:\/\/totp\/Crown:dr\.who%40example\.org\?secret=[A-Z2-7]+/);
  });
});

describe("the list of passwords attackers try first (@zxcvbn-ts/language-common)", () => {
  it("refuses listed words dressed up to meet the rule, and lets strong passwords through", () => {
    for (const weak of ["Password1!", "P@ssw0rd", "Secret#123", "Letmein!2", "Iloveyou#1", "Monkey_123", "Football-2024"]) expect(isCommonPassword(commonPasswords, weak), weak).toBe(true);
    for (const strong of ["Vq8#Rimble-42", "Sunny-day-42", "Zp4$Quillon-7", "Tr0ub4dor&3-horse"]) expect(isCommonPassword(commonPasswords, strong), strong).toBe(false);
    expect(guessableForms("P@ssw0rd1!")).toContain("password");
  });
});
