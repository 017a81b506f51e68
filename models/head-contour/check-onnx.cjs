// Checks head-contour.onnx against the I/O contract with onnxruntime-node (from adapters/inference),
// then loads it in onnxruntime-web (wasm, what the browser runs) and compares the outputs: a file the
// server runs but the browser refuses (models/head-contour/lab/0093) fails here.
//   node models/head-contour/check-onnx.cjs [path/to/head-contour.onnx] [photo.jpg]
const path = require("path");
const { createRequire } = require("module");
const root = path.resolve(__dirname, "../..");
const req = createRequire(path.join(root, "adapters/inference/package.json"));
const ort = req("onnxruntime-node");

(async () => {
  const file = process.argv[2] || path.join(__dirname, "head-contour.onnx");
  const session = await ort.InferenceSession.create(file);
  console.log("inputs", session.inputNames, "outputs", session.outputNames);
  const want = ["mask", "nose", "sticker", "quality"];
  if (session.inputNames.join() !== "image") throw new Error("input must be `image`");
  for (const w of want) if (!session.outputNames.includes(w)) throw new Error(`missing output ${w}`);
  let data;
  let n = 2;
  if (process.argv[3]) {
    const sharp = req("sharp");
    const img = sharp(process.argv[3]);
    const meta = await img.metadata();
    const s = 160 / Math.max(meta.width, meta.height);
    const w = Math.round(meta.width * s), h = Math.round(meta.height * s);
    const raw = await img.resize(w, h).removeAlpha().raw().toBuffer();
    n = 1;
    data = new Float32Array(3 * 160 * 160);
    const ox = Math.floor((160 - w) / 2), oy = Math.floor((160 - h) / 2);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let c = 0; c < 3; c++)
      data[c * 25600 + (y + oy) * 160 + x + ox] = raw[(y * w + x) * 3 + c] / 255;
  } else {
    data = new Float32Array(n * 3 * 160 * 160).fill(0.5);
  }
  const out = await session.run({ image: new ort.Tensor("float32", data, [n, 3, 160, 160]) });
  for (const w of want) {
    const t = out[w];
    let mx = -Infinity, mn = Infinity, pos = 0;
    for (const v of t.data) { if (v > mx) mx = v; if (v < mn) mn = v; if (v > 0) pos++; }
    console.log(w, JSON.stringify(t.dims), t.type, "min", mn.toFixed(2), "max", mx.toFixed(2), "logits>0:", pos);
  }
  const expect = { mask: [n, 1, 160, 160], nose: [n, 1, 160, 160], sticker: [n, 1, 160, 160], quality: [n, 8] };
  for (const [k, d] of Object.entries(expect)) if (out[k].dims.join() !== d.join()) throw new Error(`${k} dims ${out[k].dims} != ${d}`);
  if (process.argv[3]) console.log("quality sigmoid", Array.from(out.quality.data).map((v) => (1 / (1 + Math.exp(-v))).toFixed(2)).join(" "));
  console.log("OK: contract satisfied (onnxruntime-node)");
  const web = req("onnxruntime-web/wasm");
  web.env.wasm.wasmPaths = require("url").pathToFileURL(path.dirname(req.resolve("onnxruntime-web/ort-wasm-simd-threaded.wasm")) + "/").href;
  web.env.wasm.numThreads = 1;
  const browser = await web.InferenceSession.create(require("fs").readFileSync(file), { executionProviders: ["wasm"], graphOptimizationLevel: "all" });
  const again = await browser.run({ image: new web.Tensor("float32", data, [n, 3, 160, 160]) });
  for (const w of want) {
    let worst = 0;
    out[w].data.forEach((v, i) => { worst = Math.max(worst, Math.abs(v - again[w].data[i])); });
    console.log(w, "onnxruntime-web differs by at most", worst.toExponential(1));
    if (!(worst < 1e-3)) throw new Error(`onnxruntime-web's ${w} differs from onnxruntime-node's by ${worst}`);
  }
  console.log("OK: onnxruntime-web loads it and agrees");
})().catch((e) => { console.error(e); process.exit(1); });
