/** The two workflow diagrams (SVG): the parent's monthly loop and the provider's office loop. */

interface Box {
  readonly title: string;
  readonly text: string;
}

export const PARENT_FLOW: ReadonlyArray<Box> = [
  { title: "Sign up", text: "Create an account and register your baby" },
  { title: "Take the quiz", text: "Learn what a good head photo looks like" },
  { title: "Capture", text: "Photos and a 10-second video, cap or wet hair" },
  { title: "Upload", text: "At least 5 good shots and a short video" },
  { title: "Review", text: "Crown checks the photos within one business day" },
  { title: "Report", text: "You are notified; download Result.pdf" },
  { title: "Next month", text: "Scan again monthly until month 7" },
];

export const PROVIDER_FLOW: ReadonlyArray<Box> = [
  { title: "Add the patient", text: "My Patients: name, date of birth, caregiver" },
  { title: "Scan", text: "In the office (3 good shots) or the parent at home" },
  { title: "Upload", text: "Photos and video go to Crown" },
  { title: "Review", text: "Crown's reviewers check each photo" },
  { title: "Notification", text: "A notification and e-mail when it is ready" },
  { title: "Results", text: "Download Result.pdf from Results" },
  { title: "Follow up", text: "Discuss with the family; scan monthly 0-7 months" },
];

export function FlowDiagram({ steps, title, id }: { steps: ReadonlyArray<Box>; title: string; id: string }) {
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
            <g key={s.title}>
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
