import { type KioskContext, kioskMinimumShots } from "@crown/core/kiosk/machine";
import { AUTO_CAPTURE_SHOTS } from "@crown/core/capture/rules";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { birthDay, Header, type Send } from "./shared.tsx";

/** The patient chosen: how to hold the baby, and the camera. */
export function PatientChosen({ context, send }: { context: KioskContext; send: Send }) {
  const { t } = useTranslation("patients");
  const patient = context.patient!;
  return (
    <section className="panel narrow">
      <Header title={patient.name} subtitle={patient.date_of_birth ? t("chosen.born", { date: birthDay(patient.date_of_birth) }) : undefined} />
      <p className="lead">{t("chosen.lead", { staff: context.staff?.name ?? "", shots: AUTO_CAPTURE_SHOTS, minimum: kioskMinimumShots(context) })}</p>
      <Button className="big" onPress={() => send({ type: "START_CAPTURE" })}>
        {t("chosen.start")}
      </Button>
      <Button className="big secondary" onPress={() => send({ type: "CHANGE_PATIENT" })}>
        {t("chosen.change")}
      </Button>
    </section>
  );
}
