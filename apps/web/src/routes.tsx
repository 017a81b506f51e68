import { lazy, type ReactNode, Suspense } from "react";
import { Navigate, type RouteObject, useLocation, useRoutes } from "react-router-dom";
import { pageWith } from "./i18n/i18n.ts";
import { type Audience, isFor } from "./session/access.ts";
import { homeFor, landingFor, mustSetUpSecondFactor, mustSignBaa, practiceBeingVerified } from "./session/home.ts";
import { useLeftByChoice, useSession } from "./session/store.ts";
import { PublicLayout } from "./shell/layouts.tsx";
import { PageSpinner } from "./ui/Loader.tsx";
import { RouteBoundary } from "./ui/RouteError.tsx";
import { captureAppRoutes, captureFooterRoutes } from "./routes.capture.tsx";
import { isActive } from "@crown/core/accounts/statuses";
import { needsBabyDetails } from "@crown/core/onboarding/steps";

// The layouts bring the `app` area: the header, the account menu and the forms' shared fields speak it.
const AppLayout = pageWith(["app"], () => import("./shell/AppLayouts.tsx"));
const FooterOnlyLayout = pageWith(["app"], async () => ({ default: (await import("./shell/AppLayouts.tsx")).FooterOnlyLayout }));

const Login = lazy(() => import("./pages/Login.tsx"));
const SignUp = lazy(() => import("./pages/SignUp.tsx"));
const SignupConfirmation = lazy(() => import("./pages/SignupConfirmation.tsx"));
const VerifyEmail = pageWith(["account"], () => import("./pages/VerifyEmail.tsx"));
const ForgotPassword = pageWith(["account"], () => import("./pages/ForgotPassword.tsx"));
const ResendVerification = pageWith(["account"], () => import("./pages/ResendVerification.tsx"));
const ResetPassword = pageWith(["account"], () => import("./pages/ResetPassword.tsx"));
const PrivacyPolicy = pageWith(["legal"], () => import("./pages/legal/PrivacyPolicy.tsx"));
const TermsOfService = pageWith(["legal"], () => import("./pages/legal/TermsOfService.tsx"));
const BabyDetails = pageWith(["onboarding", "app"], () => import("./pages/onboarding/BabyDetails.tsx"));
const ChildDetails = pageWith(["onboarding", "app"], () => import("./pages/onboarding/ChildDetails.tsx"));
const Baa = pageWith(["onboarding"], () => import("./pages/onboarding/Baa.tsx"));
const TwoStep = pageWith(["security"], () => import("./pages/onboarding/TwoStep.tsx"));
const Dashboard = pageWith(["dashboard"], () => import("./pages/dashboard/Dashboard.tsx"));
const SupportInbox = pageWith(["support", "chat"], () => import("./support/SupportInbox.tsx"));
const Profile = pageWith(["profile", "app", "security"], () => import("./pages/profile/Profile.tsx"));
const ExternalRedirect = pageWith(["account"], () => import("./pages/ExternalRedirect.tsx"));
const RemoveAccount = pageWith(["profile"], () => import("./pages/profile/RemoveAccount.tsx"));
const DataDownload = pageWith(["profile", "security"], () => import("./pages/profile/DataDownload.tsx"));
const ReferralCodeHelp = pageWith(["help"], () => import("./help/ReferralCodeHelp.tsx"));
const NotFound = pageWith(["account"], () => import("./pages/NotFound.tsx"));
const NotAvailable = pageWith(["account"], () => import("./pages/NotAvailable.tsx"));
const PracticeBeingVerifiedScreen = pageWith(["dashboard"], async () => ({ default: (await import("./pages/dashboard/PracticeBeingVerified.tsx")).PracticeBeingVerifiedScreen }));

/** Signed-in Active users are sent away from login and sign-up. */
function PublicOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  // The same landing as the login's own: a return path (an e-mailed link) is not lost to the home page.
  if (session && isActive(session)) return <Navigate to={landingFor(session, location.state)} replace />;
  return <>{children}</>;
}

