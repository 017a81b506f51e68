import { Cause, Effect, Exit, Option } from "effect";
import { describe, expect, it } from "vitest";
import { SEND_MAIL_JOB } from "../shared/mail-jobs.ts";
import { type ReportDocument, ReportRenderer } from "./model.ts";
import { physicianResults } from "./physician-results.ts";
import { providerDownload } from "./download-report.ts";
import { addNote } from "./add-note.ts";
import { decidePhoto } from "./decide-photo.ts";
import { previewReport } from "./preview-report.ts";
import { publishReport } from "./publish-report.ts";
import { reopenReport } from "./reopen-report.ts";
import { requestRecapture } from "./request-recapture.ts";
import { analysedTestReport, at, aUser, PARENT, PHYSICIAN, REVIEWER, BABY, fakePhoto, makeReportWorld } from "./testing.ts";

// Different widths: rejecting one photo moves the median, so a stale PDF would show other numbers.
// Within measurement error of each other, so publishing needs no photo confirmed (photo-agreement.ts).
const PHOTOS = [60, 61, 62, 62].map((rx, i) => fakePhoto(rx, 80, i));

/** An analysed report waiting for review, in a fresh in-memory world. */
const analysedReport = () => analysedTestReport(PHOTOS);

/** A renderer whose PDF is the figures it printed, as JSON after a marker; `during` runs while it renders. */
const recordingRenderer = (during: (n: number) => Promise<void>) => {
  const rendered: ReportDocument[] = [];
  const port = {
    render: (doc: ReportDocument) =>
      Effect.promise(async () => {
        rendered.push(doc);
        await during(rendered.length);
        return new TextEncoder().encode(`%PDF-fake ${JSON.stringify(doc.summary)}`);
      }),
  };
  return { rendered, port };
};
const printedSummary = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes).slice("%PDF-fake ".length));
const storedPdfs = (w: Awaited<ReturnType<typeof analysedReport>>["w"], id: string) => [...w.onboarding.world.blobs.keys()].filter((k) => k.startsWith(`reports/${id}/`));

describe("publishing while the reviewer keeps working", () => {
  it("a decision that lands while the PDF renders: the publish renders again, and the stored PDF prints the saved summary", async () => {
    const { w, id, photo } = await analysedReport();
    const before = w.reports.get(id)!.analysis!;
    const { rendered, port } = recordingRenderer(async (n) => {
      // The first render races a second reviewer rejecting a photo (its own transaction, committed).
      if (n === 1) await w.run(w.as(REVIEWER)(decidePhoto(id, { attachment_identifier: photo("photo-4.png").id, decision: "reject", reason: "Image is blurry" })));
    });
    const result = await w.run(w.as(REVIEWER)(Effect.provideService(publishReport(id), ReportRenderer, port)));
    expect(rendered).toHaveLength(2);
    const report = w.reports.get(id)!;
    expect(report.status).toBe("published");
    expect(report.analysis!.ci!.count).toBe(before.ci!.count - 1);
    expect(report.analysis!.ci!.median).not.toBeCloseTo(before.ci!.median, 3);
    const version = w.versions.find((v) => v.reportId === id)!;
    expect(version.summary).toEqual(report.analysis);
    // The one PDF kept is the second render's; the stale one was removed.
    expect(storedPdfs(w, id)).toEqual([version.blobKey]);
    expect(printedSummary(w.onboarding.world.blobs.get(version.blobKey)!.bytes)).toEqual(JSON.parse(JSON.stringify(report.analysis)));
    expect(result.summary?.ci?.count).toBe(report.analysis!.ci!.count);
  });

  it("a note that lands while the PDF renders is printed too", async () => {
    const { w, id } = await analysedReport();
    const { rendered, port } = recordingRenderer(async (n) => {
      if (n === 1) await w.run(w.as(REVIEWER)(addNote(id, { note: "Late note" })));
    });
    await w.run(w.as(REVIEWER)(Effect.provideService(publishReport(id), ReportRenderer, port)));
    expect(rendered.map((d) => d.note)).toEqual([null, "Late note"]);
  });

  it("a report that changes during every render is not published: 422, no version, no PDF left behind", async () => {
    const { w, id, photo } = await analysedReport();
    const { rendered, port } = recordingRenderer(async (n) => {
      await w.run(w.as(REVIEWER)(decidePhoto(id, { attachment_identifier: photo("photo-1.png").id, decision: n % 2 === 1 ? "reject" : "accept", reason: "Image is blurry" })));
    });
    const exit = await w.exit(w.as(REVIEWER)(Effect.provideService(publishReport(id), ReportRenderer, port)));
    expect(Exit.isFailure(exit)).toBe(true);
    const failure = Exit.isFailure(exit) ? Option.getOrNull(Cause.failureOption(exit.cause)) : null;
    expect(failure).toMatchObject({ _tag: "ValidationFailed" });
    expect(rendered).toHaveLength(3);
    expect(w.reports.get(id)!.status).toBe("in_review");
    expect(w.versions).toHaveLength(0);
    expect(storedPdfs(w, id)).toEqual([]);
    expect(w.jobs.filter((j) => j.name === SEND_MAIL_JOB)).toHaveLength(0);
  });
});

