/// <reference lib="webworker" />
// The inference Web Worker: loads the model with onnxruntime-web and answers analyzeFrame messages
// with core's analyzePhoto, the same pipeline the server runs. Bundle it for the web app and kiosk.
import { analyzePhoto, type AnalyzeOptions } from "@crown/core/measurement/index";
import { analyzeOptionsFrom } from "./card.ts";
import { loadHeadContourModelWeb, type LoadedWebModel } from "./wasm-model.ts";
import type { WorkerRequest, WorkerResponse } from "./worker-protocol.ts";

declare const self: DedicatedWorkerGlobalScope;

let model: LoadedWebModel | null = null;
let options: AnalyzeOptions = {};

const reply = (response: WorkerResponse): void => self.postMessage(response);

const handle = async (request: WorkerRequest): Promise<WorkerResponse> => {
  switch (request.type) {
    case "load": {
      const response = await fetch(request.cardUrl);
      if (!response.ok) throw new Error(`The model card ${request.cardUrl} could not be fetched (${response.status})`);
      const card = await response.json();
      await model?.close();
      model = await loadHeadContourModelWeb(request.modelUrl, card, {
        wasmPaths: request.wasmPaths,
        ...(request.threads ? { threads: request.threads } : {}),
      });
      options = { ...analyzeOptionsFrom(model.card, "live"), ...request.options };
      return { type: "loaded", id: request.id };
    }
    case "analyzeFrame": {
      if (!model) throw new Error("The model is not loaded yet");
      const started = performance.now();
      const { width, height, data } = request.frame;
      const analysis = await analyzePhoto({ width, height, data, channels: 4 }, model, options);
      return { type: "analysis", id: request.id, analysis, milliseconds: performance.now() - started };
    }
  }
};

// One frame at a time, in order: the camera sends the next frame when this one is answered.
let queue: Promise<void> = Promise.resolve();
self.addEventListener("message", (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  queue = queue.then(async () => {
    try {
      reply(await handle(request));
    } catch (error) {
      reply({ type: "error", id: request.id, message: error instanceof Error ? error.message : String(error) });
    }
  });
});
