import { useTranslation } from "react-i18next";
import { FlowDiagram } from "./Diagrams.tsx";

/** /workflow: the two diagrams, the provider's office loop and the parent's home loop. */
export default function Workflow() {
  const { t } = useTranslation("help");
  return (
    <section className="panel workflow-page" aria-labelledby="page-title">
      <h1 id="page-title">{t("workflow.title")}</h1>
      <p className="card-subtitle">{t("workflow.subtitle")}</p>
      <div className="workflow-grid">
        <div>
          <h2>{t("workflow.office")}</h2>
          <FlowDiagram id="wf-provider" title={t("workflow.providerFlow")} flow="provider" />
        </div>
        <div>
          <h2>{t("workflow.home")}</h2>
          <FlowDiagram id="wf-parent" title={t("workflow.parentFlow")} flow="parent" />
        </div>
      </div>
    </section>
  );
}
