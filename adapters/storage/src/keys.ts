/**
 * Blob keys are chosen by the application (e.g. `captures/01J…/front.jpg`), never by a user, but
 * are still checked so a bad one can never escape the store's root or collide with its own files.
 */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const isValidBlobKey = (key: string): boolean =>
  key.length > 0 &&
  key.length <= 512 &&
  !key.endsWith(".meta.json") &&
  key.split("/").every((segment) => SEGMENT.test(segment) && segment !== "." && segment !== "..");

export class InvalidBlobKey extends Error {
  override readonly name = "InvalidBlobKey";
  constructor(key: string) {
    super(`Invalid blob key: ${JSON.stringify(key.slice(0, 100))}`);
  }
}

export const assertValidBlobKey = (key: string): void => {
  if (!isValidBlobKey(key)) throw new InvalidBlobKey(key);
};

/** The chunks of a body, whether it came whole or as a web stream. */
export async function* chunksOf(body: Uint8Array | ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (body instanceof Uint8Array) {
    if (body.byteLength > 0) yield body;
    return;
  }
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value && value.byteLength > 0) yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
