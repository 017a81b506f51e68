/** The server's answers' types (`AppType` through hono/client's types), type-only: see adapters/http/src/client-types.ts. */
export type { Api, ResultsOf } from "@crown/http/client-types";
