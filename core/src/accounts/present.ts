import { practiceVerification } from "./practice-verification.ts";
import type { User } from "./model.ts";

/** Who an account is, as every answer about an account starts (profile, approvals). */
export const accountSummary = (user: User) => ({
  identifier: user.id,
  first_name: user.firstName,
  last_name: user.lastName,
  email: user.email,
  phone: user.phone,
  type: user.type,
  status: user.status,
});

/** The profile as the spec answers it; a physician's also carries fax, NPI and the practice's verification. */
export const profileOf = (user: User) => ({
  ...accountSummary(user),
  language: user.language,
  photo: user.photoKey ? `/api/v1/en/user/profile-photo?v=${encodeURIComponent(user.photoKey.split("/").pop() ?? "")}` : null,
  ...(user.type === "physician" ? { fax_number: user.faxNumber, npi: user.npi, practice_verification: practiceVerification(user) } : {}),
});
