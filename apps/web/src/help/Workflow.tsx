import { FlowDiagram, PARENT_FLOW, PROVIDER_FLOW } from "./Diagrams.tsx";

/** /workflow: the two diagrams, the provider's office loop and the parent's home loop. */
export default function Workflow() {
  return (
    <section className="panel workflow-page" aria-labelledby="page-title">
      <h1 id="page-title">Workflow</h1>
      <p className="card-subtitle">How a scan becomes a report, in the office and at home.</p>
      <div className="workflow-grid">
        <div>
          <h2>In your office</h2>
          <FlowDiagram id="wf-provider" title="Provider workflow" steps={PROVIDER_FLOW} />
        </div>
        <div>
          <h2>At home with the parent</h2>
          <FlowDiagram id="wf-parent" title="Parent workflow" steps={PARENT_FLOW} />
        </div>
      </div>
    </section>
  );
}
