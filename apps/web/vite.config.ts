import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The portal is served by the Crown server at `/`; in development the API is proxied to it.
export default defineConfig({
  base: "/",
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, target: "es2022" },
  server: {
    port: 5173,
    proxy: { "/api": { target: process.env.CROWN_API ?? "http://localhost:8080", changeOrigin: true } },
  },
});
