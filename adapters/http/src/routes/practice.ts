import { Hono } from "hono";
import { AddStaffRequest, CalendarDays, ListRequest, NotificationCenter, Onboarding, PatientRequest, PatientUpdateRequest, Practice, RemoveStaffRequest, STAFF_TYPES } from "@crown/core";
import { ok, runUseCase } from "../effect-bridge.ts";
import type { Env } from "../env.ts";
import { paged, takesJson } from "../wire-input.ts";
import { requireCaller } from "../middleware.ts";
import { documented, PAGED, PAGED_WITH_SIZE } from "../openapi.ts";
import { jsonBody, pageParam } from "../request.ts";

const tag = "Practice";
const today = CalendarDays.latestToday(new Date());
const staffNote = "Staff name the physician they act for (physician_identifier or physician_id); the delegation is checked on every call";
documented({ method: "post", path: "/patient/list", summary: `A physician's patients, 10 per page (?page=, per_page, search longer than 2 characters). ${staffNote}`, query: PAGED, tag, auth: true, body: ListRequest });
documented({ method: "post", path: "/patient/add", summary: `Add a patient; a caregiver e-mail with no account is invited, an existing parent's account is asked and the baby joins it only when the parent accepts (the answer is the same for any address). Each add with an e-mail counts against the practice's invitations per day (429 with Retry-After). ${staffNote}`, tag, auth: true, body: PatientRequest(today) });
documented({ method: "post", path: "/patient/update", summary: `Edit a patient (the caregiver e-mail is not editable; removal is not possible). ${staffNote}`, tag, auth: true, body: PatientUpdateRequest(today) });
documented({ method: "post", path: "/physician/add-user", summary: `Add a staff member (email, type nurse|office_admin, default nurse); a new address is invited, an existing account is offered the delegation and acts for the practice once it accepts (the answer is the same for any address; 429 with Retry-After past the practice's invitations per day). ${staffNote}; staff may add nurses only`, tag, auth: true, body: AddStaffRequest });
documented({ method: "post", path: "/physician/nurse/add", summary: `Add a nurse (email). ${staffNote}`, tag, auth: true, body: AddStaffRequest });
documented({ method: "post", path: "/physician/nurse/list", summary: `A physician's nurses (?page=). ${staffNote}`, query: PAGED, tag, auth: true, body: ListRequest });
documented({ method: "post", path: "/physician/staff/list", summary: `A physician's staff, nurses and office admins (?page=). ${staffNote}`, query: PAGED, tag, auth: true, body: ListRequest });
documented({ method: "post", path: "/physician/nurse/remove", summary: `Remove a nurse (nurse_identifier). ${staffNote}`, tag, auth: true, body: RemoveStaffRequest });
documented({ method: "post", path: "/physician/staff/remove", summary: "Remove a staff member (staff_identifier, or the identifier of a row still awaiting its answer, which withdraws it); their access for this physician ends at once", tag, auth: true, body: RemoveStaffRequest });
documented({ method: "get", path: "/user/link-requests", summary: "The caller's requests from practices awaiting an answer (parents: a patient to add to their account; staff: a practice to join). Each baby shown is audited", tag, auth: true });
documented({ method: "post", path: "/user/link-requests/accept", summary: "Accept a request (identifier, kind patient|staff): the baby joins the parent's account, or the staff member acts for the practice; 409 when answered already or no longer possible", tag, auth: true, body: Practice.LinkAnswerRequest });
documented({ method: "post", path: "/user/link-requests/decline", summary: "Decline a request (identifier, kind patient|staff): nothing is linked and the practice is told", tag, auth: true, body: Practice.LinkAnswerRequest });

