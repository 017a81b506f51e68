import { lazy, type ReactNode } from "react";
import { pageWith } from "./i18n/i18n.ts";
import type { Audience } from "./session/access.ts";
import "./screens.css";

/**
 * The capture, quiz, reporting, practice, help and console screens (issue 7). routes.tsx wraps
 * each element in its sign-in guard and layout; every screen is its own lazy chunk.
 */

const named = <K extends string>(load: () => Promise<Record<K, React.ComponentType<any>>>, name: K) => lazy(() => load().then((m) => ({ default: m[name] })));

const instructions = () => import("./capture/Instructions.tsx");
const SelectCapMode = pageWith(["capture"], async () => ({ default: (await instructions()).SelectCapMode }));
const CapInstructions = pageWith(["capture"], async () => ({ default: (await instructions()).CapInstructions }));
const NoCapInstructions = pageWith(["capture"], async () => ({ default: (await instructions()).NoCapInstructions }));
// The capture page holds the upload dialog (reporting); the uploads page the patient picker (capture).
const CapturePage = pageWith(["capture", "reporting"], () => import("./capture/CapturePage.tsx"));
const Quiz = pageWith(["quiz"], () => import("./quiz/Quiz.tsx"));
const Uploads = pageWith(["reporting", "capture"], () => import("./reporting/Uploads.tsx"));
const Results = pageWith(["reporting"], () => import("./reporting/Results.tsx"));
const MyPatients = pageWith(["practice", "reporting"], () => import("./practice/MyPatients.tsx"));
const MyStaff = pageWith(["practice", "reporting"], () => import("./practice/MyStaff.tsx"));
const KioskSettings = pageWith(["practice", "reporting"], () => import("./practice/KioskSettings.tsx"));
const LinkRequests = pageWith(["practice", "reporting"], () => import("./practice/LinkRequests.tsx"));
const HelpCenter = pageWith(["help"], () => import("./help/HelpCenter.tsx"));
const Workflow = pageWith(["help"], () => import("./help/Workflow.tsx"));
const review = (name: "ReviewQueue" | "ReviewReport") => (): Promise<{ default: () => React.JSX.Element }> => import("./consoles/Review.tsx").then((m) => ({ default: m[name] }));
const ReviewQueue = pageWith(["review", "reporting"], review("ReviewQueue"));
const ReviewReport = pageWith(["review", "reporting"], review("ReviewReport"));
const AdminConsole = pageWith(["admin", "reporting"], () => import("./consoles/Admin.tsx"));

export interface CaptureRoute {
  readonly path: string;
  readonly element: ReactNode;
  /** Who the screen is for; anyone signed in when absent. */
  readonly audience?: Audience;
  /** The screen reaches the practice's patients, reports, staff or kiosks: not while it is being verified (ADR 60). */
  readonly practice?: true;
}

/** Header and footer. */
export const captureAppRoutes: ReadonlyArray<CaptureRoute> = [
  { path: "/select-cap-mode", element: <SelectCapMode />, audience: "capture" },
  { path: "/instructions", element: <CapInstructions variant="capture" />, audience: "capture" },
  { path: "/nocap-instructions/:mode", element: <NoCapInstructions />, audience: "capture" },
  { path: "/optional-quiz-instructions", element: <CapInstructions variant="optional-quiz" />, audience: "quiz" },
  { path: "/optional-quiz", element: <Quiz kind="optional-quiz" />, audience: "quiz" },
  { path: "/no-cap-quiz", element: <Quiz kind="no-cap-quiz" />, audience: "quiz" },
  { path: "/capture", element: <CapturePage />, audience: "capture", practice: true },
  { path: "/uploads", element: <Uploads />, audience: "capture", practice: true },
  { path: "/results", element: <Results />, audience: "provider", practice: true },
  { path: "/staff-results", element: <Results />, audience: "provider", practice: true },
  { path: "/parent-results", element: <Results parent />, audience: "parent" },
  { path: "/my-patients", element: <MyPatients />, audience: "provider", practice: true },
  { path: "/my-staff", element: <MyStaff />, audience: "provider", practice: true },
  { path: "/kiosk-settings", element: <KioskSettings />, audience: "capture", practice: true },
  { path: "/link-requests", element: <LinkRequests />, audience: "invitee" },
  { path: "/help-center", element: <HelpCenter /> },
  { path: "/workflow", element: <Workflow /> },
  { path: "/review", element: <ReviewQueue />, audience: "reviewer" },
  { path: "/review/:id", element: <ReviewReport />, audience: "reviewer" },
  { path: "/admin", element: <AdminConsole />, audience: "admin" },
];

/** Footer only. */
export const captureFooterRoutes: ReadonlyArray<CaptureRoute> = [
  { path: "/quiz-instructions", element: <CapInstructions variant="quiz" />, audience: "quiz" },
  { path: "/quiz", element: <Quiz kind="quiz" />, audience: "quiz" },
];
