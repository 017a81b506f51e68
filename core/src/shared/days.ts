/**
 * Calendar days (`YYYY-MM-DD`) for dates of birth: no time zone ever shifts them. Months are
 * calendar months; a day that does not exist in the target month is clamped to its last day
 * (31 January + 1 month = 28 or 29 February).
 */

export interface CalendarDay {
  readonly year: number;
  readonly month: number; // 1..12
  readonly day: number; // 1..31
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** A real calendar day in `YYYY-MM-DD`, or null (2026-02-30 is not a day). */
export const parseDay = (text: string): CalendarDay | null => {
  const match = ISO_DAY.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
};

export const formatDay = (d: CalendarDay): string =>
  `${String(d.year).padStart(4, "0")}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;

/** The UTC calendar day of an instant. */
export const dayOf = (at: Date): CalendarDay => ({ year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() });

export const compareDays = (a: CalendarDay, b: CalendarDay): number => a.year - b.year || a.month - b.month || a.day - b.day;

export const addMonths = (d: CalendarDay, months: number): CalendarDay => {
  const index = d.year * 12 + (d.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return { year, month, day: Math.min(d.day, daysInMonth(year, month)) };
};

/** Whole calendar months from `from` to `to` (0 when `to` is before `from`'s first month-day). */
export const wholeMonthsBetween = (from: CalendarDay, to: CalendarDay): number => {
  if (compareDays(to, from) < 0) return -1;
  let months = (to.year - from.year) * 12 + (to.month - from.month);
  if (compareDays(addMonths(from, months), to) > 0) months -= 1;
  return months;
};

/** Midnight UTC at the start of a calendar day. */
export const startOfDay = (d: CalendarDay): Date => new Date(Date.UTC(d.year, d.month - 1, d.day));

/**
 * The latest calendar day anywhere on Earth at `at` (UTC+14): a baby born "today" for a family
 * east of UTC is not "in the future" for a server that runs on UTC.
 */
export const latestToday = (at: Date): CalendarDay => dayOf(new Date(at.getTime() + 14 * 3600_000));
