// The ModelRuntime port (issue 41, item 5): candidates checked before they are installed, and
// installed models opened from their bytes, one session per checksum per process. Which model is
// shipped or shadow is never kept here: core reads it from the database for every job (ADR 0159).
import { Learning, ValidationFailed } from "@crown/core";
import { measurementErrorOf } from "@crown/core/measurement/index";
import { Effect, Layer, Option } from "effect";
import { analyzeOptionsFrom, OUTPUT_NAMES } from "./card.ts";
import { type LoadedHeadContourModel, loadHeadContourModelFromBytes } from "./node.ts";

const refuse = (message: string) => ValidationFailed.field("model", message);

/** Runs the model once on a blank letterboxed image and checks every output's size against the contract. */
const dryRun = async (model: LoadedHeadContourModel) => {
  const size = model.card.input_size;
  const out = await model.run(new Float32Array(3 * size * size), 1);
  const plane = size * size;
  const expected = { mask: plane, nose: plane, sticker: plane, quality: model.card.reasons.length } as const;
  for (const name of OUTPUT_NAMES) {
    if (out[name].length !== expected[name]) throw new Error(`its "${name}" output holds ${out[name].length} values for one image, not ${expected[name]}`);
  }
};

const opened = (model: LoadedHeadContourModel): Learning.OpenedModel => ({
  model,
  analyze: analyzeOptionsFrom(model.card),
  measurementError: measurementErrorOf(model.card as Parameters<typeof measurementErrorOf>[0]),
});

export const makeModelRuntime = (options: { threads?: number } = {}) => {
  const sessions = new Map<string, Promise<LoadedHeadContourModel>>();
  const port: Learning.ModelRuntimePort = {
    inspect: (bytes, card) =>
      Effect.tryPromise({
        try: async () => {
          const model = await loadHeadContourModelFromBytes(bytes, card, { threads: 1 });
          try {
            if (!model.identity) throw new Error("its model.json has no version: a candidate must name itself");
            await dryRun(model);
            return { name: model.identity.name, version: model.identity.version, card: model.card as Readonly<Record<string, unknown>> };
          } finally {
            await model.close();
          }
        },
        catch: (error) => refuse(`The candidate was refused: ${(error instanceof Error ? error.message : String(error)).slice(0, 300)}`),
      }),
    cached: (sha256) =>
      Effect.promise(async () => {
        const pending = sessions.get(sha256);
        return pending ? Option.some(opened(await pending)) : Option.none();
      }),
    open: (sha256, bytes, card) =>
      Effect.promise(() => {
        let pending = sessions.get(sha256);
        if (!pending) {
          pending = loadHeadContourModelFromBytes(bytes, card, { threads: options.threads ?? 1 });
          sessions.set(sha256, pending);
          pending.catch(() => sessions.delete(sha256));
        }
        return pending.then(opened);
      }),
  };
  return {
    port,
    close: async () => {
      for (const pending of sessions.values()) await pending.then((m) => m.close(), () => undefined);
      sessions.clear();
    },
  };
};

export const modelRuntimeLayer = (runtime: ReturnType<typeof makeModelRuntime>) => Layer.succeed(Learning.ModelRuntime, runtime.port);
