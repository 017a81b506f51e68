import { crown } from "../api/crown.ts";
import type { Api, ResultsOf } from "../api/wire.ts";
import type { Session } from "../session/machine.ts";

/** Patients and staff of a practice (spec section 7); staff name the physician they act for. */

/** A patient as `/patient/list` answers it. */
export type Patient = ResultsOf<Api["patient"]["list"]["$post"]>["data"][number];
/** A staff member as the staff lists answer them (pending until the invitee accepts). */
export type StaffMember = ResultsOf<Api["physician"]["staff"]["list"]["$post"]>["data"][number] | ResultsOf<Api["physician"]["nurse"]["list"]["$post"]>["data"][number];

/** The physician a staff member acts for, added to the body (nothing for a physician). */
export const actingFor = (s: Session | null): { physician_identifier?: string } =>
  s?.userRole === "physician_staff" && s.activePhysicianId ? { physician_identifier: s.activePhysicianId } : {};

type PatientBody = Parameters<Api["patient"]["add"]["$post"]>[0]["json"];

export const listPatients = (page: number, body: Parameters<Api["patient"]["list"]["$post"]>[0]["json"]) =>
  crown.call((api) => api.patient.list.$post({ json: body, query: { page } }));
export const addPatient = (body: PatientBody) => crown.call((api) => api.patient.add.$post({ json: body }));
export const updatePatient = (body: Parameters<Api["patient"]["update"]["$post"]>[0]["json"]) => crown.call((api) => api.patient.update.$post({ json: body }));

export const listStaff = (page: number, body: Parameters<Api["physician"]["staff"]["list"]["$post"]>[0]["json"], staffUser: boolean) =>
  crown.call((api) => (staffUser ? api.physician.nurse.list.$post({ json: body, query: { page } }) : api.physician.staff.list.$post({ json: body, query: { page } })));

export const addStaff = (staffUser: boolean, body: Parameters<Api["physician"]["add-user"]["$post"]>[0]["json"]) =>
  crown.call((api) => (staffUser ? api.physician.nurse.add.$post({ json: body }) : api.physician["add-user"].$post({ json: body })));

export const removeStaff = (staffUser: boolean, identifier: string, physicianIdentifier?: string) =>
  staffUser
    ? crown.call((api) => api.physician.nurse.remove.$post({ json: { nurse_identifier: identifier, physician_identifier: physicianIdentifier } }))
    : crown.call((api) => api.physician.staff.remove.$post({ json: { staff_identifier: identifier } }));

/** A practice's request awaiting the signed-in parent's or staff member's answer (ADR 56). */
export type LinkRequest = ResultsOf<Api["user"]["link-requests"]["$get"]>["data"][number];
export const linkRequests = () => crown.call((api) => api.user["link-requests"].$get());
export const answerLinkRequest = (answer: "accept" | "decline", r: Pick<LinkRequest, "identifier" | "kind">) =>
  crown.call((api) => api.user["link-requests"][answer].$post({ json: { identifier: r.identifier, kind: r.kind } }));
