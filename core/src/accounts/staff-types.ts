/** The kinds of staff a physician may have act for them. Plain constants: the portal's forms read them. */
export const STAFF_TYPES = ["nurse", "office_admin"] as const;
export type StaffType = (typeof STAFF_TYPES)[number];
