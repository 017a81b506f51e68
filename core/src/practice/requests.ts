import { Effect, Schema } from "effect";
import { ValidationFailed } from "../shared/errors.ts";
import { OneOf, Required } from "../shared/validation.ts";

/** The practice's answers' messages and the form helpers its use cases share. */
export const MESSAGES = {
  patients: "Patients fetched successfully",
  patientAdded: "Patient details added successfully",
  patientUpdated: "Patient details updated successfully",
  staffAdded: "Staff member added successfully",
  staffRemoved: "Staff member removed successfully",
  staffList: "Staff members fetched successfully",
  staffAlready: "This person is already a staff member of this physician.",
  staffAsked: "This person has been asked already and has not answered yet.",
  staffOnlyNurses: "Only the physician can add or remove an office admin.",
  staffIdentifierRequired: "Staff identifier is required",
  physicians: "Physicians fetched successfully",
  linkRequests: "Requests fetched successfully",
  linkAccepted: "Request accepted",
  linkDeclined: "Request declined",
  linkAnswered: "This request has been answered already.",
  linkNotAnswerable: "This request can no longer be accepted.",
} as const;

export const SEARCH_MIN = 3;
/** The search of a list: used only when the trimmed text is longer than 2 characters. */
export const searchText = (search: string | undefined | null) => (search && search.trim().length >= SEARCH_MIN ? search.trim() : null);

export const blanksAsAbsent = (input: unknown): unknown =>
  input !== null && typeof input === "object" && !Array.isArray(input)
    ? Object.fromEntries(Object.entries(input).filter(([, v]) => !(typeof v === "string" && v.trim() === "")))
    : input;
export const orNull = <T>(value: T | undefined | null): T | null => (value === undefined || value === null || value === "" ? null : value);

/** The patient form reports phone errors as `mobile_number` (the capture spec's field name). */
export const renamePhoneErrors = <A, R>(self: Effect.Effect<A, ValidationFailed, R>) =>
  Effect.mapError(self, (error) => {
    if (!error.errors.phone) return error;
    const { phone, ...rest } = error.errors;
    return new ValidationFailed({ message: error.message, errors: { ...rest, mobile_number: phone } });
  });

/** An answer to a practice's request: which request, and of which kind (ADR 56). */
export const LINK_KINDS = ["patient", "staff"] as const;
export type LinkKind = (typeof LINK_KINDS)[number];
export const LinkAnswerRequest = Schema.Struct({
  identifier: Required("Identifier"),
  kind: OneOf(LINK_KINDS, "Kind"),
});
export type LinkAnswerRequest = typeof LinkAnswerRequest.Type;
