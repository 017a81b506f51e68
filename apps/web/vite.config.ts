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
              // With the portal's own small modules every route shares (the session, the API client, the
              // lifecycles' plain parts): one file compresses better than two, and the sign-in page's
              // budget (ADR 74) has no room for the difference (ADR 0143).
              name: "framework",
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|i18next|xstate|@xstate[\\/]react|use-sync-external-store|hono)[\\/]|[\\/]react-i18next[\\/]dist[\\/]es[\\/](useTranslation|utils|unescape|context|defaults|i18nInstance|initReactI18next)\.js$|[\\/](core[\\/]src[\\/](accounts[\\/]lifecycle|shared[\\/](i18n|statuses))|adapters[\\/]client[\\/]src[\\/](index|error|retry|address)|apps[\\/]web[\\/]src[\\/](api[\\/](crown|publicConfig|accounts)|ui[\\/]form-state))\.ts$/,
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
