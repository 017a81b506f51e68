import type { KioskEvent, KioskPatient } from "@crown/core/kiosk/machine";
import { formatDay } from "@crown/core/shared/dates";
import i18next from "i18next";
import { ApiError, deviceRefused, type Patient, revokedFor, sessionEnded } from "../crown.ts";
import { shownLanguage } from "../i18n/language.ts";

/** How a screen talks to the kiosk machine. */
export type Send = (event: KioskEvent) => void;

/** What a failed call means for the tablet: revoked, session over, or a message to show. */
export const handleFailure = (error: unknown, send: Send, show: (message: string) => void) => {
  if (deviceRefused(error)) return send(revokedFor(error));
  if (sessionEnded(error)) return send({ type: "SESSION_ENDED" });
  if (error instanceof ApiError && error.offline) return show(i18next.t("errors.offline"));
  show(error instanceof Error ? error.message : i18next.t("errors.generic"));
};

/** A day in the language on screen, the one way every screen writes one (core's formatDay): 08/28/2026, 28/08/2026. */
export const shownDay = (value?: string | null): string => formatDay(value, shownLanguage());
/** A baby's date of birth (the server's YYYY-MM-DD). */
export const birthDay = shownDay;

export const toPatient = (p: Patient): KioskPatient => ({ identifier: p.identifier, name: p.name, date_of_birth: p.date_of_birth });

export function Header({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <header className="kiosk-header">
      <h1>{title}</h1>
      {subtitle ? <p>{subtitle}</p> : null}
    </header>
  );
}

/** A message for the person at the tablet, announced as it appears. */
export function ErrorLine({ message }: { message: string | null }) {
  return message ? (
    <p className="error" role="alert">
      {message}
    </p>
  ) : null;
}
