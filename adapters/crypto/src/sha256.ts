import { createHash } from "node:crypto";
import { ContentHasher, type ContentHasherPort } from "@crown/core/report/index";
import { Layer } from "effect";

/** SHA-256 fed chunk by chunk while a file streams to storage (never the whole file at once). */
export const makeContentHasher = (): ContentHasherPort => ({
  sha256: () => {
    const hash = createHash("sha256");
    let hex: string | null = null;
    return { update: (chunk) => void hash.update(chunk), hex: () => (hex ??= hash.digest("hex")) };
  },
});

export const contentHasherLayer = Layer.sync(ContentHasher, makeContentHasher);