describe("a republished report", () => {
  it("is unread again for its physician, and its e-mails are queued with each publish", async () => {
    const { w, id, photo } = await analysedReport();
    await w.run(w.as(REVIEWER)(publishReport(id)));
    expect(w.jobs.filter((j) => j.name === SEND_MAIL_JOB).map((j) => (j.payload.mail as { to: string }).to).sort()).toEqual([PARENT.email, PHYSICIAN.email].sort());
    await w.run(w.as(PHYSICIAN)(providerDownload(id)));
    const unread = async () => (await w.run(w.as(PHYSICIAN)(physicianResults(1, { type: "new" })))).data.map((r: { identifier: string }) => r.identifier);
    expect(await unread()).toEqual([]);
    await w.run(w.as(REVIEWER)(reopenReport(id)));
    // Reopened but not yet republished: still the version the physician read.
    expect(await unread()).toEqual([]);
    await w.run(w.as(REVIEWER)(decidePhoto(id, { attachment_identifier: photo("photo-2.png").id, decision: "reject", reason: "Image is blurry" })));
    expect((await w.run(w.as(REVIEWER)(publishReport(id)))).version).toBe(2);
    expect(await unread()).toEqual([id]);
    expect(w.jobs.filter((j) => j.name === SEND_MAIL_JOB)).toHaveLength(4);
  });

  it("a recapture request queues its e-mails with the change; a refused one queues none", async () => {
    const { w, id } = await analysedReport();
    const refused = await w.exit(w.as(REVIEWER)(requestRecapture(id, { reasons: ["Bad vibes"] })));
    expect(Exit.isFailure(refused)).toBe(true);
    expect(w.jobs.filter((j) => j.name === SEND_MAIL_JOB)).toHaveLength(0);
    await w.run(w.as(REVIEWER)(requestRecapture(id, { reasons: ["Image is blurry"] })));
    const mails = w.jobs.filter((j) => j.name === SEND_MAIL_JOB).map((j) => j.payload.mail as { to: string; text: string });
    expect(mails.map((m) => m.to).sort()).toEqual([PARENT.email, PHYSICIAN.email].sort());
    for (const m of mails) expect(m.text).toContain("Image is blurry");
  });
});

describe("the reviewer's preview", () => {
  it("renders the current review state marked as a preview, stores nothing and changes nothing", async () => {
    const { w, id, photo } = await analysedReport();
    await w.run(w.as(REVIEWER)(decidePhoto(id, { attachment_identifier: photo("photo-1.png").id, decision: "reject", reason: "Image is blurry" })));
    const before = { ...w.reports.get(id)! };
    const { rendered, port } = recordingRenderer(async () => undefined);
    const pdf = await w.run(w.as(REVIEWER)(Effect.provideService(previewReport(id), ReportRenderer, port)));
    expect(rendered.map((d) => [d.kind, d.version])).toEqual([["preview", 1]]);
    expect(printedSummary(pdf)).toEqual(JSON.parse(JSON.stringify(before.analysis)));
    expect(w.reports.get(id)).toEqual(before);
    expect(storedPdfs(w, id)).toEqual([]);
    expect(w.versions).toHaveLength(0);
    const denied = await w.exit(w.as(PHYSICIAN)(previewReport(id)));
    expect(Exit.isFailure(denied)).toBe(true);
  });
});

describe("the review console's order (issue 46)", () => {
  it("lists the uploaded files first, then each video's frames in time order", async () => {
    const { reviewOrder } = await import("./review-detail.ts");
    const a = (id: string, kind: string, sourceId: string | null = null, frameTime: number | null = null) => ({ id, kind, sourceId, frameTime });
    const stored = [a("p1", "image"), a("v1", "video"), a("f20", "frame", "v1", 2.0), a("f25", "frame", "v1", 2.5), a("f00", "frame", "v1", 0.0), a("f55", "frame", "v1", 5.5), a("p2", "image"), a("f15", "frame", "v1", 1.5)];
    expect(reviewOrder(stored).map((x) => x.id)).toEqual(["p1", "v1", "p2", "f00", "f15", "f20", "f25", "f55"]);
  });
});
