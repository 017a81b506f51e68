import { Effect, Option } from "effect";
import { type Caller, Users } from "../accounts/model.ts";
import { type Baby, Babies } from "../onboarding/model.ts";
import { Delegations } from "../accounts/delegations.ts";
import { requireActive } from "../accounts/access.ts";
import { practiceVerified } from "../accounts/practice-verification.ts";
import { NotFound } from "../shared/errors.ts";
import { type Report, Reports } from "./model.ts";

/**
 * Who may see which report. Everything not allowed answers 404, so a report's existence is never
 * revealed: the parent of the baby (or the parent who uploaded it), the report's physician and that
 * physician's staff (checked against a live delegation on every call), reviewers and admins.
 * A report a staff member captured belongs to the physician's practice, not to her: having uploaded
 * it grants a staff member nothing once her delegation has ended (ADR 23).
 */

export const reportNotFound = () => NotFound.of("Report");
export const babyNotFound = () => NotFound.of("Baby");

export type ReportRelation = "parent" | "physician" | "staff" | "reviewer" | "admin";

const staffActsFor = (staffId: string, physicianId: string | null) =>
  physicianId === null
    ? Effect.succeed(false)
    : Effect.map(Effect.flatMap(Delegations, (d) => d.findActive(physicianId, staffId)), Option.isSome);

/**
 * Who hears a report's changes live: its physician and its uploader, but an uploader who is staff
 * only while she still acts for that physician (the report is the practice's, not hers).
 */
export const liveAudience = (report: Report) =>
  Effect.gen(function* () {
    const ids = report.physicianId === null ? [] : [report.physicianId];
    if (report.uploaderId === report.physicianId) return ids;
    const uploader = yield* (yield* Users).findById(report.uploaderId);
    if (Option.isNone(uploader)) return ids;
    if (uploader.value.type === "physician_staff" && !(yield* staffActsFor(uploader.value.id, report.physicianId))) return ids;
    return [...ids, report.uploaderId];
  });

/** How the caller relates to the report, or None when it may not see it. */
export const relationTo = (caller: Caller, report: Report, baby: Option.Option<Baby>) =>
  Effect.gen(function* () {
    const user = caller.user;
    switch (user.type) {
      case "reviewer":
        return Option.some<ReportRelation>("reviewer");
      case "admin":
        return Option.some<ReportRelation>("admin");
      case "parent":
        return report.uploaderId === user.id || (Option.isSome(baby) && baby.value.parentId === user.id)
          ? Option.some<ReportRelation>("parent")
          : Option.none();
      case "physician":
        return report.physicianId === user.id && practiceVerified(user) ? Option.some<ReportRelation>("physician") : Option.none();
      case "physician_staff":
        return (yield* staffActsFor(user.id, report.physicianId)) ? Option.some<ReportRelation>("staff") : Option.none();
      default:
        return Option.none<ReportRelation>();
    }
  });

/**
 * Whether the caller may add files to (and finalize) a report it can see: the family's reports are
 * the parent's who started them; any other is the practice's, so its physician and the staff acting
 * for that physician now carry on with it, whoever of them started it.
 */
export const capturesInto = (caller: Caller, report: Report, baby: Option.Option<Baby>, relation: ReportRelation) => {
  const family = report.uploaderId === (Option.isSome(baby) ? baby.value.parentId : null);
  if (relation === "parent") return family && report.uploaderId === caller.user.id;
  return !family && (relation === "physician" || relation === "staff");
};

/** The report, its baby and how the caller relates to it; 404 when the caller may not see it. */
export const visibleReport = (reportId: string, allowed?: ReadonlyArray<ReportRelation>) =>
  Effect.gen(function* () {
    const caller = yield* requireActive("parent", "physician", "physician_staff", "reviewer", "admin");
    const report = yield* (yield* Reports).findById(reportId);
    if (Option.isNone(report)) return yield* reportNotFound();
    const baby = yield* (yield* Babies).findById(report.value.babyId);
    const relation = yield* relationTo(caller, report.value, baby);
    if (Option.isNone(relation) || (allowed && !allowed.includes(relation.value))) return yield* reportNotFound();
    return { caller, report: report.value, baby, relation: relation.value };
  });

/** A baby the caller may capture for: its parent, its physician, or staff acting for that physician. */
export const capturableBaby = (babyId: string) =>
  Effect.gen(function* () {
    const caller = yield* requireActive("parent", "physician", "physician_staff");
    const baby = yield* (yield* Babies).findById(babyId);
    if (Option.isNone(baby)) return yield* babyNotFound();
    const b = baby.value;
    const user = caller.user;
    const allowed =
      user.type === "parent"
        ? b.parentId === user.id
        : user.type === "physician"
          ? b.physicianId === user.id && practiceVerified(user)
          : yield* staffActsFor(user.id, b.physicianId);
    if (!allowed) return yield* babyNotFound();
    return { caller, baby: b };
  });

/** A baby whose records the caller may read (same rule as capturing). */
export const readableBaby = capturableBaby;
