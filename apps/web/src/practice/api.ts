import { request } from "../api/client.ts";
import type { Api, ResultsOf } from "../api/wire.ts";
import type { Page } from "../api/types.ts";
import type { Session } from "../machines/session.ts";

/** Patients and staff of a practice (spec section 7); staff name the physician they act for. */

export interface Patient {
  readonly identifier: string;
  readonly name: string;
  readonly first_name: string;
  readonly middle_name?: string | null;
  readonly last_name: string;
  readonly email?: string | null;
  readonly phone?: string | null;
  readonly gender?: string | null;
  readonly date_of_birth: string;
  readonly previous_condition?: string | null;
  readonly relation?: string | null;
  readonly referral_code?: string | null;
  readonly physician_identifier?: string;
}

export interface StaffMember {
  readonly identifier: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly name?: string;
  readonly email: string;
  readonly phone?: string | null;
  readonly role?: string;
  readonly staff_type?: string;
  /** Pending until the invitee sets a password from the invitation, or an existing account accepts. */
  readonly state?: "pending" | "active";
}

/** The physician a staff member acts for, added to the body (nothing for a physician). */
export const actingFor = (s: Session | null): { physician_identifier?: string } =>
  s?.userRole === "physician_staff" && s.activePhysicianId ? { physician_identifier: s.activePhysicianId } : {};

export const listPatients = (page: number, body: { per_page: number; search: string; physician_identifier?: string }) =>
  request<Page<Patient>>("POST", "/patient/list", { json: body, query: { page } });
export const addPatient = (body: Record<string, unknown>) => request<Patient>("POST", "/patient/add", { json: body });
export const updatePatient = (body: Record<string, unknown>) => request<Patient>("POST", "/patient/update", { json: body });

export const listStaff = (page: number, body: { per_page: number; physician_identifier?: string }, staffUser: boolean) =>
  request<Page<StaffMember>>("POST", staffUser ? "/physician/nurse/list" : "/physician/staff/list", { json: body, query: { page } });

export const addStaff = (staffUser: boolean, body: { email: string; type?: string; physician_identifier?: string }) =>
  request<StaffMember>("POST", staffUser ? "/physician/nurse/add" : "/physician/add-user", { json: body });

export const removeStaff = (staffUser: boolean, identifier: string, physicianIdentifier?: string) =>
  staffUser
    ? request<unknown>("POST", "/physician/nurse/remove", { json: { nurse_identifier: identifier, physician_identifier: physicianIdentifier } })
    : request<unknown>("POST", "/physician/staff/remove", { json: { staff_identifier: identifier } });

/** A practice's request awaiting the signed-in parent's or staff member's answer (ADR 56). */
export type LinkRequest = ResultsOf<Api["user"]["link-requests"]["$get"]>["data"][number];
export const linkRequests = () => request<ResultsOf<Api["user"]["link-requests"]["$get"]>>("GET", "/user/link-requests");
export const answerLinkRequest = (answer: "accept" | "decline", r: Pick<LinkRequest, "identifier" | "kind">) =>
  request<unknown>("POST", `/user/link-requests/${answer}`, { json: { identifier: r.identifier, kind: r.kind } });
