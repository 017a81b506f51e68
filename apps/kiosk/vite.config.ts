import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The kiosk is served by the Crown server at `/kiosk/`; in development the API is proxied to it.
export default defineConfig({
  base: "/kiosk/",
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, target: "es2022" },
  worker: { format: "es" },
  server: {
    port: 5174,
    proxy: {
      "/api": { target: process.env.CROWN_API ?? "http://localhost:8080", changeOrigin: true },
      "/models": { target: process.env.CROWN_API ?? "http://localhost:8080", changeOrigin: true },
      "/ort": { target: process.env.CROWN_API ?? "http://localhost:8080", changeOrigin: true },
    },
  },
});
