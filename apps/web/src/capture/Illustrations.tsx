/** Small line illustrations of the capture steps (decorative: the step text says everything). */

const Frame = ({ children }: { children: React.ReactNode }) => (
  <svg className="illustration" viewBox="0 0 160 110" width="160" height="110" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="158" height="108" rx="10" fill="#f4f8fa" stroke="#d5dde3" />
    {children}
  </svg>
);

/** The head seen from above: oval vault, nose tip at the top, ears at the sides. */
const Head = ({ cap = false, sticker = false, wet = false }: { cap?: boolean; sticker?: boolean; wet?: boolean }) => (
  <g>
    <ellipse cx="80" cy="58" rx="30" ry="36" fill={cap ? "#cfe3ea" : "#f1d3bd"} stroke="#1f5f7a" strokeWidth="2" />
    <path d="M76 22 q4 -7 8 0" fill="#f1d3bd" stroke="#1f5f7a" strokeWidth="2" />
    <ellipse cx="49" cy="60" rx="4" ry="8" fill="#f1d3bd" stroke="#1f5f7a" strokeWidth="1.5" />
    <ellipse cx="111" cy="60" rx="4" ry="8" fill="#f1d3bd" stroke="#1f5f7a" strokeWidth="1.5" />
    {cap ? <path d="M52 70 q28 14 56 0" fill="none" stroke="#1f5f7a" strokeDasharray="3 3" /> : null}
    {sticker ? <circle cx="80" cy="58" r="6" fill="#2e7d6b" stroke="#fff" strokeWidth="1.5" /> : null}
    {wet ? (
      <g fill="#5aa0c8">
        <path d="M128 30 q5 8 0 12 q-5 -4 0 -12z" />
        <path d="M138 48 q4 6 0 9 q-4 -3 0 -9z" />
      </g>
    ) : null}
  </g>
);

export type IllustrationName = "cap" | "sticker" | "hold" | "nose" | "video" | "select" | "save" | "results" | "hair" | "notice";

export function Illustration({ name }: { name: IllustrationName }) {
  switch (name) {
    case "cap":
      return (
        <Frame>
          <Head cap />
        </Frame>
      );
    case "sticker":
      return (
        <Frame>
          <Head cap sticker />
        </Frame>
      );
    case "hair":
      return (
        <Frame>
          <Head wet />
        </Frame>
      );
    case "hold":
      return (
        <Frame>
          <rect x="30" y="62" width="100" height="30" rx="12" fill="#e6f0f4" stroke="#1f5f7a" strokeWidth="2" />
          <circle cx="80" cy="48" r="20" fill="#f1d3bd" stroke="#1f5f7a" strokeWidth="2" />
          <path d="M46 88 q-10 -18 8 -30" fill="none" stroke="#2e7d6b" strokeWidth="5" strokeLinecap="round" />
          <path d="M114 88 q10 -18 -8 -30" fill="none" stroke="#2e7d6b" strokeWidth="5" strokeLinecap="round" />
        </Frame>
      );
    case "nose":
      return (
        <Frame>
          <Head cap sticker />
          <circle cx="80" cy="20" r="9" fill="none" stroke="#b42318" strokeWidth="2" />
        </Frame>
      );
    case "video":
      return (
        <Frame>
          <rect x="50" y="14" width="60" height="84" rx="9" fill="#fff" stroke="#1f5f7a" strokeWidth="2" />
          <ellipse cx="80" cy="56" rx="16" ry="20" fill="#cfe3ea" stroke="#1f5f7a" strokeWidth="1.5" />
          <circle cx="80" cy="88" r="5" fill="#b42318" />
          <text x="80" y="28" textAnchor="middle" fontSize="9" fill="#1f5f7a">
            0:10
          </text>
        </Frame>
      );
    case "select":
      return (
        <Frame>
          {[0, 1, 2].map((i) => (
            <g key={i} transform={`translate(${22 + i * 42} 30)`}>
              <rect width="34" height="44" rx="5" fill="#fff" stroke="#1f5f7a" strokeWidth="1.5" />
              <ellipse cx="17" cy="22" rx="9" ry="12" fill="#cfe3ea" />
              {i !== 1 ? <path d="M8 38 l5 4 l12 -12" fill="none" stroke="#2e7d6b" strokeWidth="3" /> : <path d="M9 30 l16 12 M25 30 l-16 12" stroke="#b42318" strokeWidth="2.5" />}
            </g>
          ))}
        </Frame>
      );
    case "save":
      return (
        <Frame>
          <path d="M60 70 h40 a14 14 0 0 0 -3 -28 a20 20 0 0 0 -38 6 a11 11 0 0 0 1 22z" fill="#e6f0f4" stroke="#1f5f7a" strokeWidth="2" />
          <path d="M80 84 v-30 m-9 9 l9 -9 l9 9" fill="none" stroke="#2e7d6b" strokeWidth="3" />
        </Frame>
      );
    case "results":
      return (
        <Frame>
          <rect x="52" y="16" width="56" height="78" rx="5" fill="#fff" stroke="#1f5f7a" strokeWidth="2" />
          <path d="M62 34 h36 M62 46 h36 M62 58 h24" stroke="#52606b" strokeWidth="3" />
          <circle cx="108" cy="22" r="9" fill="#b42318" />
        </Frame>
      );
    case "notice":
      return (
        <Frame>
          <path d="M80 18 l34 12 v22 c0 22 -16 34 -34 40 c-18 -6 -34 -18 -34 -40 v-22z" fill="#e6f0f4" stroke="#1f5f7a" strokeWidth="2" />
          <path d="M68 56 l8 8 l16 -18" fill="none" stroke="#2e7d6b" strokeWidth="4" />
        </Frame>
      );
  }
}
