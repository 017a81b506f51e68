// Report pipeline benchmarks (print figures; no timed assertions). Run with `pnpm bench` or
//   pnpm vitest bench --run tests/bench/reports.bench.ts
// - upload of 20 files of 100 MB through the real HTTP server on loopback (streamed multipart, busboy,
//   sniffing, SHA-256, local blob store) against a plain stream copy of the same bytes, with the peak
//   growth of the process's memory during each;
// - finalize to analyzed for 6 photos and a 10-second video (the model in models/head-contour, ffmpeg);
// - PDF render time of a published report with 6 photos.
import { createWriteStream, promises as fs } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { serve } from "@hono/node-server";
import { bench, describe } from "vitest";
import { renderReportPdf } from "../../adapters/pdf/src/report.tsx";
import { headPhoto, headVideo, startReportServer } from "../api/report-fixtures.ts";

const MB = 1024 * 1024;
const FILES = Number(process.env.BENCH_UPLOAD_FILES ?? 20);
const FILE_BYTES = Number(process.env.BENCH_UPLOAD_MB ?? 100) * MB;

/** Bytes of one "photo": a JPEG start then pseudo-random content, made chunk by chunk (never whole). */
const noise = Buffer.alloc(MB);
for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
function* fileChunks(index: number): Generator<Uint8Array> {
  const head = Buffer.from(noise);
  head.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, index & 0xff]);
  for (let sent = 0; sent < FILE_BYTES; sent += MB) yield sent === 0 ? head : noise.subarray(0, Math.min(MB, FILE_BYTES - sent));
}

