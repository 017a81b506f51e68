import { type KioskContext, kioskMinimumShots } from "@crown/core/kiosk/machine";
import { AUTO_CAPTURE_SHOTS } from "@crown/core/capture/rules";
import { Button } from "react-aria-components";
import { Header, type Send } from "./shared.tsx";

/** The patient chosen: how to hold the baby, and the camera. */
export function PatientChosen({ context, send }: { context: KioskContext; send: Send }) {
  const patient = context.patient!;
  return (
    <section className="panel narrow">
      <Header title={patient.name} subtitle={patient.date_of_birth ? `Born ${patient.date_of_birth}` : undefined} />
      <p className="lead">
        {context.staff?.name ?? ""}: hold the baby with a second person, nose tip visible. Auto Capture takes {AUTO_CAPTURE_SHOTS} good shots; at least{" "}
        {kioskMinimumShots(context)} are needed.
      </p>
      <Button className="big" onPress={() => send({ type: "START_CAPTURE" })}>
        Start camera
      </Button>
      <Button className="big secondary" onPress={() => send({ type: "CHANGE_PATIENT" })}>
        Change patient
      </Button>
    </section>
  );
}
