import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { kioskMachine, ONBOARDING_STEPS, USER_STATUSES } from "@crown/core";
import { REPORT_STATUSES } from "@crown/core/report/index";

/*
 * Each lifecycle's statuses are written once, in its lifecycle file; everyone else imports them
 * (the lifecycle's list, its `can`, or its predicates). This test reads the source of core, adapters
 * and apps (tests, test support and the frozen migrations excluded) and fails when a status appears
 * as a string literal — TypeScript, React or SQL (`'submitted'` in a query counts) — outside its
 * lifecycle file.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Words too common to be told apart from other uses ("closed", "done", the web session's "signedIn", ...) are not checked. */
const COMMON = new Set(["routing", "closed", "done", "quiz", "baa", "disclaimer", "draft", "starting", "idle", "revoked", "capturing", "reviewing", "signedIn"]);

const lifecycles: ReadonlyArray<{ name: string; file: string; statuses: ReadonlyArray<string> }> = [
  { name: "report", file: "core/src/report/lifecycle.ts", statuses: REPORT_STATUSES },
  { name: "account", file: "core/src/accounts/lifecycle.ts", statuses: USER_STATUSES },
  { name: "onboarding", file: "core/src/onboarding/lifecycle.ts", statuses: ONBOARDING_STEPS },
  // The kiosk's states, read from the machine (React reads them with `state.matches`, typed by XState).
  { name: "kiosk", file: "core/src/kiosk/machine.ts", statuses: Object.keys(kioskMachine.config.states ?? {}) },
];

/** Every lifecycle file may name any lifecycle's statuses (a machine reading another's, e.g. onboarding → account). */
const lifecycleFiles = new Set(lifecycles.map((l) => l.file));

/**
 * Known violations in other areas (issue 17), to be removed as each moves to its lifecycle: the test
 * also fails when one of these is fixed, so the list only shrinks.
 */
const KNOWN: ReadonlyArray<string> = [
  `adapters/http/src/routes/onboarding.ts: account "WaitingApproval"`,
  `apps/kiosk/src/App.tsx: kiosk "patientChosen"`,
  `apps/kiosk/src/App.tsx: kiosk "unpaired"`,
  `apps/kiosk/src/App.tsx: kiosk "uploading"`,
  `apps/kiosk/src/App.tsx: report "uploading"`,
  `apps/kiosk/src/uploader.ts: kiosk "uploading"`,
  `apps/kiosk/src/uploader.ts: report "uploading"`,
  `apps/server/src/recovery.ts: report "analyzing"`,
  `apps/server/src/recovery.ts: report "submitted"`,
  `apps/web/src/consoles/AdminDirectory.tsx: account "Active"`,
  `apps/web/src/consoles/AdminDirectory.tsx: account "Blocked"`,
  `apps/web/src/machines/session.ts: account "Active"`,
  `apps/web/src/pages/Login.tsx: account "Blocked"`,
  `apps/web/src/pages/Login.tsx: account "WaitingApproval"`,
  `apps/web/src/pages/Login.tsx: onboarding "waitingApproval"`,
  `apps/web/src/pages/onboarding/ChildDetails.tsx: onboarding "waitingApproval"`,
  `apps/web/src/reporting/UploadDialog.tsx: kiosk "uploading"`,
  `apps/web/src/reporting/UploadDialog.tsx: report "uploading"`,
  `apps/web/src/routes.tsx: account "Active"`,
  `apps/web/src/routes.tsx: onboarding "babyDetails"`,
  `apps/web/src/session/home.ts: onboarding "babyDetails"`,
  `core/src/accounts/authenticate.ts: account "Blocked"`,
  `core/src/accounts/change-status.ts: account "Blocked"`,
  `core/src/accounts/create-verified-user.ts: account "Active"`,
  `core/src/accounts/directory.ts: account "Blocked"`,
  `core/src/accounts/model.ts: account "EmailVerificationRequired"`,
  `core/src/accounts/recover-password.ts: account "Blocked"`,
  `core/src/accounts/sign-in.ts: account "Blocked"`,
  `core/src/accounts/sign-in.ts: account "EmailVerificationRequired"`,
  `core/src/accounts/sign-out.ts: account "WaitingApproval"`,
  `core/src/fhir/present.ts: report "published"`,
  `core/src/notifications/model.ts: report "recapture_requested"`,
  `core/src/onboarding/accept-disclaimer.ts: account "WaitingApproval"`,
  `core/src/onboarding/hooks.ts: account "AdditionalInformationRequired"`,
  `core/src/onboarding/pending-approvals.ts: account "WaitingApproval"`,
  `core/src/onboarding/policy.ts: account "Active"`,
  `core/src/onboarding/present.ts: account "Blocked"`,
  `core/src/onboarding/register-baby.ts: account "Active"`,
  `core/src/onboarding/register-baby.ts: account "WaitingApproval"`,
  `core/src/onboarding/register-baby.ts: onboarding "babyDetails"`,
  `core/src/onboarding/update-quiz.ts: account "WaitingApproval"`,
  `core/src/practice/access.ts: account "Active"`,
  `core/src/practice/access.ts: account "Blocked"`,
  `core/src/practice/access.ts: account "WaitingApproval"`,
  `core/src/report/analyze-report.ts: report "analyzed"`,
  `core/src/report/analyze-report.ts: report "analyzing"`,
  `core/src/report/model.ts: report "published"`,
  `core/src/report/publish-report.ts: report "published"`,
  `core/src/report/report-document.ts: report "published"`,
  `core/src/report/request-recapture.ts: report "recapture_requested"`,
];

