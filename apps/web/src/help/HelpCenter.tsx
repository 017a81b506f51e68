import { type ReactNode, useEffect, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Tab, TabList, TabPanel, Tabs } from "react-aria-components";
import { Link } from "react-router-dom";
import { links } from "../config.ts";
import { isProvider } from "../capture/rules.ts";
import { useSession } from "../session/store.ts";
import { Collapsible } from "../capture/Collapsible.tsx";
import { number } from "../i18n/dates.ts";
import { FlowDiagram } from "./Diagrams.tsx";

/** The model card Crown serves: its evaluation summary on Crown's own rendered test photos. */
interface ModelMetrics {
  readonly ci_mae?: number | null;
  readonly cvai_mae?: number | null;
  readonly good_accepted?: number | null;
  readonly bad_rejected?: number | null;
  readonly eval_images?: number | null;
  readonly note?: string;
}

const useModelMetrics = () => {
  const [m, setM] = useState<ModelMetrics | null | undefined>(undefined);
  useEffect(() => {
    fetch("/models/head-contour.json")
      .then((r) => (r.ok ? r.json() : null))
      .then((card: { metrics?: ModelMetrics } | null) => setM(card?.metrics ?? null))
      .catch(() => setM(null));
  }, []);
  return m;
};

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

/** Accuracy as Crown has measured it, with its limits; no figure Crown has not produced itself. */
function Accuracy() {
  const { t } = useTranslation("help");
  const m = useModelMetrics();
  if (m === undefined) return <p>{t("accuracy.loading")}</p>;
  const hasFigures = m !== null && typeof m.ci_mae === "number" && typeof m.cvai_mae === "number";
  return (
    <>
      {hasFigures ? (
        <p>
          {t("accuracy.measured", {
            // "none" leaves a part out (an ICU select); figures are passed as text, formatted in the portal's language.
            images: m.eval_images ? String(m.eval_images) : "none",
            ci: number(m.ci_mae!, 2),
            cvai: number(m.cvai_mae!, 2),
            accepted: typeof m.good_accepted === "number" ? pct(m.good_accepted) : "none",
            rejected: typeof m.bad_rejected === "number" ? pct(m.bad_rejected) : "none",
          })}
        </p>
      ) : (
        <p>{t("accuracy.none")}</p>
      )}
      <p>{t("accuracy.limits")}</p>
    </>
  );
}

/** One question and its answer: `help:<group>.<key>.q` and `.a`; `answer` draws an answer that is more than its text. */
interface Faq {
  readonly key: string;
  readonly answer?: () => ReactNode;
}

const PARENT_FAQ: ReadonlyArray<Faq> = [
  { key: "who" },
  { key: "often" },
  {
    key: "need",
    answer: () => (
      <p>
        <Trans i18nKey="help:parentFaq.need.a" components={{ instructions: <Link to="/select-cap-mode" /> }} />
      </p>
    ),
  },
  { key: "quiz" },
  { key: "goodPhoto" },
  { key: "modes" },
  { key: "when" },
  { key: "noResult" },
  { key: "indices" },
  { key: "accuracy", answer: () => <Accuracy /> },
];

const PROVIDER_FAQ: ReadonlyArray<Faq> = [
  { key: "which" },
  { key: "often" },
  {
    key: "add",
    answer: () => (
      <p>
        <Trans i18nKey="help:providerFaq.add.a" components={{ patients: <Link to="/my-patients" /> }} />
      </p>
    ),
  },
  { key: "shots" },
  { key: "reviews" },
  { key: "results" },
  { key: "staff" },
  { key: "billing" },
  { key: "value" },
  { key: "accuracy", answer: () => <Accuracy /> },
  {
    key: "kits",
    answer: () => (
      <p>
        <Trans i18nKey="help:providerFaq.kits.a" components={{ kits: <a href="/buy-kits" />, webinar: <a href="/webinar" /> }} />
      </p>
    ),
  },
  {
    key: "help",
    answer: () => (
      <p>
        <Trans i18nKey="help:providerFaq.help.a" values={{ email: links.supportEmail }} components={{ mail: <a href={`mailto:${links.supportEmail}`} /> }} />
      </p>
    ),
  },
];

/** Help for Crown's own team: the answers parents and providers are given, side by side. */
function StaffHelpCenter() {
  const { t } = useTranslation("help");
  return (
    <section className="panel help-page" aria-labelledby="page-title">
      <h1 id="page-title">{t("center.title")}</h1>
      <p className="card-subtitle">{t("center.staffSubtitle")}</p>
      <h2 className="section-title">{t("center.staffParents")}</h2>
      <FaqList group="parentFaq" faqs={PARENT_FAQ} />
      <h2 className="section-title">{t("center.staffProviders")}</h2>
      <FaqList group="providerFaq" faqs={PROVIDER_FAQ} />
      <p>
        <Trans t={t} i18nKey="center.seeWorkflow" components={{ workflow: <Link to="/workflow" /> }} />
      </p>
    </section>
  );
}

function FaqList({ group, faqs }: { group: "parentFaq" | "providerFaq"; faqs: ReadonlyArray<Faq> }) {
  const { t } = useTranslation("help");
  return (
    <ol className="steps faq">
      {faqs.map((f, i) => (
        <Collapsible key={f.key} number={i + 1} title={t(`${group}.${f.key}.q`)} defaultOpen={false}>
          <div className="faq-answer">{f.answer ? f.answer() : <p>{t(`${group}.${f.key}.a`)}</p>}</div>
        </Collapsible>
      ))}
    </ol>
  );
}

/** /help-center: 10 FAQs and a two-tab workflow for parents; 12 FAQs for providers and staff. */
export default function HelpCenter() {
  const { t } = useTranslation("help");
  const session = useSession();
  const provider = isProvider(session);
  // Crown's reviewers and administrators answer both groups in the support chat: they read both sets.
  if (session?.userRole === "reviewer" || session?.userRole === "admin") return <StaffHelpCenter />;
  return (
    <section className="panel help-page" aria-labelledby="page-title">
      <h1 id="page-title">{t("center.title")}</h1>
      <p className="card-subtitle">{provider ? t("center.subtitleProviders") : t("center.subtitleParents")}</p>
      <h2 className="section-title">{t("center.faqTitle")}</h2>
      <FaqList group={provider ? "providerFaq" : "parentFaq"} faqs={provider ? PROVIDER_FAQ : PARENT_FAQ} />
      {!provider ? (
        <>
          <h2 className="section-title">{t("center.howItWorks")}</h2>
          <Tabs className="tabs">
            <TabList aria-label={t("center.workflowTabs")} className="tab-list">
              <Tab id="parent" className="tab">
                {t("center.atHome")}
              </Tab>
              <Tab id="provider" className="tab">
                {t("center.withProvider")}
              </Tab>
            </TabList>
            <TabPanel id="parent" className="tab-panel">
              <FlowDiagram id="help-parent" title={t("center.parentFlow")} flow="parent" />
            </TabPanel>
            <TabPanel id="provider" className="tab-panel">
              <FlowDiagram id="help-provider" title={t("center.providerFlow")} flow="provider" />
            </TabPanel>
          </Tabs>
        </>
      ) : (
        <p>
          <Trans t={t} i18nKey="center.seeWorkflow" components={{ workflow: <Link to="/workflow" /> }} />
        </p>
      )}
    </section>
  );
}
