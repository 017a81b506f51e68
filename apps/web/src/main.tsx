import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { AppRoutes } from "./routes.tsx";
import { startI18n } from "./i18n/i18n.ts";
import { resumeSession } from "./session/store.ts";
import { GlobalLoader } from "./shell/GlobalLoader.tsx";
import { clearReloadGuard } from "./ui/RouteError.tsx";
import { ToastRegion } from "./ui/toasts.tsx";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("The #root element is missing from index.html");

window.addEventListener("load", () => window.setTimeout(clearReloadGuard, 5000));

// The first route decision needs to know whether this new tab joins the browser's session.
// And the words of the portal's language (their chunk loads beside the session check).
void Promise.all([resumeSession(), startI18n()]).finally(() =>
  createRoot(root).render(
    <StrictMode>
      <GlobalLoader />
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <ToastRegion />
    </StrictMode>,
  ),
);
