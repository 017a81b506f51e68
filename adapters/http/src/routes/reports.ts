import { Hono } from "hono";
import type { StoredBlob } from "@crown/core";
import { idempotencyKeyOf } from "@crown/core/shared/idempotency";
import {
  addNote,
  correctNoseTip,
  correctOutline,
  resetOutline,
  OutlineRequest,
  AttachmentRequest,
  dashboardList,
  DecisionRequest,
  decidePhoto,
  defaultReportSettings,
  finalizeReport,
  ListRequest,
  myUploads,
  NoseTipRequest,
  NoteRequest,
  parentDownload,
  parentResults,
  ParentResultsRequest,
  previewReport,
  physicianResults,
  prepareReport,
  PrepareRequest,
  providerDownload,
  publishReport,
  readAttachment,
  readThumbnail,
  RecaptureRequest,
  reopenReport,
  ReportIdentifierRequest,
  reportStatus,
  requestRecapture,
  RESULT_MESSAGES,
  ResultsRequest,
  REVIEW_MESSAGES,
  reviewDetail,
  reviewQueue,
  UPLOAD_MESSAGES,
  uploadAttachments,
  UploadsRequest,
} from "@crown/core/report/index";
import { ok, runUseCase } from "../effect-bridge.ts";
import type { Env } from "../env.ts";
import { paged, takesBody, takesJson } from "../wire-input.ts";
import { requireCaller } from "../middleware.ts";
import { documented, PAGED } from "../openapi.ts";
import { jsonBody, pageParam } from "../request.ts";
import { multipartParts } from "../multipart-parts.ts";

const tag = "Reports";
const review = "Review";
documented({ method: "post", path: "/report/prepare", summary: "Prepare a report for a baby; answers report_identifier", tag, auth: true, body: PrepareRequest });
documented({ method: "post", path: "/report/upload", summary: "Upload attachments[] (jpg, jpeg, png, mp4, mov; at most 20 a report, 100 MB each) with report_identifier, streamed", tag, auth: true, bodyType: "multipart" });
documented({ method: "post", path: "/report/finalize", summary: "Submit the report for analysis (idempotent; needs at least one photo)", tag, auth: true, body: ReportIdentifierRequest });
documented({ method: "post", path: "/report/results", summary: "A physician's published results (staff: results_for_staff and physician_id); type all, new or reviewed; ?page=", query: PAGED, tag, auth: true, body: ResultsRequest });
documented({ method: "post", path: "/report/parent-results", summary: "The published results of the caller's babies", query: PAGED, tag, auth: true, body: ParentResultsRequest });
documented({ method: "post", path: "/report/list", summary: "Dashboards: a parent's uploads for a baby, or a physician's recent results", query: PAGED, tag, auth: true, body: ListRequest });
documented({ method: "post", path: "/report/my-uploads", summary: "Every upload of a baby with its attachments; ?page=", query: PAGED, tag, auth: true, body: UploadsRequest });
documented({ method: "get", path: "/report/:id", summary: "A report's status, attachments and (once published) figures", tag, auth: true });
documented({ method: "get", path: "/report/:id/download", summary: "The published PDF for the physician or staff (marks it read for the physician)", tag, auth: true, response: "pdf" });
documented({ method: "get", path: "/report/:id/parent-download", summary: "The published PDF for the parent", tag, auth: true, response: "pdf" });
documented({ method: "get", path: "/report/attachment/:report/:file", summary: "An attachment (images: EXIF-oriented JPEG without metadata)", tag, auth: true, response: "binary" });
documented({ method: "get", path: "/report/thumb/:report/:file", summary: "A thumbnail of an image attachment", tag, auth: true, response: "binary" });
documented({ method: "post", path: "/review/queue", summary: "Reports waiting for review, oldest first, with the baby's age and previous results; ?page=", query: PAGED, tag: review, auth: true });
documented({ method: "get", path: "/review/report/:id", summary: "A report for review: every photo and frame with its overlay and measurement, and the review log", tag: review, auth: true });
documented({ method: "post", path: "/review/report/:id/decision", summary: "Accept or reject a photo", tag: review, auth: true, body: DecisionRequest });
documented({ method: "post", path: "/review/report/:id/nose-tip", summary: "Correct the nose tip (photo pixels) and re-measure", tag: review, auth: true, body: NoseTipRequest });
documented({ method: "post", path: "/review/report/:id/outline", summary: "Correct the head outline (and nose tip) and re-measure; the model's answer is kept", tag: review, auth: true, body: OutlineRequest });
documented({ method: "post", path: "/review/report/:id/outline/reset", summary: "Reset to the model's outline and figures", tag: review, auth: true, body: AttachmentRequest });
documented({ method: "post", path: "/review/report/:id/note", summary: "Add or replace the reviewer's note", tag: review, auth: true, body: NoteRequest });
documented({ method: "post", path: "/review/report/:id/publish", summary: "Render and publish the report (a new immutable version), and notify the parent and physician", tag: review, auth: true });
documented({ method: "get", path: "/review/report/:id/preview", summary: "The PDF as publishing would render it now, marked as a preview; nothing is stored (audited)", tag: review, auth: true, response: "pdf" });
documented({ method: "post", path: "/review/report/:id/recapture", summary: "Request a recapture with reasons from the quiz list, and notify the parent and physician", tag: review, auth: true, body: RecaptureRequest });
documented({ method: "post", path: "/review/report/:id/reopen", summary: "Reopen a published report for correction", tag: review, auth: true });

