// Messages between a page (web portal, kiosk) and the inference Web Worker (worker.ts), and a small
// promise-based client for the page side. No onnxruntime import here, so the page bundle stays small.
import type { AnalyzeOptions, PhotoAnalysis } from "@crown/core/measurement/index";

/** A frame as a canvas gives it (ImageData is structurally this): RGBA bytes. */
export interface FramePixels {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8ClampedArray;
}

export type WorkerRequest =
  | {
      readonly type: "load";
      readonly id: number;
      /** URL of head-contour.onnx and of its model.json, as served by Crown. */
      readonly modelUrl: string;
      readonly cardUrl: string;
      /** Where Crown serves onnxruntime-web's wasm files, e.g. "/ort/". */
      readonly wasmPaths: string;
      readonly threads?: number;
      readonly options?: AnalyzeOptions;
    }
  | { readonly type: "analyzeFrame"; readonly id: number; readonly frame: FramePixels };

export type WorkerResponse =
  | { readonly type: "loaded"; readonly id: number }
  | { readonly type: "analysis"; readonly id: number; readonly analysis: PhotoAnalysis; readonly milliseconds: number }
  | { readonly type: "error"; readonly id: number; readonly message: string };

export interface HeadContourWorkerClient {
  load(request: Omit<Extract<WorkerRequest, { type: "load" }>, "type" | "id">): Promise<void>;
  /** The frame's pixels are transferred to the worker: do not reuse `frame.data` afterwards. */
  analyzeFrame(frame: FramePixels): Promise<{ analysis: PhotoAnalysis; milliseconds: number }>;
  terminate(): void;
}

/** Wrap a Worker running worker.ts. */
export const connectHeadContourWorker = (worker: Worker): HeadContourWorkerClient => {
  let nextId = 1;
  const pending = new Map<number, { resolve: (r: WorkerResponse) => void; reject: (e: Error) => void }>();
  worker.addEventListener("message", (event: MessageEvent<WorkerResponse>) => {
    const waiting = pending.get(event.data.id);
    if (!waiting) return;
    pending.delete(event.data.id);
    if (event.data.type === "error") waiting.reject(new Error(event.data.message));
    else waiting.resolve(event.data);
  });
  worker.addEventListener("error", (event) => {
    for (const waiting of pending.values()) waiting.reject(new Error(event.message || "The inference worker failed"));
    pending.clear();
  });
  const ask = (request: WorkerRequest, transfer: Transferable[] = []): Promise<WorkerResponse> =>
    new Promise((resolve, reject) => {
      pending.set(request.id, { resolve, reject });
      worker.postMessage(request, transfer);
    });
  return {
    async load(request) {
      await ask({ type: "load", id: nextId++, ...request });
    },
    async analyzeFrame(frame) {
      const response = await ask({ type: "analyzeFrame", id: nextId++, frame }, [frame.data.buffer]);
      if (response.type !== "analysis") throw new Error("The inference worker answered out of turn");
      return { analysis: response.analysis, milliseconds: response.milliseconds };
    },
    terminate: () => worker.terminate(),
  };
};
