import { type ReactNode, useEffect, useState } from "react";
import { Tab, TabList, TabPanel, Tabs } from "react-aria-components";
import { Link } from "react-router-dom";
import { links } from "../config.ts";
import { isProvider } from "../capture/rules.ts";
import { useSession } from "../session/store.ts";
import { Collapsible } from "../capture/Collapsible.tsx";
import { FlowDiagram, PARENT_FLOW, PROVIDER_FLOW } from "./Diagrams.tsx";

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
  const m = useModelMetrics();
  if (m === undefined) return <p>Loading Crown's measured figures…</p>;
  const hasFigures = m !== null && typeof m.ci_mae === "number" && typeof m.cvai_mae === "number";
  return (
    <>
      {hasFigures ? (
        <p>
          On {m.eval_images ? `${m.eval_images} ` : ""}held-out test photos, Crown's automatic measurement differed from the true value by{" "}
          {m.ci_mae!.toFixed(2)} points of cranial index and {m.cvai_mae!.toFixed(2)} points of CVAI on average
          {typeof m.good_accepted === "number" ? `, and accepted ${pct(m.good_accepted)} of the good photos` : ""}
          {typeof m.bad_rejected === "number" ? ` while rejecting ${pct(m.bad_rejected)} of the bad ones` : ""}.
        </p>
      ) : (
        <p>Crown has not published accuracy figures for its current automatic measurement yet.</p>
      )}
      <p>
        These test photos are computer-rendered heads with known shapes, not photos of real infants, so they do not tell how accurate Crown is on
        your baby. Crown has not yet run a clinical study. Every report is checked by a Crown reviewer before it is published, and a report is a
        screening aid, not a diagnosis.
      </p>
    </>
  );
}

interface Faq {
  readonly q: string;
  readonly a: ReactNode;
}

