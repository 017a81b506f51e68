import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import busboy from "busboy";
import type { Context } from "hono";
import { INPUT_MESSAGES, ValidationFailed } from "@crown/core";
import type { UploadPart } from "@crown/core/report/index";
import type { Env } from "./env.ts";

/**
 * How many parts a multipart body holds, counted from its delimiters as the bytes pass (a delimiter
 * split across two chunks included). The closing delimiter is not a part.
 */
export const partCounter = (contentType: string) => {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const delimiter = Buffer.from(`\r\n--${boundary?.[1] ?? boundary?.[2] ?? ""}`);
  // The body's first delimiter has no line break before it.
  let tail = Buffer.from("\r\n");
  let delimiters = 0;
  return {
    feed: (chunk: Buffer | string) => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      const count = (b: Buffer) => {
        for (let at = b.indexOf(delimiter); at !== -1; at = b.indexOf(delimiter, at + delimiter.length)) delimiters += 1;
      };
      // A delimiter that starts in the previous chunk's end is found in the seam, without copying the chunk.
      const head = bytes.subarray(0, delimiter.length - 1);
      count(Buffer.concat([tail, head]));
      count(bytes);
      // What could start a delimiter that the next chunk ends; shorter than one, so never counted twice.
      const keep = delimiter.length - 1;
      tail = Buffer.from(bytes.length >= keep ? bytes.subarray(bytes.length - keep) : Buffer.concat([tail, bytes]).subarray(-keep));
    },
    parts: () => (boundary ? Math.max(0, delimiters - 1) : 0),
  };
};

/**
 * The multipart body as parts in arrival order, parsed by busboy from the raw Node request (or the
 * request's stream in tests) without buffering a file: each file is handed on as a stream, and
 * busboy waits while it is read. `close` stops parsing and drains what is left of the body.
 */
export const multipartParts = (c: Context<Env>, limits: { files: number; fileSize: number }) => {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const source: Readable = incoming ?? (c.req.raw.body ? Readable.fromWeb(c.req.raw.body as unknown as NodeWebStream<Uint8Array>) : Readable.from([]));
  const headers = Object.fromEntries(c.req.raw.headers.entries());
  const queue: Array<IteratorResult<UploadPart>> = [];
  const waiting: Array<{ resolve: (r: IteratorResult<UploadPart>) => void; reject: (e: unknown) => void }> = [];
  let failure: unknown = null;
  let refused = false;
  let finished = false;
  const push = (item: IteratorResult<UploadPart>) => {
    const w = waiting.shift();
    if (w) w.resolve(item);
    else queue.push(item);
  };
  const fail = (error: unknown) => {
    failure = error;
    for (const w of waiting.splice(0)) w.reject(error);
  };
  // busboy drops a part whose headers it cannot parse without a word (a file name ending in "\\"
  // escapes its closing quote); the parts counted in the body itself say whether one went missing.
  const counted = partCounter(headers["content-type"] ?? "");
  let handed = 0;
  let limited = false;
  let parser: busboy.Busboy;
  try {
    // One more file than allowed, one byte more than allowed: the use case names the limit. Names are
    // read as UTF-8 and kept whole (a path in one is refused by core's file-name rule, not cut off).
    parser = busboy({ headers, defParamCharset: "utf8", preservePath: true, limits: { files: limits.files + 1, fileSize: limits.fileSize + 1, fields: 50, parts: limits.files + 51 } });
  } catch (error) {
    fail(error);
    return { parts: (async function* () {})(), close: () => undefined };
  }
  /** The client's refusal: the file being read fails with it, the parts queued behind it are dropped, and the use case keeps nothing. */
  const refuse = () => {
    if (refused) return;
    refused = true;
    const refusal = ValidationFailed.field("attachments", INPUT_MESSAGES.brokenPart);
    for (const item of queue.splice(0)) if (!item.done && item.value.type === "file") void item.value.stream.cancel().catch(() => undefined);
    fail(refusal);
    parser.destroy(refusal);
  };
  parser.on("field", (name, value) => {
    handed += 1;
    push({ done: false, value: { type: "field", name, value } });
  });
  parser.on("file", (name, stream, info) => {
    handed += 1;
    // Nothing after a refused part is handed on: its bytes would never come (the source is no longer piped).
    if (refused) return void stream.resume();
    push({ done: false, value: { type: "file", name, fileName: info.filename ?? "", stream: fileStream(stream) } });
  });
  for (const limit of ["partsLimit", "filesLimit", "fieldsLimit"] as const) parser.on(limit, () => void (limited = true));
  parser.on("close", () => {
    finished = true;
    if (!refused && !limited && counted.parts() > handed) return refuse();
    push({ done: true, value: undefined });
  });
  parser.on("error", (error: unknown) => {
    // busboy reports a part it cannot read (a NUL byte or a control character in its headers, such as
    // a file's name) by emitting an error without destroying itself, and goes on parsing: the source,
    // unpiped by the error, then never feeds the file being read nor the one after it, which waited for
    // ever (issue 46). It is the client's refusal.
    if (error instanceof Error && /malformed/i.test(error.message)) return refuse();
    fail(error);
  });
  // A cut connection errors the source only, and a pipe then never ends its destination: end the
  // parser, so that it reads the bytes that did arrive and errors the file they stop in (which would
  // otherwise wait for bytes that never come); the use case keeps the files that arrived whole.
  const cut = () => {
    if (!parser.writableEnded) parser.end();
  };
  source.on("error", cut);
  source.on("aborted", cut);
  source.on("data", counted.feed);
  source.pipe(parser);
  const parts: AsyncIterable<UploadPart> = {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        // A refusal stops at once; otherwise parts that arrived whole come first, even when the body failed after them.
        if (refused) return Promise.reject(failure);
        const item = queue.shift();
        if (item) return Promise.resolve(item);
        if (failure) return Promise.reject(failure);
        if (finished) return Promise.resolve({ done: true, value: undefined });
        return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
      },
      return: async () => ({ done: true, value: undefined }),
    }),
  };
  const close = () => {
    // The rest of the body is read and dropped (a refused request's too), so that the answer reaches the client.
    source.unpipe(parser);
    parser.removeAllListeners("file");
    parser.on("file", (_n, s) => s.resume());
    if (!source.readableEnded) source.resume();
  };
  return { parts, close };
};

/**
 * A file part as a web stream that pulls from busboy's stream directly (one read per pull, a
 * bounded queue of about 1 MB): backpressure reaches the socket and no file is ever buffered.
 */
const fileStream = (stream: Readable): ReadableStream<Uint8Array> =>
  Readable.toWeb(stream, { strategy: { highWaterMark: 1024 * 1024, size: (chunk: Uint8Array) => chunk.byteLength } } as never) as unknown as ReadableStream<Uint8Array>;
