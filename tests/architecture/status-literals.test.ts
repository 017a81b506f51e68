import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { kioskMachine, ONBOARDING_STEPS, USER_STATUSES } from "@crown/core";
import { REPORT_STATUSES } from "@crown/core/report/index";
import { DATA_EXPORT_STATUSES } from "@crown/core/family-data/lifecycle";

/*
 * Each lifecycle's statuses are written once, in its lifecycle file; everyone else imports them
 * (the lifecycle's list, its `can`, its predicates or named constants). This test reads the source
 * of core, adapters and apps (tests, test support and the frozen migrations excluded) with the
 * TypeScript compiler and fails when a status appears as a string literal outside its lifecycle
 * file: in TypeScript, React, or SQL (`'submitted'` inside a query string counts). Comments are not
 * code and are not read.
 *
 * Other vocabularies share some spellings (the review action "published", the notification kind
 * "recapture_requested", an upload dialog's file "uploading"). The compiler tells them apart: a
 * literal whose expected type — the parameter, property or variable it goes to, or the other side
 * of a comparison — is a union of string literals with a member that is not one of the lifecycle's
 * statuses belongs to that other vocabulary. Anything else (a status type, `string`, no type at
 * all) counts, so an untyped "Blocked" is caught as surely as a typed one.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Words too common to be told apart from other uses ("closed", "done", the web session's "signedIn", ...) are not checked. */
const COMMON = new Set(["routing", "closed", "done", "quiz", "baa", "disclaimer", "draft", "starting", "idle", "revoked", "capturing", "reviewing", "signedIn"]);

interface Lifecycle {
  readonly name: string;
  readonly file: string;
  /** Its plain module (no xstate), where the statuses and predicates the browser reads are written. */
  readonly names?: string;
  readonly statuses: ReadonlyArray<string>;
}

const lifecycles: ReadonlyArray<Lifecycle> = [
  { name: "report", file: "core/src/report/lifecycle.ts", statuses: REPORT_STATUSES },
  { name: "account", file: "core/src/accounts/lifecycle.ts", names: "core/src/accounts/statuses.ts", statuses: USER_STATUSES },
  { name: "data export", file: "core/src/family-data/lifecycle.ts", statuses: DATA_EXPORT_STATUSES },
  { name: "onboarding", file: "core/src/onboarding/lifecycle.ts", names: "core/src/onboarding/steps.ts", statuses: ONBOARDING_STEPS },
  // The kiosk's states, read from the machine (the app reads them through the machine's tags and a typed screen map).
  { name: "kiosk", file: "core/src/kiosk/machine.ts", statuses: Object.keys(kioskMachine.config.states ?? {}) },
];

/** Every lifecycle file may name any lifecycle's statuses (a machine reading another's, e.g. onboarding → account). */
const lifecycleFiles = new Set(lifecycles.flatMap((l) => (l.names ? [l.file, l.names] : [l.file])));

const checked = lifecycles.flatMap((lifecycle) => lifecycle.statuses.filter((s) => !COMMON.has(s)).map((status) => ({ lifecycle, status })));

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

/** A quick textual filter: only files that spell a status between quotes (or in a comment) are compiled. */
const quoted = new RegExp(`(["'\`])(${checked.map((c) => c.status).join("|")})\\1`);

/**
 * A file the compiler reads from memory, to prove the scan both catches and lets through; it is
 * placed in core so its imports resolve like real code's.
 */
const PROBE = "core/src/status-literals-probe.ts";
const PROBE_SOURCE = `import type { ReportStatus } from "./report/lifecycle.ts";
import type { UserStatus } from "./accounts/lifecycle.ts";
declare const report: { status: ReportStatus };
declare const user: { status: UserStatus };
declare const list: (status: string) => void;
export const typed = report.status === "submitted";
export const untyped = (s: string) => s !== "Blocked";
export const query = \`select id from reports where status = 'analyzing'\`;
list("WaitingApproval");
export const statusesOnly = ["uploading", "analyzed"].includes(report.status); // a list of report statuses, not kiosk states
// "published" in a comment is not code
export const documentKind: "published" | "preview" = "published";
type FileState = "ready" | "uploading" | "failed";
export const file = (s: FileState) => s === "uploading";
export const active = user.status;
export const joined = (table: string) => \`select id from \${table} where status in ('published')\`;
`;
const PROBE_EXPECTED = [
  `${PROBE}:6: report "submitted"`,
  `${PROBE}:7: account "Blocked"`,
  `${PROBE}:8: report "analyzing"`,
  `${PROBE}:9: account "WaitingApproval"`,
  `${PROBE}:10: report "analyzed"`,
  `${PROBE}:10: report "uploading"`,
  `${PROBE}:16: report "published"`,
];

