/** The server's requests' and answers' types (`AppType` through hono/client's types), type-only: see @crown/client. */
export type { Api, ResultsOf } from "@crown/client";