const boundary = "----crown-bench-boundary";
function* multipart(reportId: string): Generator<Uint8Array> {
  yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="report_identifier"\r\n\r\n${reportId}\r\n`);
  for (let i = 0; i < FILES; i++) {
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="attachments[]"; filename="big-${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
    yield* fileChunks(i);
    yield Buffer.from("\r\n");
  }
  yield Buffer.from(`--${boundary}--\r\n`);
}

/** Samples the process's resident memory while `work` runs; answers its duration and peak growth. */
const measured = async (work: () => Promise<void>) => {
  global.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed + base.external + base.arrayBuffers;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed + m.external + m.arrayBuffers);
  }, 20);
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  return { seconds, rssGrowthMb: (peakRss - base.rss) / MB, heapGrowthMb: (peakHeap - (base.heapUsed + base.external + base.arrayBuffers)) / MB };
};

const line = (label: string, r: { seconds: number; rssGrowthMb: number; heapGrowthMb: number }, bytes: number) =>
  `${label.padEnd(34)} ${(bytes / MB / r.seconds).toFixed(0).padStart(5)} MB/s  ${r.seconds.toFixed(1).padStart(6)} s  peak RSS +${r.rssGrowthMb.toFixed(0)} MB  peak JS heap+buffers +${r.heapGrowthMb.toFixed(0)} MB`;

describe("report pipeline", () => {
  bench(
    `upload ${FILES} × ${FILE_BYTES / MB} MB through the API vs a plain copy`,
    async () => {
      const s = await startReportServer("pglite", { worker: false });
      const server = serve({ fetch: s.app.fetch, port: 0, hostname: "127.0.0.1" });
      await new Promise((r) => server.once("listening", r));
      const port = (server.address() as AddressInfo).port;
      try {
        const parent = await s.user("parent");
        const baby = await s.baby(parent.id, null);
        const reportId = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier;
        const total = FILES * FILE_BYTES;
        let status = 0;
        const upload = await measured(async () => {
          const response = await fetch(`http://127.0.0.1:${port}/api/v1/en/report/upload`, {
            method: "POST",
            headers: { authorization: `Bearer ${parent.token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
            body: Readable.toWeb(Readable.from(multipart(reportId))) as unknown as ReadableStream<Uint8Array>,
            duplex: "half",
          } as RequestInit);
          status = response.status;
          await response.arrayBuffer();
        });
        const dir = await fs.mkdtemp(path.join(os.tmpdir(), "crown-copy-"));
        // The same request body over the same loopback HTTP, piped straight to one file: the cost of
        // HTTP and the client alone, without multipart parsing, sniffing, hashing or the database.
        const raw = createServer((req, res) => void pipeline(req, createWriteStream(path.join(dir, "raw.bin"))).then(() => res.end("ok")));
        await new Promise<void>((r) => raw.listen(0, "127.0.0.1", () => r()));
        const httpCopy = await measured(async () => {
          const response = await fetch(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/`, {
            method: "POST",
            headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
            body: Readable.toWeb(Readable.from(multipart(reportId))) as unknown as ReadableStream<Uint8Array>,
            duplex: "half",
          } as RequestInit);
          await response.arrayBuffer();
        });
        raw.close();
        await fs.rm(path.join(dir, "raw.bin"), { force: true });
        const copy = await measured(async () => {
          for (let i = 0; i < FILES; i++) await pipeline(Readable.from(fileChunks(i)), createWriteStream(path.join(dir, `big-${i}.jpg`)));
        });
        await fs.rm(dir, { recursive: true, force: true });
        const stored = (await s.get(`/report/${reportId}`, parent.token)).json.results.attachments.length;
        console.log(
          [
            "",
            `upload of ${FILES} files of ${FILE_BYTES / MB} MB (${(total / MB / 1024).toFixed(2)} GB), answer ${status}, ${stored} attachments stored:`,
            line("  API (busboy, sniff, SHA-256, blob)", upload, total),
            line("  same body over HTTP, piped to a file", httpCopy, total),
            line("  plain stream copy to files", copy, total),
            `  throughput ratio API / plain copy: ${(copy.seconds / upload.seconds).toFixed(2)}; API / HTTP pipe: ${(httpCopy.seconds / upload.seconds).toFixed(2)}`,
            `  load average while measuring: ${os.loadavg().map((x) => x.toFixed(1)).join(" ")} on ${os.availableParallelism()} cores`,
          ].join("\n"),
        );
      } finally {
        server.close();
        await s.close();
      }
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );

  bench(
    "finalize to analyzed: 6 photos and a 10-second video (the shipped model, ffmpeg)",
    async () => {
      const s = await startReportServer("pglite", { model: "real" });
      try {
        const parent = await s.user("parent");
        const baby = await s.baby(parent.id, null);
        const reportId = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier;
        const photos = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => headPhoto({ rx: 300 + i * 3, ry: 370, width: 1200, height: 1600 })));
        const video = await headVideo({ rx: 170, ry: 210 }, 10);
        await s.upload(parent.token, reportId, [...photos.map((bytes, i) => ({ name: `p${i}.jpg`, bytes })), ...(video ? [{ name: "v.mp4", bytes: video }] : [])]);
        const started = performance.now();
        await s.post("/report/finalize", { report_identifier: reportId }, parent.token);
        const done = await s.waitFor(parent.token, reportId, ["analyzed"], 600_000);
        const seconds = (performance.now() - started) / 1000;
        const reviewer = await s.user("reviewer");
        const detail = (await s.get(`/review/report/${reportId}`, reviewer.token)).json.results;
        console.log(
          [
            "",
            `finalize → analyzed (6 photos 1200×1600${video ? " + 10 s video" : ", no ffmpeg: no video"}, ${s.services.pipeline.model ?? "model loaded"}): ${seconds.toFixed(2)} s`,
            `  measured ${detail.summary.measured} photos and frames, ${detail.attachments.filter((a: any) => a.kind === "frame").length} frames kept, status ${done.status}`,
            `  load average: ${os.loadavg().map((x) => x.toFixed(1)).join(" ")} on ${os.availableParallelism()} cores`,
          ].join("\n"),
        );
      } finally {
        await s.close();
      }
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );

  bench(
    "PDF render of a report with 6 photos",
    async () => {
      const photo = await headPhoto({ rx: 170, ry: 210 });
      const ellipse = Array.from({ length: 120 }, (_, i) => ({ x: 300 + 170 * Math.cos((i / 120) * 2 * Math.PI), y: 430 + 210 * Math.sin((i / 120) * 2 * Math.PI) }));
      const geometry = {
        imageWidth: 600,
        imageHeight: 800,
        outline: ellipse,
        noseTip: { x: 300, y: 210 },
        centre: { x: 300, y: 430 },
        apAxis: { x: 0, y: -1 },
        length: 420,
        width: 340,
        lengthEnds: [{ x: 300, y: 640 }, { x: 300, y: 220 }] as const,
        widthEnds: [{ x: 130, y: 430 }, { x: 470, y: 430 }] as const,
        diagonals: { a: 380, b: 378, endpoints: { a: [{ x: 200, y: 600 }, { x: 400, y: 260 }] as const, b: [{ x: 400, y: 600 }, { x: 200, y: 260 }] as const } },
        sticker: null,
      };
      const spread = { median: 81, min: 80.2, max: 82.3, count: 6 };
      const doc = {
        title: "Head shape screening report",
        kind: "published" as const,
        baby: { name: "Mia Rivera", dateOfBirth: "2026-07-15", ageAtCapture: "4 months 7 days", gender: "female" },
        capturedAt: new Date("2026-11-22T09:00:00Z"),
        publishedAt: new Date("2026-11-22T11:00:00Z"),
        version: 1,
        provider: "Dr. Grace Hopper",
        reviewer: "Rita Levi",
        note: "Good captures.",
        summary: { accepted: 6, measured: 6, ci: spread, cvai: { median: 2.1, min: 1.2, max: 3.3, count: 6 }, cva_mm: null, problems: [] },
        bands: { ci: "Typical", cvai: "Level 1 (within normal limits)" },
        photos: Array.from({ length: 6 }, (_, i) => ({ label: `photo-${i + 1}.jpg`, jpeg: photo, geometry, ci: 81, cvai: 2.1 })),
        history: [
          { date: new Date("2026-09-20"), ci: 84, cvai: 4.2 },
          { date: new Date("2026-10-21"), ci: 82.5, cvai: 3.1 },
          { date: new Date("2026-11-22"), ci: 81, cvai: 2.1 },
        ],
        disclaimer: "This report is a screening aid computed from photos. It is not a diagnosis and not a substitute for an examination by a doctor.",
        citation: "CVAI levels: CHOA plagiocephaly severity scale.",
      };
      const times: number[] = [];
      let size = 0;
      for (let i = 0; i < 6; i++) {
        const started = performance.now();
        size = (await renderReportPdf(doc)).byteLength;
        times.push(performance.now() - started);
      }
      const [first, ...rest] = times;
      rest.sort((a, b) => a - b);
      console.log(`\nPDF render (6 photos, 2 charts, ${(size / 1024).toFixed(0)} KB): first ${first!.toFixed(0)} ms (fonts load), then median ${rest[rest.length >> 1]!.toFixed(0)} ms over ${rest.length} (load average ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores)`);
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
});
