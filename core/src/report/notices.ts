import { Effect, Option } from "effect";
import { type User, Users } from "../accounts/model.ts";
import type { Baby } from "../onboarding/model.ts";
import { composeMail } from "../shared/mail.ts";
import type { Report } from "./model.ts";

/** Who hears of a review's outcome, and the e-mails they get. */

export const recaptureMail = (to: User, baby: string, reasons: ReadonlyArray<string>, note: string | null, url: string) =>
  composeMail({
    to: to.email,
    subject: `Please take new photos of ${baby}`,
    greeting: to.firstName ? `Hello ${to.firstName},` : "Hello,",
    paragraphs: [
      `Our reviewers looked at the photos and video of ${baby} and need a new capture to measure the head reliably.`,
      `What to redo: ${reasons.join("; ")}.`,
      ...(note ? [`Reviewer's note: ${note}`] : []),
      "Please follow the capture instructions again and upload new photos and a short video.",
    ],
    action: { label: "Upload again", url },
  });

export const publishedMail = (to: User, baby: string, url: string) =>
  composeMail({
    to: to.email,
    subject: `The head-shape report of ${baby} is ready`,
    greeting: to.firstName ? `Hello ${to.firstName},` : "Hello,",
    paragraphs: [`The report of ${baby} has been reviewed and is ready to download.`, "It is a screening aid, not a diagnosis: please talk to your doctor about it."],
    action: { label: "See the results", url },
  });

/** The parent and the physician of a report (each once), to notify. */
export const recipients = (report: Report, baby: Option.Option<Baby>) =>
  Effect.gen(function* () {
    const users = yield* Users;
    const ids = [...new Set([Option.isSome(baby) ? baby.value.parentId : report.uploaderId, report.physicianId].filter((x): x is string => x !== null))];
    const found = yield* Effect.forEach(ids, (id) => users.findById(id));
    return found.filter(Option.isSome).map((u) => u.value);
  });

/** Where each kind of user reads results in the portal. */
export const resultsPath = (user: User) => (user.type === "parent" ? "/parent-results" : "/results");
