import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databaseKinds } from "./harness.ts";
import { headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";

type Who = "parent" | "otherParent" | "physician" | "staff" | "otherPhysician" | "otherStaff" | "reviewer" | "admin" | "anonymous";
const EVERYONE: Who[] = ["parent", "otherParent", "physician", "staff", "otherPhysician", "otherStaff", "reviewer", "admin", "anonymous"];

/** Expected status per caller; anything unnamed that may not see the object answers 404, anonymous 401. */
const matrix = (allowed: Partial<Record<Who, number>>, otherwise = 404): Record<Who, number> =>
  Object.fromEntries(EVERYONE.map((w) => [w, w === "anonymous" ? 401 : (allowed[w] ?? otherwise)])) as Record<Who, number>;

describe.each(await databaseKinds())("reports authorization matrix on %s", (kind) => {
  let s: ReportServer;
  let tokens: Record<Who, string | null>;
  let ids: Record<string, string>;
  let reportId: string;
  let attachment: { identifier: string; extension: string };

  beforeAll(async () => {
    s = await startReportServer(kind);
    const parent = await s.user("parent");
    const otherParent = await s.user("parent");
    const physician = await s.user("physician");
    const otherPhysician = await s.user("physician");
    const staff = await s.user("physician_staff");
    const otherStaff = await s.user("physician_staff");
    const reviewer = await s.user("reviewer");
    const admin = await s.user("admin");
    await s.delegate(physician.id, staff.id);
    await s.delegate(otherPhysician.id, otherStaff.id);
    const baby = await s.baby(parent.id, physician.id, "Noa");
    const otherBaby = await s.baby(otherParent.id, otherPhysician.id, "Eli");
    tokens = {
      parent: parent.token,
      otherParent: otherParent.token,
      physician: physician.token,
      staff: staff.token,
      otherPhysician: otherPhysician.token,
      otherStaff: otherStaff.token,
      reviewer: reviewer.token,
      admin: admin.token,
      anonymous: null,
    };
    ids = { baby: baby.id, otherBaby: otherBaby.id, physician: physician.id, otherPhysician: otherPhysician.id };
    reportId = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier;
    const up = await s.upload(parent.token, reportId, [{ name: "a.jpg", bytes: await headPhoto({ rx: 160, ry: 200 }) }]);
    attachment = up.json.results.attachments[0];
    await s.post("/report/finalize", { report_identifier: reportId }, parent.token);
    await s.waitFor(parent.token, reportId, ["analyzed"]);
  });
  afterAll(async () => {
    await s?.close();
  });

  const check = async (expected: Record<Who, number>, call: (token: string | null) => Promise<{ status: number }>) => {
    const got: Record<string, number> = {};
    for (const who of EVERYONE) got[who] = (await call(tokens[who])).status;
    expect(got).toEqual(expected);
  };

  test("before publishing: reading the report and its files; nobody but the parent downloads nothing yet", async () => {
    await check(matrix({ parent: 200, physician: 200, staff: 200, reviewer: 200, admin: 200 }), (t) => s.get(`/report/${reportId}`, t));
    await check(matrix({ parent: 200, physician: 200, staff: 200, reviewer: 200, admin: 200 }), (t) => s.get(`/report/attachment/${reportId}/${attachment.identifier}.${attachment.extension}`, t));
    await check(matrix({ parent: 200, physician: 200, staff: 200, reviewer: 200, admin: 200 }), (t) => s.get(`/report/thumb/${reportId}/${attachment.identifier}.${attachment.extension}`, t));
    // Nothing is published yet: no PDF for anyone.
    await check(matrix({}), (t) => s.get(`/report/${reportId}/download`, t));
    await check(matrix({}), (t) => s.get(`/report/${reportId}/parent-download`, t));
  });

  test("the review calls are the reviewer's alone", async () => {
    await check(matrix({ reviewer: 200 }, 403), (t) => s.post("/review/queue?page=1", {}, t));
    await check(matrix({ reviewer: 200 }, 403), (t) => s.get(`/review/report/${reportId}`, t));
    await check(matrix({ reviewer: 200 }, 403), (t) => s.post(`/review/report/${reportId}/note`, { note: "ok" }, t));
    const unknown = await s.get("/review/report/01UNKNOWNUNKNOWNUNKNOWN000", tokens.reviewer);
    expect(unknown.status).toBe(404);
  });

  test("every review action and the preview are the reviewer's alone, and the others' attempts change nothing", async () => {
    const detail = async () => (await s.get(`/review/report/${reportId}`, tokens.reviewer)).json.results;
    const photo = (await detail()).attachments.find((a: any) => a.identifier === attachment.identifier);
    const nose = photo.measurement.overlay.noseTip;
    await check(matrix({ reviewer: 200 }, 403), (t) => s.post(`/review/report/${reportId}/decision`, { attachment_identifier: attachment.identifier, decision: "accept" }, t));
    await check(matrix({ reviewer: 200 }, 403), (t) => s.post(`/review/report/${reportId}/nose-tip`, { attachment_identifier: attachment.identifier, x: nose.x, y: nose.y }, t));
    await check(matrix({ reviewer: 200 }, 403), (t) => s.get(`/review/report/${reportId}/preview`, t));
    const preview = await s.get(`/review/report/${reportId}/preview`, tokens.reviewer);
    expect(preview.response.headers.get("content-type")).toBe("application/pdf");
    expect(preview.response.headers.get("content-disposition")).toBe('inline; filename="Preview.pdf"');
    expect(new TextDecoder().decode(new Uint8Array(await preview.response.arrayBuffer()).subarray(0, 5))).toBe("%PDF-");
    // Nobody else moved the report on: still in review, unpublished, with the reviewer's actions only.
    const after = await detail();
    expect(after).toMatchObject({ status: "in_review", version: 0 });
    expect(new Set(after.actions.map((a: any) => a.action))).toEqual(new Set(["note", "photo_decision", "nose_tip_corrected"]));

    // Publish, reopen and recapture on a report of a family of its own (the results lists below stay as they are).
    const family = await s.user("parent");
    const familyBaby = await s.baby(family.id, null, "Ira");
    const second = (await s.post("/report/prepare", { baby_identifier: familyBaby.id, analysis_type: "head_ci_cvai_analysis" }, family.token)).json.results.report_identifier;
    await s.upload(family.token, second, [{ name: "b.jpg", bytes: await headPhoto({ rx: 162, ry: 200 }) }]);
    await s.post("/report/finalize", { report_identifier: second }, family.token);
    await s.waitFor(family.token, second, ["analyzed"]);
    const statusOf = async () => (await s.get(`/review/report/${second}`, tokens.reviewer)).json.results.status;
    await check(matrix({ reviewer: 200 }, 403), (t) => s.post(`/review/report/${second}/publish`, {}, t));
    expect(await statusOf()).toBe("published");
    await check(matrix({ reviewer: 200 }, 403), (t) => s.post(`/review/report/${second}/reopen`, {}, t));
    expect(await statusOf()).toBe("in_review");
    await check(matrix({ reviewer: 200 }, 403), (t) => s.post(`/review/report/${second}/recapture`, { reasons: ["Image is blurry"] }, t));
    expect(await statusOf()).toBe("recapture_requested");
    // A report that does not exist is 404 for the reviewer, and still 403 for anyone else.
    for (const [method, path] of [["post", "decision"], ["post", "nose-tip"], ["post", "publish"], ["post", "recapture"], ["post", "reopen"], ["get", "preview"]] as const) {
      const url = `/review/report/01UNKNOWNUNKNOWNUNKNOWN000/${path}`;
      const body = { attachment_identifier: attachment.identifier, decision: "accept", x: 1, y: 1, reasons: ["Image is blurry"] };
      const call = (t: string | null) => (method === "get" ? s.get(url, t) : s.post(url, body, t));
      expect((await call(tokens.reviewer)).status, path).toBe(404);
      expect((await call(tokens.admin)).status, path).toBe(403);
    }
  });

  test("after publishing: provider download, parent download, and results lists", async () => {
    expect((await s.post(`/review/report/${reportId}/publish`, {}, tokens.reviewer)).status).toBe(200);
    await check(matrix({ physician: 200, staff: 200, reviewer: 200, admin: 200 }), (t) => s.get(`/report/${reportId}/download`, t));
    await check(matrix({ parent: 200 }), (t) => s.get(`/report/${reportId}/parent-download`, t));
    // Results: the physician, and staff naming that physician, see it; the other practice does not.
    const results = async (t: string | null, body: Record<string, unknown> = {}) => s.post("/report/results?page=1", { per_page: 10, ...body }, t);
    expect((await results(tokens.physician)).json.results.data.map((r: any) => r.identifier)).toEqual([reportId]);
    expect((await results(tokens.staff, { results_for_staff: true, physician_id: ids.physician })).json.results.data.map((r: any) => r.identifier)).toEqual([reportId]);
    expect((await results(tokens.otherPhysician)).json.results.data).toEqual([]);
    expect((await results(tokens.staff, { results_for_staff: true, physician_id: ids.otherPhysician })).status).toBe(404);
    expect((await results(tokens.otherStaff, { results_for_staff: true, physician_id: ids.physician })).status).toBe(404);
    expect((await results(tokens.staff)).status).toBe(422);
    expect((await results(tokens.physician, { physician_id: ids.otherPhysician })).status).toBe(404);
    for (const who of ["parent", "reviewer", "admin"] as const) expect((await results(tokens[who])).status).toBe(403);
    expect((await results(null)).status).toBe(401);
    // The staff's download marked it read for the physician.
    expect((await results(tokens.physician, { type: "reviewed" })).json.results.data.map((r: any) => r.read)).toEqual([true]);
    // Search needs more than 2 characters, then matches the baby's name.
    expect((await results(tokens.physician, { search: "No" })).json.results.total).toBe(1);
    expect((await results(tokens.physician, { search: "Zed" })).json.results.total).toBe(0);
    expect((await results(tokens.physician, { search: "noa" })).json.results.total).toBe(1);

    const parentResults = async (t: string | null) => s.post("/report/parent-results", { per_page: 10 }, t);
    expect((await parentResults(tokens.parent)).json.results.data.map((r: any) => r.identifier)).toEqual([reportId]);
    expect((await parentResults(tokens.otherParent)).json.results.data).toEqual([]);
    expect((await parentResults(tokens.physician)).status).toBe(403);
    expect((await parentResults(null)).status).toBe(401);

    // Dashboards.
    const dash = await s.post("/report/list", { per_page: 5, type: "all" }, tokens.physician);
    expect(dash.json.results.data[0]).toMatchObject({ identifier: reportId, baby_name: "Noa Rivera", attachment_count: 1 });
    const parentDash = await s.post("/report/list", { baby_identifier: ids.baby }, tokens.parent);
    expect(parentDash.json.results.data[0]).toMatchObject({ identifier: reportId, attachment_count: 1 });
    expect((await s.post("/report/list", { baby_identifier: ids.baby }, tokens.otherParent)).status).toBe(404);
  });

  test("uploads lists, preparing, uploading and finalizing for someone else's baby or report answer 404", async () => {
    // Roles that never capture are refused outright (403); others' babies are 404.
    await check(matrix({ parent: 200, physician: 200, staff: 200, reviewer: 403, admin: 403 }), (t) => s.post("/report/my-uploads?page=1", { baby_identifier: ids.baby }, t));
    const prepare = (t: string | null, baby = ids.baby) => s.post("/report/prepare", { baby_identifier: baby, analysis_type: "head_ci_cvai_analysis" }, t);
    const statuses: Record<string, number> = {};
    for (const who of EVERYONE) statuses[who] = (await prepare(tokens[who])).status;
    expect(statuses).toEqual({ parent: 201, otherParent: 404, physician: 201, staff: 201, otherPhysician: 404, otherStaff: 404, reviewer: 403, admin: 403, anonymous: 401 });
    // Another parent's upload or finalize of this report: 404; the physician did not prepare it: 404.
    const photo = await headPhoto({ rx: 150, ry: 190 });
    for (const who of ["otherParent", "physician", "otherPhysician"] as const) {
      expect((await s.upload(tokens[who]!, reportId, [{ name: "x.jpg", bytes: photo }])).status).toBe(404);
      expect((await s.post("/report/finalize", { report_identifier: reportId }, tokens[who])).status).toBe(404);
    }
    // A published report takes no more files.
    expect((await s.upload(tokens.parent!, reportId, [{ name: "x.jpg", bytes: photo }])).status).toBe(409);
    expect((await s.upload(null as unknown as string, reportId, [{ name: "x.jpg", bytes: photo }])).status).toBe(401);
  });
});
