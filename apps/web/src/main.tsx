import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router-dom";
import { router } from "./routes.tsx";
import "./session/store.ts";
import { GlobalLoader } from "./ui/Loader.tsx";
import { ToastRegion } from "./ui/toasts.tsx";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("The #root element is missing from index.html");

createRoot(root).render(
  <StrictMode>
    <GlobalLoader />
    <RouterProvider router={router} />
    <ToastRegion />
  </StrictMode>,
);
