import { Effect } from "effect";
import { auditReportReads, READ_AUDIT } from "../report/read-audit.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { MEASURES, SYSTEMS } from "./codes.ts";
import { FhirConfig, type Resource } from "./model.ts";
import { visiblePatient } from "./policy.ts";
import { babyRecords } from "./records.ts";
import { presentObservations, presentSearchSet } from "./present.ts";

/** Paging of `Observation?`: 20 a page unless `_count` says otherwise, never more than 100. */
export const OBSERVATION_PAGE = { default: 20, max: 100 } as const;

export const SEARCH_MESSAGES = {
  subject: "subject must name a patient: subject=Patient/{id}",
  code: "code must be one of Crown's codes (system|code or code), comma-separated",
  date: "date must be a date or date-time, optionally prefixed with eq, ge, gt, le or lt",
  count: `_count must be a whole number from 1 to ${OBSERVATION_PAGE.max}`,
  offset: "_offset must be a whole number from 0",
  sort: "_sort must be date or -date",
  unknown: (name: string) => `Unknown search parameter: ${name}`,
} as const;

const KNOWN = new Set(["subject", "code", "date", "_count", "_offset", "_sort", "_format"]);
const DATE = /^(eq|ge|gt|le|lt)?(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

const invalid = (field: string, message: string) => ValidationFailed.field(field, message);

/** `[start, end)` of a date parameter's value at its own precision: a day, or the instant given. */
const dateFilter = (raw: string) => {
  const m = DATE.exec(raw);
  if (!m) return null;
  const start = new Date(m[3] ? `${m[2]}${m[3]}` : `${m[2]}T00:00:00Z`).getTime();
  if (Number.isNaN(start)) return null;
  const end = m[3] ? start + 1 : start + 86_400_000;
  const prefix = m[1] ?? "eq";
  return (t: number) =>
    prefix === "eq" ? t >= start && t < end : prefix === "ge" ? t >= start : prefix === "gt" ? t >= end : prefix === "le" ? t < end : t < start;
};

const whole = (raw: string | undefined, min: number, max: number) => {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return /^\d+$/.test(raw) && n >= min && n <= max ? n : null;
};

/** The search's parameters, each refused with a 400 naming the rule. */
const parse = (query: ReadonlyArray<readonly [string, string]>) =>
  Effect.gen(function* () {
    for (const [name] of query) if (!KNOWN.has(name)) return yield* invalid(name, SEARCH_MESSAGES.unknown(name));
    const all = (name: string) => query.filter(([k]) => k === name).map(([, v]) => v);
    const one = (name: string) => all(name).at(-1);
    const subject = /^(?:Patient\/)?([A-Za-z0-9\-.]{1,64})$/.exec(one("subject") ?? "");
    if (!subject || all("subject").length !== 1) return yield* invalid("subject", SEARCH_MESSAGES.subject);
    const codes = all("code").flatMap((v) => v.split(","));
    const measures = [];
    for (const token of codes) {
      const [system, code] = token.includes("|") ? token.split("|", 2) : [null, token];
      const measure = MEASURES.find((m) => m.code.code === code && (system === null || system === "" || system === SYSTEMS.crown));
      if (!measure) return yield* invalid("code", SEARCH_MESSAGES.code);
      measures.push(measure);
    }
    const dates = [];
    for (const value of all("date")) {
      const filter = dateFilter(value);
      if (!filter) return yield* invalid("date", SEARCH_MESSAGES.date);
      dates.push(filter);
    }
    const count = whole(one("_count"), 1, OBSERVATION_PAGE.max);
    if (count === null) return yield* invalid("_count", SEARCH_MESSAGES.count);
    const offset = whole(one("_offset"), 0, Number.MAX_SAFE_INTEGER);
    if (offset === null) return yield* invalid("_offset", SEARCH_MESSAGES.offset);
    const sort = one("_sort") ?? "date";
    if (sort !== "date" && sort !== "-date") return yield* invalid("_sort", SEARCH_MESSAGES.sort);
    return { babyId: subject[1]!, measures, dates, raw: { code: all("code"), date: all("date"), sort: one("_sort") }, count: count ?? OBSERVATION_PAGE.default, offset: offset ?? 0, newestFirst: sort === "-date" };
  });

/**
 * `GET /Observation?subject=Patient/{id}[&code=][&date=]`: the measures of every published report
 * of the baby the caller may export, by capture date, a page at a time. Each report on the page is
 * audited as listed.
 */
export const searchObservations = (query: ReadonlyArray<readonly [string, string]>) =>
  Effect.gen(function* () {
    const search = yield* parse(query);
    const { caller, baby } = yield* visiblePatient(search.babyId);
    const settings = yield* FhirConfig;
    const records = yield* babyRecords(caller, baby);
    const time = (o: Resource) => new Date(o.effectiveDateTime as string).getTime();
    const matches = records
      .flatMap((record) => presentObservations(record).map((observation) => ({ record, observation })))
      .filter(({ observation }) => search.measures.length === 0 || search.measures.some((m) => (observation.code as { coding: { code: string }[] }).coding[0]!.code === m.code.code))
      .filter(({ observation }) => search.dates.every((inRange) => inRange(time(observation))))
      // Stable: equal times keep the measures' order.
      .sort((a, b) => (search.newestFirst ? time(b.observation) - time(a.observation) : time(a.observation) - time(b.observation)));
    const page = matches.slice(search.offset, search.offset + search.count);
    const reports = [...new Map(page.map(({ record }) => [record.report.id, record.report])).values()];
    yield* auditReportReads(READ_AUDIT.listed, caller, reports, { fhir: "Observation" });
    const self = new URLSearchParams([["subject", `Patient/${baby.id}`], ...search.raw.code.map((c) => ["code", c]), ...search.raw.date.map((d) => ["date", d]), ...(search.raw.sort ? [["_sort", search.raw.sort]] : [])]);
    return presentSearchSet(
      settings.baseUrl,
      page.map(({ observation }) => observation),
      { total: matches.length, self: `${settings.baseUrl}/Observation?${self}`, offset: search.offset, count: search.count },
    );
  });
