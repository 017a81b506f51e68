import { useEffect } from "react";
import { Button } from "react-aria-components";
import { Header, type Send } from "./shared.tsx";

/** Uploaded: nothing about the patient is left; the next patient after 8 seconds or a tap. */
export function Done({ send }: { send: Send }) {
  useEffect(() => {
    const timer = window.setTimeout(() => send({ type: "FINISH" }), 8000);
    return () => window.clearTimeout(timer);
  }, [send]);
  return (
    <section className="panel narrow done">
      <Header title="Images Uploaded Successfully" subtitle="The physician will get the report. Nothing about the patient stays on this tablet." />
      <Button className="big" onPress={() => send({ type: "FINISH" })}>
        Next patient
      </Button>
    </section>
  );
}
