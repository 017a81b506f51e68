import { Context, type Effect } from "effect";

/** Background jobs (ADR 5): analysis, e-mails. pg-boss over our Kysely executor in `adapters/jobs`. */
export interface EnqueueJob {
  readonly name: string;
  readonly payload: Record<string, unknown>;
  /** At most one pending job per key: enqueueing it again is a no-op. */
  readonly key?: string;
  readonly maxAttempts?: number;
}
/** A durable job queue in the same database: `enqueue` inside a transaction commits with it. */
export interface JobQueuePort {
  readonly enqueue: (job: EnqueueJob) => Effect.Effect<void>;
}
export class JobQueue extends Context.Tag("crown/JobQueue")<JobQueue, JobQueuePort>() {}
