import { SEND_MAIL_JOB } from "@crown/core/shared/mail-jobs";
import { listJobs } from "@crown/jobs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databaseKinds } from "./harness.ts";
import { flakyMailWorker } from "./mail-worker.ts";
import { headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";

/** Publish and recapture e-mails go through the job queue: a mail server that fails once delays a mail, never loses or doubles it. */
describe.each(await databaseKinds())("report e-mails through the job queue on %s", (kind) => {
  let s: ReportServer;
  let mail: Awaited<ReturnType<typeof flakyMailWorker>>;
  beforeAll(async () => {
    s = await startReportServer(kind, { worker: false });
    mail = await flakyMailWorker(s.db, s.services.run as never);
  });
  afterAll(async () => {
    await mail?.worker.stop();
    await s?.close();
  });

  const analysedReport = async (parentToken: string, babyId: string) => {
    const id = (await s.post("/report/prepare", { baby_identifier: babyId, analysis_type: "head_ci_cvai_analysis" }, parentToken)).json.results.report_identifier as string;
    await s.upload(parentToken, id, [{ name: "a.jpg", bytes: await headPhoto({ rx: 165, ry: 205 }) }]);
    await s.post("/report/finalize", { report_identifier: id }, parentToken);
    await s.waitFor(parentToken, id, ["analyzed"]);
    return id;
  };
  const mailJobs = async () => (await listJobs(s.db, SEND_MAIL_JOB)).map((j) => ({ ...j, to: (j.payload.mail as { to: string }).to }));

  test("a publish e-mail refused once by the mail server is sent on the retry, once; the other recipient's is not sent again", async () => {
    const physician = await s.user("physician");
    const parent = await s.user("parent");
    const reviewer = await s.user("reviewer");
    const baby = await s.baby(parent.id, physician.id);
    const id = await analysedReport(parent.token, baby.id);
    mail.failNext.add(physician.email);
    expect((await s.post(`/review/report/${id}/publish`, {}, reviewer.token)).status).toBe(200);
    await mail.worker.idle();
    const ready = (await s.outbox()).filter((m) => /is ready/.test(m.subject));
    expect(ready.filter((m) => m.to.includes(physician.email))).toHaveLength(1);
    expect(ready.filter((m) => m.to.includes(parent.email))).toHaveLength(1);
    expect(mail.attempts.filter((to) => to === physician.email)).toHaveLength(2);
    expect(mail.attempts.filter((to) => to === parent.email)).toHaveLength(1);
    const jobs = await mailJobs();
    expect(jobs.find((j) => j.to === physician.email)).toMatchObject({ state: "completed", attempts: 2, last_error: expect.stringContaining("421") });
    expect(jobs.find((j) => j.to === parent.email)).toMatchObject({ state: "completed", attempts: 1 });
  });

  test("a recapture e-mail refused once is sent on the retry, once, with what to redo", async () => {
    const parent = await s.user("parent");
    const reviewer = await s.user("reviewer");
    const baby = await s.baby(parent.id, null);
    const id = await analysedReport(parent.token, baby.id);
    mail.failNext.add(parent.email);
    expect((await s.post(`/review/report/${id}/recapture`, { reasons: ["Image is blurry"], note: "Closer, please" }, reviewer.token)).status).toBe(200);
    await mail.worker.idle();
    const asked = (await s.outbox()).filter((m) => m.to.includes(parent.email));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.subject).toMatch(/new photos/);
    expect(asked[0]!.text).toContain("Image is blurry");
    expect(mail.attempts.filter((to) => to === parent.email)).toHaveLength(2);
  });

  test("a refused change queues no e-mail", async () => {
    const parent = await s.user("parent");
    const reviewer = await s.user("reviewer");
    const baby = await s.baby(parent.id, null);
    const id = await analysedReport(parent.token, baby.id);
    const before = (await mailJobs()).length;
    expect((await s.post(`/review/report/${id}/recapture`, { reasons: ["Bad vibes"] }, reviewer.token)).status).toBe(422);
    expect((await mailJobs()).length).toBe(before);
  });
});
