import { USER_STATUSES, USER_TYPES } from "@crown/core/accounts/lifecycle";
import { REVOCATION_REASONS_SHOWN } from "@crown/core/kiosk/revocation";
import { REPORT_STATUSES } from "@crown/core/report/lifecycle";
import { describe, expect, it } from "vitest";
import enAdmin from "../i18n/locales/en/admin.json";
import enCommon from "../i18n/locales/en/common.json";
import esCommon from "../i18n/locales/es/common.json";
import enSupport from "../i18n/locales/en/support.json";
import esAdmin from "../i18n/locales/es/admin.json";
import enPractice from "../i18n/locales/en/practice.json";
import esPractice from "../i18n/locales/es/practice.json";
import enReview from "../i18n/locales/en/review.json";
import esReview from "../i18n/locales/es/review.json";

/*
 * The consoles and practice screens name statuses and types through catalogue keys built from the value
 * (`status.in_review`), which the extraction check cannot follow. Every value has its name in both
 * languages, and the English names are what the screens showed before issue 21 (English unchanged).
 */

const DEVICE_STATUSES = ["pairing", "expired", "paired", "revoked"];

describe("status and type names in the consoles' catalogues", () => {
  it("names every report status; in English as the raw status with spaces", () => {
    expect(Object.keys(enReview.status).sort()).toEqual([...REPORT_STATUSES].sort());
    expect(Object.keys(esReview.status).sort()).toEqual([...REPORT_STATUSES].sort());
    for (const status of REPORT_STATUSES) expect(enReview.status[status]).toBe(status.replace(/_/g, " "));
    expect(esReview.status.in_review).toBe("en revisión");
  });

  it("names every account status once, in words (English and Spanish), for the admin console and the support inbox alike", () => {
    for (const catalogue of [enCommon, esCommon]) expect(Object.keys(catalogue.accountStatus).sort()).toEqual([...USER_STATUSES].sort());
    // Words a person reads, not the server's identifiers (issue 46): "Waiting for approval", not "WaitingApproval".
    expect(enCommon.accountStatus).toEqual({
      EmailVerificationRequired: "Email verification required",
      AdditionalInformationRequired: "Additional information required",
      WaitingApproval: "Waiting for approval",
      Active: "Active",
      Blocked: "Blocked",
    });
    for (const status of USER_STATUSES) {
      for (const catalogue of [enCommon, esCommon]) expect(catalogue.accountStatus[status]).not.toMatch(/[a-z][A-Z]/);
    }
    expect(esCommon.accountStatus.WaitingApproval).toBe("En espera de aprobación");
    // One rule: neither console keeps names of its own.
    expect("accountStatus" in enAdmin || "userStatus" in enSupport).toBe(false);
  });

  it("names every account type; in English as the server wrote them", () => {
    for (const catalogue of [enAdmin, esAdmin]) {
      expect(Object.keys(catalogue.accountType).sort()).toEqual([...USER_TYPES].sort());
      expect(Object.keys(catalogue.typeName).sort()).toEqual([...USER_TYPES].sort());
    }
    for (const type of USER_TYPES) expect(enAdmin.accountType[type]).toBe(type);
  });

  it("names every kiosk device status; in English as the server wrote it", () => {
    for (const names of [enAdmin.kiosks.status, esAdmin.kiosks.status, enPractice.kiosk.devices.status, esPractice.kiosk.devices.status]) {
      expect(Object.keys(names).sort()).toEqual([...DEVICE_STATUSES].sort());
    }
    for (const status of DEVICE_STATUSES) {
      expect(enAdmin.kiosks.status[status as keyof typeof enAdmin.kiosks.status]).toBe(status);
      expect(enPractice.kiosk.devices.status[status as keyof typeof enPractice.kiosk.devices.status]).toBe(status);
    }
  });

  it("names every reason a kiosk device is revoked for, once for both consoles, in English and Spanish (ADR 0170)", () => {
    for (const catalogue of [enCommon, esCommon]) expect(Object.keys(catalogue.kioskRevocation.reason).sort()).toEqual([...REVOCATION_REASONS_SHOWN].sort());
    expect(enCommon.kioskRevocation.reason.lost_or_stolen).toBe("Lost or stolen");
    expect(esCommon.kioskRevocation.reason.lost_or_stolen).toBe("Perdida o robada");
  });
});