/** Patients and staff of a practice. Every call goes through the delegation check of core. */
export const practiceRoutes = () =>
  new Hono<Env>()
    .post("/patient/list", paged, takesJson(ListRequest), requireCaller, async (c) => {
      const page = await runUseCase(c, Practice.listPatients(pageParam(c), await jsonBody(c)));
      return c.json(ok(Practice.MESSAGES.patients, page), 200);
    })
    .post("/patient/add", takesJson(PatientRequest), requireCaller, async (c) => {
      const patient = await runUseCase(c, Practice.addPatient(await jsonBody(c)));
      return c.json(ok(Practice.MESSAGES.patientAdded, patient), 201);
    })
    .post("/patient/update", takesJson(PatientUpdateRequest), requireCaller, async (c) => {
      const patient = await runUseCase(c, Practice.updatePatient(await jsonBody(c)));
      return c.json(ok(Practice.MESSAGES.patientUpdated, patient), 200);
    })
    .post("/physician/add-user", takesJson(AddStaffRequest), requireCaller, async (c) => {
      const staff = await runUseCase(c, Practice.addStaff(await jsonBody(c)));
      return c.json(ok(Practice.MESSAGES.staffAdded, staff), 201);
    })
    .post("/physician/nurse/add", takesJson(AddStaffRequest), requireCaller, async (c) => {
      const staff = await runUseCase(c, Practice.addStaff(await jsonBody(c), { nurseOnly: true }));
      return c.json(ok(Practice.MESSAGES.staffAdded, staff), 201);
    })
    .post("/physician/nurse/list", paged, takesJson(ListRequest), requireCaller, async (c) => {
      const page = await runUseCase(c, Practice.listStaff(pageParam(c), await jsonBody(c), ["nurse"]));
      return c.json(ok(Practice.MESSAGES.staffList, page), 200);
    })
    .post("/physician/staff/list", paged, takesJson(ListRequest), requireCaller, async (c) => {
      const page = await runUseCase(c, Practice.listStaff(pageParam(c), await jsonBody(c), STAFF_TYPES));
      return c.json(ok(Practice.MESSAGES.staffList, page), 200);
    })
    .post("/physician/nurse/remove", takesJson(RemoveStaffRequest), requireCaller, async (c) => {
      const removed = await runUseCase(c, Practice.removeStaff(await jsonBody(c), { nurseOnly: true }));
      return c.json(ok(Practice.MESSAGES.staffRemoved, removed), 200);
    })
    .post("/physician/staff/remove", takesJson(RemoveStaffRequest), requireCaller, async (c) => {
      const removed = await runUseCase(c, Practice.removeStaff(await jsonBody(c)));
      return c.json(ok(Practice.MESSAGES.staffRemoved, removed), 200);
    })
    .get("/user/link-requests", requireCaller, async (c) => c.json(ok(Practice.MESSAGES.linkRequests, await runUseCase(c, Practice.myLinkRequests)), 200))
    .post("/user/link-requests/accept", takesJson(Practice.LinkAnswerRequest), requireCaller, async (c) =>
      c.json(ok(Practice.MESSAGES.linkAccepted, await runUseCase(c, Practice.acceptLinkRequest(await jsonBody(c)))), 200),
    )
    .post("/user/link-requests/decline", takesJson(Practice.LinkAnswerRequest), requireCaller, async (c) =>
      c.json(ok(Practice.MESSAGES.linkDeclined, await runUseCase(c, Practice.declineLinkRequest(await jsonBody(c)))), 200),
    );

documented({ method: "get", path: "/user/notifications", summary: "The caller's notifications, newest first (?page=, per_page)", query: PAGED_WITH_SIZE, tag: "Notifications", auth: true });
documented({ method: "get", path: "/user/notifications-count", summary: "The caller's unread notification count", tag: "Notifications", auth: true });
documented({ method: "post", path: "/user/read-notifications", summary: "Mark notifications read: identifiers (or identifier), or all when none is named", tag: "Notifications", auth: true });
documented({ method: "get", path: "/user/reminders", summary: "Computed reminders: a monthly scan per baby until month 7 (from the date of birth and the last upload), the BAA, the disclaimer, the quiz", tag: "Notifications", auth: true });

export const notificationRoutes = () =>
  new Hono<Env>()
    .get("/user/notifications", paged, requireCaller, async (c) => {
      const page = await runUseCase(c, NotificationCenter.listNotifications(pageParam(c), c.req.query()));
      return c.json(ok(NotificationCenter.NOTIFICATION_MESSAGES.list, page), 200);
    })
    .get("/user/notifications-count", requireCaller, async (c) => {
      const count = await runUseCase(c, NotificationCenter.countUnread);
      return c.json(ok(NotificationCenter.NOTIFICATION_MESSAGES.count, count), 200);
    })
    .post("/user/read-notifications", requireCaller, async (c) => {
      const result = await runUseCase(c, NotificationCenter.readNotifications(await jsonBody(c)));
      return c.json(ok(NotificationCenter.NOTIFICATION_MESSAGES.read, result), 200);
    })
    .get("/user/reminders", requireCaller, async (c) => {
      const reminders = await runUseCase(c, Onboarding.reminders);
      return c.json(ok(NotificationCenter.NOTIFICATION_MESSAGES.reminders, reminders), 200);
    });
