import { useTranslation } from "react-i18next";

/** The two workflow diagrams (SVG): the parent's monthly loop and the provider's office loop. */

/** Each loop's steps in order; their titles and texts are `help:flow.<loop>.<step>` in the catalogues. */
const FLOWS = {
  parent: ["signUp", "quiz", "capture", "upload", "review", "report", "next"],
  provider: ["add", "scan", "upload", "review", "notification", "results", "followUp"],
} as const;

export type Flow = keyof typeof FLOWS;

export function FlowDiagram({ flow, title, id }: { flow: Flow; title: string; id: string }) {
  const { t } = useTranslation("help");
  const steps = FLOWS[flow].map((step) => ({ key: step, title: t(`flow.${flow}.${step}.title`), text: t(`flow.${flow}.${step}.text`) }));
  const boxH = 58;
  const gap = 26;
  const width = 430;
  const height = steps.length * boxH + (steps.length - 1) * gap + 8;
  return (
    <figure className="flow-figure">
      <svg className="flow-diagram" viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{steps.map((s, i) => `${i + 1}. ${s.title}: ${s.text}`).join(". ")}</desc>
        <defs>
          <marker id={`${id}-arrow`} viewBox="0 0 10 10" refX="5" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0 0 L10 5 L0 10z" fill="#2e7d6b" />
          </marker>
        </defs>
        {steps.map((s, i) => {
          const y = 4 + i * (boxH + gap);
          return (
            <g key={s.key}>
              <rect x="4" y={y} width={width - 8} height={boxH} rx="10" fill={i % 2 ? "#ffffff" : "#e6f0f4"} stroke="#1f5f7a" strokeWidth="1.5" />
              <circle cx="32" cy={y + boxH / 2} r="15" fill="#1f5f7a" />
              <text x="32" y={y + boxH / 2 + 5} textAnchor="middle" fontSize="14" fontWeight="700" fill="#fff">
                {i + 1}
              </text>
              <text x="58" y={y + 24} fontSize="15" fontWeight="700" fill="#14222b">
                {s.title}
              </text>
              <text x="58" y={y + 44} fontSize="12.5" fill="#3b4a55">
                {s.text}
              </text>
              {i < steps.length - 1 ? <line x1={width / 2} y1={y + boxH + 2} x2={width / 2} y2={y + boxH + gap - 4} stroke="#2e7d6b" strokeWidth="2" markerEnd={`url(#${id}-arrow)`} /> : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="sr-only">{title}</figcaption>
    </figure>
  );
}
