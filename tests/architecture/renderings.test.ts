import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * One date and number rule (issue 46): every screen, e-mail and PDF writes a day with core's
 * formatDay (the portal's `day`, the PDF's `text.day`) and a figure with one decimal in the reader's
 * language (the portal's `number`, the PDF's `text.number`). This finds any other rendering: a date
 * or number formatted by hand, a day written with its month's name on a screen, or a CI or CVAI
 * shown as it came from the server.
 */

const root = path.resolve(import.meta.dirname, "../..");
const SOURCES = ["apps/web/src", "apps/kiosk/src", "adapters/pdf/src", "core/src"];

/** Where formatting is the job, or where a different form is the document's own (each with its reason). */
const ALLOWED: Record<string, string> = {
  "core/src/shared/dates.ts": "the rule itself",
  "apps/web/src/i18n/dates.ts": "the portal's side of the rule",
  "adapters/pdf/src/i18n.ts": "the PDF's side of the rule",
  "apps/web/src/pages/legal/LegalPage.tsx": "a legal document's effective date, written out as the document states it",
  "apps/web/src/pages/onboarding/Baa.tsx": "the agreement's signature date, written out as the agreement states it",
  "apps/web/src/chat/Messages.tsx": "a message's time of day, not a date",
  "adapters/pdf/src/report.tsx": "SVG coordinates (toFixed of pixel positions), not figures",
  "core/src/report/measure.ts": "a frame's file name (its time in seconds), stored, not a figure shown",
  "core/src/report/report-document.ts": "a frame's label (its time in seconds), localized by the PDF",
  "core/src/measurement/agreement.ts": "the reviewer's analysis note, with its own figures' precision",
  "core/src/learning/agreement.ts": "`crown model:evaluate`'s lines for engineers at a terminal, printed as tests/bench prints them; no screen, e-mail or PDF",
  "core/src/accounts/removal.ts": "the Spanish e-mail writes the month out, as the Spanish PDF does (ADR 77)",
  "apps/kiosk/src/screens/AddPatient.tsx": "the date input's own value format (YYYY-MM-DD) for its min and max, never shown as text",
};

const HAND_FORMATTING = [
  /\.toLocaleDateString\(/,
  /\.toLocaleString\(/,
  /\.toLocaleTimeString\(/,
  /new Intl\.(DateTimeFormat|NumberFormat)\(/,
  /\.toFixed\(/,
  /toISOString\(\)\.slice\(0, ?10\)/,
  /\b(formatLongDay|longDay)\(/,
];

/** A CI or CVAI handed to a message or the page as the server sent it (86.87 where every screen shows 86.8). */
const RAW_FIGURE = /\b(ci|cvai)\s*:\s*[A-Za-z_$][\w$]*(\??\.[A-Za-z_$][\w$]*)*\.(ci|cvai)\b\s*(\?\?|,|\})/;

const files = (dir: string): string[] =>
  readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name === "testing" ? [] : files(rel);
    return /\.(ts|tsx)$/.test(e.name) && !/\.(test|spec|test-d)\.tsx?$/.test(e.name) ? [rel] : [];
  });

describe("one date and number rule for every screen, e-mail and PDF (issue 46)", () => {
  const all = SOURCES.flatMap(files);

  it("formats days and figures only through the rule", () => {
    const found: string[] = [];
    for (const file of all) {
      if (ALLOWED[file]) continue;
      readFileSync(path.join(root, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          for (const pattern of HAND_FORMATTING) if (pattern.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 140)}`);
        });
    }
    expect(found).toEqual([]);
  });

  it("never shows a CI or CVAI as it came from the server", () => {
    const found: string[] = [];
    for (const file of all.filter((f) => f.endsWith(".tsx"))) {
      readFileSync(path.join(root, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (RAW_FIGURE.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 140)}`);
        });
    }
    expect(found).toEqual([]);
  });
});
