import type { KioskContext } from "@crown/core/kiosk/machine";
import { useTranslation } from "react-i18next";
import { Header } from "./shared.tsx";

/** prepare → upload → finalize, and the queue kept in memory while the network is down. */
export function Uploading({ context }: { context: KioskContext }) {
  const { t } = useTranslation("upload");
  const steps = { prepare: t("uploading.steps.prepare"), upload: t("uploading.steps.upload"), finalize: t("uploading.steps.finalize") } as const;
  const progress = context.upload;
  const fraction = progress ? (progress.step === "finalize" ? 1 : progress.total > 0 ? progress.sent / progress.total : 0) : 0;
  return (
    <section className="panel narrow">
      <Header title={t("uploading.title")} subtitle={progress ? steps[progress.step] : ""} />
      <progress max={1} value={fraction} aria-label={t("uploading.progress")} data-testid="upload-progress" />
      <p>{t("uploading.sent", { sent: progress?.sent ?? 0, total: progress?.total ?? 0 })}</p>
      {!context.online ? <p className="error">{t("uploading.waiting", { count: context.queue.length })}</p> : null}
    </section>
  );
}
