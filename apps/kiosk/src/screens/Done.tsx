import { useEffect } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { Header, type Send } from "./shared.tsx";

/** Uploaded: nothing about the patient is left; the next patient after 8 seconds or a tap. */
export function Done({ send }: { send: Send }) {
  const { t } = useTranslation("upload");
  useEffect(() => {
    const timer = window.setTimeout(() => send({ type: "FINISH" }), 8000);
    return () => window.clearTimeout(timer);
  }, [send]);
  return (
    <section className="panel narrow done">
      <Header title={t("done.title")} subtitle={t("done.subtitle")} />
      <Button className="big" onPress={() => send({ type: "FINISH" })}>
        {t("done.next")}
      </Button>
    </section>
  );
}