/** Signed-in routes need a token; restricted ones also need status Active; some are for one audience only. */
function RequireAuth({ children, restricted = true, audience, practice = false }: { children: ReactNode; restricted?: boolean; audience?: Audience | undefined; practice?: boolean }) {
  const session = useSession();
  const location = useLocation();
  const leftByChoice = useLeftByChoice();
  // A visitor who arrives signed out (an e-mailed link, an ended session) returns here after sign-in; one who signed out does not.
  if (!session) return <Navigate to="/" replace state={leftByChoice ? null : { from: location.pathname + location.search }} />;
  if (restricted && !isActive(session)) {
    return <Navigate to={needsBabyDetails(session.step) ? "/baby-details" : "/"} replace />;
  }
  // The server refuses an unsigned physician every practice call; the portal sends them to sign first.
  if (mustSignBaa(session) && location.pathname !== "/baa") return <Navigate to="/baa" replace />;
  // Nor any patient before two-step sign-in is set up (issue 44): the setup page comes first.
  if (mustSetUpSecondFactor(session) && location.pathname !== "/two-step") return <Navigate to="/two-step" replace />;
  if (audience && !isFor(audience, session.userRole)) return <NotAvailable />;
  // The server refuses a practice being verified these screens' calls: say why instead of drawing them.
  if (practice && practiceBeingVerified(session)) return <PracticeBeingVerifiedScreen />;
  return <>{children}</>;
}

const auth = (el: ReactNode, restricted = true, audience?: Audience, practice = false) => (
  <RequireAuth restricted={restricted} audience={audience} practice={practice}>
    {el}
  </RequireAuth>
);

/**
 * The portal's routes, in the router's declarative mode (`useRoutes` under `BrowserRouter`): no route
 * has a loader or action, and the data router's code was a fifth of the sign-in page's JavaScript (ADR 74).
 */
const routes: RouteObject[] = [
  {
    element: (
      <RouteBoundary>
        <PublicLayout />
      </RouteBoundary>
    ),
    children: [
      { path: "/", element: <PublicOnly><Login /></PublicOnly> },
      { path: "/sign-up", element: <PublicOnly><SignUp /></PublicOnly> },
      { path: "/signup-confirmation", element: <SignupConfirmation /> },
      { path: "/verify-email", element: <VerifyEmail /> },
      { path: "/forgot-password", element: <ForgotPassword /> },
      { path: "/resend-verification-link", element: <ResendVerification /> },
      { path: "/reset-password", element: <ResetPassword /> },
      { path: "/privacy-policy", element: <PrivacyPolicy /> },
      { path: "/terms-of-service", element: <TermsOfService /> },
      { path: "/help/referral-code", element: <ReferralCodeHelp /> },
    ],
  },
  {
    element: (
      <RouteBoundary>
        <Suspense fallback={<PageSpinner />}>
          <FooterOnlyLayout />
        </Suspense>
      </RouteBoundary>
    ),
    children: [
      { path: "/baby-details", element: auth(<BabyDetails />, false) },
      { path: "/child-details", element: auth(<ChildDetails />, false) },
      { path: "/baa", element: auth(<Baa />) },
      { path: "/two-step", element: auth(<TwoStep />) },
      ...captureFooterRoutes.map((r) => ({ path: r.path, element: auth(r.element, true, r.audience) })),
    ],
  },
  {
    element: (
      <RouteBoundary>
        <Suspense fallback={<PageSpinner />}>
          <AppLayout />
        </Suspense>
      </RouteBoundary>
    ),
    children: [
      { path: "/dashboard", element: auth(<Dashboard />) },
      { path: "/support", element: auth(<SupportInbox />, true, "support") },
      { path: "/profile", element: auth(<Profile />) },
      { path: "/remove-account", element: auth(<RemoveAccount />) },
      { path: "/my-data/download", element: auth(<DataDownload />) },
      ...captureAppRoutes.map((r) => ({ path: r.path, element: auth(r.element, true, r.audience, r.practice) })),
      { path: "/buy-kits", element: auth(<ExternalRedirect to="shop" />) },
      { path: "/webinar", element: auth(<ExternalRedirect to="webinar" />) },
      { path: "*", element: <NotFound /> },
    ],
  },
];

export function AppRoutes() {
  return useRoutes(routes);
}
