import { isSpanContextValid, trace } from "@opentelemetry/api";

/**
 * One JSON line on stdout per event (ADR 0142): its time, level and message, the request id when it is a
 * request's, and the trace it belongs to when tracing is on. Callers never put a path, a name, an e-mail
 * or a date of birth in it: routes are patterns, people are their opaque identifiers.
 */
export const log = (line: Record<string, unknown>) => {
  const context = trace.getActiveSpan()?.spanContext();
  const traced = context && isSpanContextValid(context) ? { traceId: context.traceId, spanId: context.spanId } : {};
  process.stdout.write(`${JSON.stringify({ at: new Date().toISOString(), ...line, ...traced })}\n`);
};
