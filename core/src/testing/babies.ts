import type { Baby } from "../onboarding/model.ts";

/** A baby record with who and when given, and every optional detail empty (a mother's daughter). */
export const aBaby = (
  b: Pick<Baby, "id" | "parentId" | "physicianId" | "firstName" | "lastName" | "dateOfBirth" | "createdBy"> & Partial<Baby>,
): Baby => {
  const at = b.createdAt ?? new Date();
  return {
    middleName: null,
    relation: "mother",
    gender: "female",
    ethnicity: null,
    nicuTime: null,
    previousCondition: null,
    referralCode: null,
    caregiverEmail: null,
    caregiverPhone: null,
    createdAt: at,
    updatedAt: at,
    ...b,
  };
};