const PARENT_FAQ: ReadonlyArray<Faq> = [
  { q: "Who is Crown for?", a: <p>Crown is for infants from 1 month to 2 years. It helps parents and their baby's provider follow the head shape over time.</p> },
  {
    q: "How often should I scan my baby?",
    a: <p>Once a month from 1 to 6 months is recommended; you can upload until month 7. We send a reminder when the next monthly scan is due.</p>,
  },
  {
    q: "What do I need?",
    a: (
      <p>
        A phone with a camera and a second person to hold the baby. The Crown kit's soft cap and sticker give the best photos; without a cap, wet
        the hair lightly so it lies flat. <Link to="/select-cap-mode">See the instructions</Link>.
      </p>
    ),
  },
  { q: "Why is there a quiz?", a: <p>The quiz shows 10 photos and asks whether each is good enough to measure. It takes less than 5 minutes and you pass with 8 correct answers out of 10.</p> },
  {
    q: "What makes a good photo?",
    a: <p>The whole head outline from above, only the tip of the nose at the front, the ears at the sides, a sharp picture and no hands over the head.</p>,
  },
  {
    q: "What is the difference between Auto Capture and Regular Capture?",
    a: <p>Regular Capture records a 10-second video and lets you pick the shots. Auto Capture checks every frame with Crown's AI, keeps the first 10 good shots and stops.</p>,
  },
  { q: "When will I get the results?", a: <p>Usually within one business day. We notify you by e-mail and in the portal, and we tell you if new photos are needed.</p> },
  {
    q: "I do not see any result. Why?",
    a: <p>If your baby's provider is on Crown, the results may have been sent to the provider. Please contact your provider.</p>,
  },
  {
    q: "What do CI and CVAI mean?",
    a: (
      <p>
        The cranial index (CI) compares the head's width with its length; the cranial vault asymmetry index (CVAI) compares its two diagonals. The
        report places them on published severity scales. It is a screening aid, not a diagnosis: talk to your baby's doctor about the results.
      </p>
    ),
  },
  { q: "How accurate is Crown?", a: <Accuracy /> },
];

const PROVIDER_FAQ: ReadonlyArray<Faq> = [
  { q: "Which patients should I scan?", a: <p>Crown is for infants from 1 month to 2 years. We suggest scanning every infant aged 0-7 months monthly.</p> },
  { q: "How often?", a: <p>Monthly from 1 to 6 months is recommended; uploads are accepted until month 7.</p> },
  {
    q: "How do I add a patient?",
    a: (
      <p>
        In <Link to="/my-patients">My Patients</Link>, press Add and enter the name and date of birth (the caregiver e-mail invites the parent).
        Patients cannot be removed in the portal: please contact customer support.
      </p>
    ),
  },
  { q: "How many shots do I need?", a: <p>At least 3 good shots for a provider scan (parents need 5), plus a short video when you can.</p> },
  { q: "Who reviews the scans?", a: <p>Crown's reviewers check each photo and its measurement, correct the nose point when needed, and publish the report or ask for a recapture.</p> },
  { q: "Where do I find results?", a: <p>You get a notification when a report is ready. Open Results: unread reports are bold; the download icon saves Result.pdf.</p> },
  { q: "Can my staff work for me?", a: <p>Yes. Add them in Staff as a nurse or an office admin. Staff choose which physician they act for at the top of the page and see only that physician's patients and results.</p> },
  {
    q: "How is a scan billed?",
    a: <p>Practices commonly bill the visit with CPT code 99213 and ICD-10 code Q67.3 (plagiocephaly). Coverage and rates vary by payer; check with your billing team.</p>,
  },
  {
    q: "What could it bring the practice?",
    a: <p>As an example only: at 60 dollars per scan, 6 monthly scans of one infant come to 360 dollars. Your actual reimbursement depends on your payers.</p>,
  },
  { q: "How accurate is Crown?", a: <Accuracy /> },
  {
    q: "Where can I buy kits or book a webinar?",
    a: (
      <p>
        Use <a href="/buy-kits">Buy Kits</a> for caps and stickers, and <a href="/webinar">Webinar</a> to book a session with our team.
      </p>
    ),
  },
  { q: "How do I get help?", a: <p>Write to <a href={`mailto:${links.supportEmail}`}>{links.supportEmail}</a>. We answer on business days.</p> },
];

/** Help for Crown's own team: the answers parents and providers are given, side by side. */
function StaffHelpCenter() {
  return (
    <section className="panel help-page" aria-labelledby="page-title">
      <h1 id="page-title">Help Center</h1>
      <p className="card-subtitle">The answers parents and providers read in their Help Center, for answering them in support.</p>
      <h2 className="section-title">Questions from parents</h2>
      <FaqList faqs={PARENT_FAQ} />
      <h2 className="section-title">Questions from providers and their staff</h2>
      <FaqList faqs={PROVIDER_FAQ} />
      <p>
        See the <Link to="/workflow">workflow</Link> for the whole loop from adding a patient to the report.
      </p>
    </section>
  );
}

function FaqList({ faqs }: { faqs: ReadonlyArray<Faq> }) {
  return (
    <ol className="steps faq">
      {faqs.map((f, i) => (
        <Collapsible key={f.q} number={i + 1} title={f.q} defaultOpen={false}>
          <div className="faq-answer">{f.a}</div>
        </Collapsible>
      ))}
    </ol>
  );
}

/** /help-center: 10 FAQs and a two-tab workflow for parents; 12 FAQs for providers and staff. */
export default function HelpCenter() {
  const session = useSession();
  const provider = isProvider(session);
  // Crown's reviewers and administrators answer both groups in the support chat: they read both sets.
  if (session?.userRole === "reviewer" || session?.userRole === "admin") return <StaffHelpCenter />;
  return (
    <section className="panel help-page" aria-labelledby="page-title">
      <h1 id="page-title">Help Center</h1>
      <p className="card-subtitle">Answers to common questions{provider ? " from providers and their staff" : " from parents"}.</p>
      <h2 className="section-title">Frequently asked questions</h2>
      <FaqList faqs={provider ? PROVIDER_FAQ : PARENT_FAQ} />
      {!provider ? (
        <>
          <h2 className="section-title">How Crown works</h2>
          <Tabs className="tabs">
            <TabList aria-label="Workflow" className="tab-list">
              <Tab id="parent" className="tab">
                At home
              </Tab>
              <Tab id="provider" className="tab">
                With your provider
              </Tab>
            </TabList>
            <TabPanel id="parent" className="tab-panel">
              <FlowDiagram id="help-parent" title="Parent workflow at home" steps={PARENT_FLOW} />
            </TabPanel>
            <TabPanel id="provider" className="tab-panel">
              <FlowDiagram id="help-provider" title="Workflow with your provider" steps={PROVIDER_FLOW} />
            </TabPanel>
          </Tabs>
        </>
      ) : (
        <p>
          See the <Link to="/workflow">workflow</Link> for the whole loop from adding a patient to the report.
        </p>
      )}
    </section>
  );
}
