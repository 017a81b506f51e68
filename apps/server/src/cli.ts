// `pnpm crown <command>`. Tracing starts before the rest of Crown is loaded, so that the modules it
// instruments (node:http, pg, undici) are patched when Crown's code first takes them (ADR 0142); with no
// OTEL_EXPORTER_OTLP_ENDPOINT nothing is loaded or patched.
import { startTelemetry, stopTelemetry } from "./telemetry.ts";

await startTelemetry(process.env);
const { main } = await import("./main.ts");
const code = await main(process.argv.slice(2));
if (process.argv[2] !== "start") {
  await stopTelemetry();
  process.exit(code);
}
