import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The portal is served by the Crown server at `/`; in development the API is proxied to it.
export default defineConfig({
  base: "/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    target: "es2022",
    // Every browser the portal supports preloads modules itself (Chromium, Firefox 115+, Safari 17+).
    modulePreload: { polyfill: false },
    // Libraries every page runs before its first paint, as one file: one request, and gzip finds
    // more repeats in one file than in six (the sign-in route's budget, ADR 74).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // With what the sign-in route runs of the portal's own (the shell: session, router, the API
              // client, layouts, form fields, the chat launcher, the language switcher) and what that
              // reaches: one file compresses far better than seven (ADR 0143 measured 151.1 KB against
              // 155.3 KB with the typed client), and nearly every route needs it all anyway.
              name: "framework",
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|i18next|xstate|@xstate[\\/]react|use-sync-external-store|hono)[\\/]|[\\/]react-i18next[\\/]dist[\\/]es[\\/](useTranslation|utils|unescape|context|defaults|i18nInstance|initReactI18next)\.js$|[\\/](core[\\/]src[\\/](accounts[\\/]statuses|onboarding[\\/]steps|shared[\\/](i18n|statuses))|adapters[\\/]client[\\/]src[\\/](index|error|retry|address)|apps[\\/]web[\\/]src[\\/](api[\\/](crown|publicConfig|accounts)|ui[\\/]form-state|session[\\/][a-z]+|routes|routes\.capture|ui[\\/](layouts|RouteError|toasts|Loader|Footer|Brand|Card|AppLinks|fields)|forms[\\/]fields|chat[\\/]VisitorChat|i18n[\\/]LanguageSwitcher))\.tsx?$/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { "/api": { target: process.env.CROWN_API ?? "http://localhost:8080", changeOrigin: true } },
  },
});