const compilerOptions = (): ts.CompilerOptions => {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  return { ...config?.options, noEmit: true };
};

/** The string literal types of a type, or null when it is not made only of string literals (e.g. `string`). */
const literalMembers = (type: ts.Type): string[] | null => {
  const members = type.isUnion() ? type.types : [type];
  const texts: string[] = [];
  for (const member of members) {
    if (member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)) continue;
    if (!member.isStringLiteral()) return null;
    texts.push(member.value);
  }
  return texts.length > 0 ? texts : null;
};

/** What the literal is expected to be: the other side of a comparison, its union type, or its contextual type. */
const expectedType = (node: ts.StringLiteralLike, checker: ts.TypeChecker): ts.Type | undefined => {
  const parent = node.parent;
  if (ts.isLiteralTypeNode(parent)) return ts.isUnionTypeNode(parent.parent) ? checker.getTypeFromTypeNode(parent.parent) : undefined;
  if (ts.isBinaryExpression(parent) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(parent.operatorToken.kind)) {
    return checker.getTypeAtLocation(parent.left === node ? parent.right : parent.left);
  }
  if (ts.isCaseClause(parent)) return checker.getTypeAtLocation(parent.parent.parent.expression);
  return checker.getContextualType(node);
};

/** Another vocabulary (review actions, notification kinds, ...) that happens to share the spelling. */
const otherVocabulary = (node: ts.StringLiteralLike, lifecycle: Lifecycle, checker: ts.TypeChecker) => {
  const type = expectedType(node, checker);
  const members = type ? literalMembers(type) : null;
  if (members !== null) return members.some((m) => !lifecycle.statuses.includes(m));
  // A list written as a literal (`[...] as const`): its other elements say which vocabulary it is.
  const parent = node.parent;
  if (ts.isArrayLiteralExpression(parent)) {
    const words = parent.elements.filter(ts.isStringLiteralLike);
    return words.length === parent.elements.length && words.some((e) => !lifecycle.statuses.includes(e.text));
  }
  return false;
};

const findViolations = () => {
  const files = sourceDirs.flatMap(walk).filter((f) => !lifecycleFiles.has(f) && quoted.test(readFileSync(path.join(root, f), "utf8")));
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const probePath = path.join(root, PROBE);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => (name === probePath ? ts.createSourceFile(name, PROBE_SOURCE, language) : getSourceFile(name, language, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === probePath || fileExists(name);
  const program = ts.createProgram([...files, PROBE].map((f) => path.join(root, f)), options, host);
  const checker = program.getTypeChecker();

  const found = new Set<string>();
  for (const file of [...files, PROBE]) {
    const source = program.getSourceFile(path.join(root, file));
    if (!source) throw new Error(`not compiled: ${file}`);
    const report = (node: ts.Node, lifecycle: Lifecycle, status: string) => {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.add(`${file}:${line}: ${lifecycle.name} "${status}"`);
    };
    const visit = (node: ts.Node): void => {
      const text = ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) ? node.text : null;
      if (text !== null) {
        for (const { lifecycle, status } of checked) {
          if (ts.isStringLiteralLike(node) && text === status) {
            if (!otherVocabulary(node, lifecycle, checker)) report(node, lifecycle, status);
          } else if (new RegExp(`'${status}'`).test(text)) {
            report(node, lifecycle, status); // SQL: a quoted status inside a query
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...found].sort();
};

/**
 * Known places left, each justified. Empty: every status is read through its lifecycle. The test
 * fails when a place is added here that the scan no longer finds, so the list can only shrink.
 */
const KNOWN: ReadonlyArray<string> = [];

describe("status literals", () => {
  const all = findViolations();
  const probe = all.filter((v) => v.startsWith(`${PROBE}:`));
  const violations = all.filter((v) => !v.startsWith(`${PROBE}:`));
  if (process.env.PRINT_STATUS_LITERALS) console.log(JSON.stringify(violations, null, 1));

  it("appear only in their lifecycle files (new ones fail)", () => {
    expect(violations.filter((v) => !KNOWN.includes(v))).toEqual([]);
  });

  it("the list of known violations only shrinks", () => {
    expect(KNOWN.filter((k) => !violations.includes(k))).toEqual([]);
  });

  it("are found by the scan, typed or not, and told apart from other vocabularies and comments (the test can fail)", () => {
    expect(probe).toEqual([...PROBE_EXPECTED].sort());
  });
});
