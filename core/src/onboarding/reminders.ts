import { Effect } from "effect";
import { CurrentUser, type User } from "../accounts/model.ts";
import { reminderText } from "../i18n/mails/notices.ts";
import { scanDue } from "../notifications/reminders.ts";
import { dayOf } from "../shared/days.ts";
import { now, requestLanguage } from "../shared/ports.ts";
import { factsOf, onboardingFlags } from "./lifecycle.ts";
import { Babies, babyName, UploadHistory } from "./model.ts";

/*
 * The dashboard's reminders: a baby's monthly scan, the BAA, the quiz, the disclaimer. Onboarding owns
 * them (they are read from the babies and the onboarding facts); when a scan is due is notifications'
 * `scanDue`.
 */

export type Reminder =
  | { type: "scan_due"; text: string; baby_identifier: string; baby_name: string; month: number; due_since: string; next_due: string }
  | { type: "baa"; text: string }
  | { type: "quiz"; text: string }
  | { type: "disclaimer"; text: string };

/** The caller's reminders, computed now from the babies, the last uploads and the onboarding facts. */
export const remindersFor = (user: User) =>
  Effect.gen(function* () {
    const language = yield* requestLanguage;
    const reminders: Reminder[] = [];
    const flags = onboardingFlags(factsOf(user));
    if (user.type === "physician" && !flags.baa_signed) {
      reminders.push({ type: "baa", text: reminderText(language, "baa") });
    }
    if (!flags.disclaimer_accepted) reminders.push({ type: "disclaimer", text: reminderText(language, "disclaimer") });
    const babies = user.type === "parent" ? yield* (yield* Babies).listByParent(user.id) : [];
    const last = babies.length > 0 ? yield* (yield* UploadHistory).lastUploads(babies.map((b) => b.id)) : new Map<string, Date>();
    // "Before your first scan": once a parent's child has an upload the first scan is behind them and the
    // reminder would be stale (issue 46). The quiz stays due (is_quiz_time) until the cap quiz is passed, as
    // the spec says; the dashboard's banner keeps saying so.
    if (flags.is_quiz_time && last.size === 0) reminders.push({ type: "quiz", text: reminderText(language, "quiz") });
    if (user.type === "parent") {
      const today = dayOf(yield* now);
      for (const baby of babies) {
        const due = scanDue({ id: baby.id, name: babyName(baby), dateOfBirth: baby.dateOfBirth }, last.get(baby.id) ?? null, today);
        if (due) {
          reminders.push({
            type: "scan_due",
            text: reminderText(language, "scanDue", { baby: due.babyName, month: due.month }),
            baby_identifier: due.babyId,
            baby_name: due.babyName,
            month: due.month,
            due_since: due.dueSince,
            next_due: due.nextDue,
          });
        }
      }
    }
    return reminders;
  });

export const reminders = Effect.flatMap(CurrentUser, ({ user }) => remindersFor(user));
