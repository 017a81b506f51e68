import { addMonths, type CalendarDay, compareDays, dayOf, formatDay, parseDay, startOfDay, wholeMonthsBetween } from "../shared/days.ts";

/**
 * Reminders are computed, never stored: a monthly scan is due for each baby from birth until
 * month 7 (infants 0-7 months), once per month of age, unless an upload already happened in
 * that month of age.
 */

export const SCAN_MONTHS = 7;

export interface ScanDue {
  readonly babyId: string;
  readonly babyName: string;
  /** 1 for the first month of life (age 0 full months) to 7. */
  readonly month: number;
  /** The day the current month of age began: the scan has been due since then. */
  readonly dueSince: string;
  /** The day the next month of age begins (the last one: month 7 ends the scans). */
  readonly nextDue: string;
}

export const scanDue = (
  baby: { id: string; name: string; dateOfBirth: string },
  lastUpload: Date | null,
  today: CalendarDay,
): ScanDue | null => {
  const birth = parseDay(baby.dateOfBirth);
  if (birth === null) return null;
  const age = wholeMonthsBetween(birth, today);
  if (age < 0 || age >= SCAN_MONTHS) return null;
  const periodStart = addMonths(birth, age);
  if (lastUpload !== null && compareDays(dayOf(lastUpload), periodStart) >= 0) return null;
  return {
    babyId: baby.id,
    babyName: baby.name,
    month: age + 1,
    dueSince: formatDay(periodStart),
    nextDue: formatDay(addMonths(birth, age + 1)),
  };
};

/** The date a baby's scans end: month 7 from the date of birth. */
export const scansEnd = (dateOfBirth: string): Date | null => {
  const birth = parseDay(dateOfBirth);
  return birth === null ? null : startOfDay(addMonths(birth, SCAN_MONTHS));
};