const fileResponse = (blob: StoredBlob, headers: Record<string, string>) =>
  new Response(blob.body, { status: 200, headers: { "content-type": blob.contentType, "content-length": String(blob.size), ...headers } });

const pdfResponse = (blob: StoredBlob) =>
  fileResponse(blob, { "content-type": "application/pdf", "content-disposition": 'attachment; filename="Result.pdf"', "cache-control": "private, no-store" });

/** Reports, results, downloads and the reviewers' calls. */
export const reportsRoutes = () =>
  new Hono<Env>()
    .post("/report/prepare", takesJson(PrepareRequest), requireCaller, async (c) => {
      const results = await runUseCase(c, prepareReport(await jsonBody(c), idempotencyKeyOf(c.req.header("idempotency-key"))));
      return c.json(ok(UPLOAD_MESSAGES.prepared, results), 201);
    })
    .post("/report/upload", requireCaller, async (c) => {
      if (!(c.req.header("content-type") ?? "").includes("multipart/form-data")) {
        return c.json({ message: UPLOAD_MESSAGES.noFiles, errors: { attachments: [UPLOAD_MESSAGES.noFiles] } }, 422);
      }
      const { parts, close } = multipartParts(c, { files: defaultReportSettings.maxFiles, fileSize: defaultReportSettings.maxFileBytes });
      try {
        const results = await runUseCase(c, uploadAttachments(parts, c.req.query("report_identifier") ?? null));
        return c.json(ok(UPLOAD_MESSAGES.uploaded, results), 200);
      } finally {
        close();
      }
    })
    .post("/report/finalize", takesJson(ReportIdentifierRequest), requireCaller, async (c) => {
      const results = await runUseCase(c, finalizeReport(await jsonBody(c)));
      return c.json(ok(UPLOAD_MESSAGES.finalized, results), 200);
    })
    .post("/report/results", paged, takesJson(ResultsRequest), requireCaller, async (c) => {
      const results = await runUseCase(c, physicianResults(pageParam(c), await jsonBody(c)));
      return c.json(ok(RESULT_MESSAGES.results, results), 200);
    })
    .post("/report/parent-results", paged, takesJson(ParentResultsRequest), requireCaller, async (c) => {
      const results = await runUseCase(c, parentResults(pageParam(c), await jsonBody(c)));
      return c.json(ok(RESULT_MESSAGES.results, results), 200);
    })
    .post("/report/list", paged, takesJson(ListRequest), requireCaller, async (c) => {
      const results = await runUseCase(c, dashboardList(pageParam(c), await jsonBody(c)));
      return c.json(ok(RESULT_MESSAGES.list, results), 200);
    })
    .post("/report/my-uploads", paged, takesJson(UploadsRequest), requireCaller, async (c) => {
      const results = await runUseCase(c, myUploads(pageParam(c), await jsonBody(c)));
      return c.json(ok(RESULT_MESSAGES.uploads, results), 200);
    })
    .get("/report/attachment/:report/:file", requireCaller, async (c) => {
      const { blob, fileName } = await runUseCase(c, readAttachment(c.req.param("report"), c.req.param("file")));
      return fileResponse(blob, { "content-disposition": `inline; filename="${fileName}"`, "cache-control": "private, no-store" });
    })
    .get("/report/thumb/:report/:file", requireCaller, async (c) => {
      const blob = await runUseCase(c, readThumbnail(c.req.param("report"), c.req.param("file")));
      return fileResponse(blob, { "cache-control": "private, no-store" });
    })
    .get("/report/:id/download", requireCaller, async (c) => pdfResponse(await runUseCase(c, providerDownload(c.req.param("id")))))
    .get("/report/:id/parent-download", requireCaller, async (c) => pdfResponse(await runUseCase(c, parentDownload(c.req.param("id")))))
    .get("/report/:id", requireCaller, async (c) => c.json(ok(RESULT_MESSAGES.list, await runUseCase(c, reportStatus(c.req.param("id")))), 200))
    .post("/review/queue", paged, takesBody<{ per_page?: number }>(), requireCaller, async (c) => c.json(ok(REVIEW_MESSAGES.queue, await runUseCase(c, reviewQueue(pageParam(c), await jsonBody(c)))), 200))
    .get("/review/report/:id", requireCaller, async (c) => c.json(ok(REVIEW_MESSAGES.detail, await runUseCase(c, reviewDetail(c.req.param("id")))), 200))
    .post("/review/report/:id/decision", takesJson(DecisionRequest), requireCaller, async (c) =>
      c.json(ok(REVIEW_MESSAGES.decided, await runUseCase(c, decidePhoto(c.req.param("id"), await jsonBody(c)))), 200),
    )
    .post("/review/report/:id/nose-tip", takesJson(NoseTipRequest), requireCaller, async (c) =>
      c.json(ok(REVIEW_MESSAGES.corrected, await runUseCase(c, correctNoseTip(c.req.param("id"), await jsonBody(c)))), 200),
    )
    .post("/review/report/:id/outline", takesJson(OutlineRequest), requireCaller, async (c) =>
      c.json(ok(REVIEW_MESSAGES.outlineCorrected, await runUseCase(c, correctOutline(c.req.param("id"), await jsonBody(c)))), 200),
    )
    .post("/review/report/:id/outline/reset", takesJson(AttachmentRequest), requireCaller, async (c) =>
      c.json(ok(REVIEW_MESSAGES.outlineReset, await runUseCase(c, resetOutline(c.req.param("id"), await jsonBody(c)))), 200),
    )
    .post("/review/report/:id/note", takesJson(NoteRequest), requireCaller, async (c) => c.json(ok(REVIEW_MESSAGES.noted, await runUseCase(c, addNote(c.req.param("id"), await jsonBody(c)))), 200))
    .get("/review/report/:id/preview", requireCaller, async (c) => {
      const pdf = await runUseCase(c, previewReport(c.req.param("id")));
      return new Response(pdf as Uint8Array<ArrayBuffer>, {
        status: 200,
        headers: { "content-type": "application/pdf", "content-length": String(pdf.byteLength), "content-disposition": 'inline; filename="Preview.pdf"', "cache-control": "private, no-store" },
      });
    })
    .post("/review/report/:id/publish", requireCaller, async (c) => c.json(ok(REVIEW_MESSAGES.published, await runUseCase(c, publishReport(c.req.param("id")))), 200))
    .post("/review/report/:id/recapture", takesJson(RecaptureRequest), requireCaller, async (c) =>
      c.json(ok(REVIEW_MESSAGES.recapture, await runUseCase(c, requestRecapture(c.req.param("id"), await jsonBody(c)))), 200),
    )
    .post("/review/report/:id/reopen", requireCaller, async (c) => c.json(ok(REVIEW_MESSAGES.reopened, await runUseCase(c, reopenReport(c.req.param("id")))), 200));