const sourceDirs = ["core/src", ...["adapters", "apps"].flatMap((d) => readdirSync(path.join(root, d)).map((p) => `${d}/${p}/src`))];
const excluded = /(\.test\.tsx?|\.test-d\.ts|\.spec\.ts|\/testing\.ts|\/testing-fixtures\.ts|\.d\.ts)$|\/testing\/|\/migrations\//;

const walk = (dir: string): string[] => {
  const full = path.join(root, dir);
  let names: string[];
  try {
    names = readdirSync(full);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (name === "node_modules" || name === "dist") return [];
    if (statSync(path.join(root, rel)).isDirectory()) return walk(rel);
    return /\.(ts|tsx)$/.test(name) && !excluded.test(rel) ? [rel] : [];
  });
};

const findViolations = () => {
  const found: string[] = [];
  for (const file of sourceDirs.flatMap(walk)) {
    if (lifecycleFiles.has(file)) continue;
    const text = readFileSync(path.join(root, file), "utf8");
    for (const lifecycle of lifecycles) {
      for (const status of lifecycle.statuses) {
        if (COMMON.has(status)) continue;
        // The exact literal in any quotes: "x", 'x' (SQL included) or `x`.
        if (new RegExp(`(["'\`])${status}\\1`).test(text)) found.push(`${file}: ${lifecycle.name} "${status}"`);
      }
    }
  }
  return found.sort();
};

describe("status literals", () => {
  const violations = findViolations();
  if (process.env.PRINT_STATUS_LITERALS) console.log(JSON.stringify(violations));

  it("appear only in their lifecycle files (new ones fail)", () => {
    expect(violations.filter((v) => !KNOWN.includes(v))).toEqual([]);
  });

  it("the list of known violations only shrinks", () => {
    expect(KNOWN.filter((k) => !violations.includes(k))).toEqual([]);
  });

  it("are found by the scan (the test can fail)", () => {
    const probe = new RegExp(`(["'\`])${REPORT_STATUSES[2]}\\1`);
    expect(probe.test(`where status = '${REPORT_STATUSES[2]}'`)).toBe(true);
    expect(probe.test(`const s = "${REPORT_STATUSES[2]}";`)).toBe(true);
  });
});
