import { Context, Effect, Exit, FiberRef } from "effect";
import { globalValue } from "effect/GlobalValue";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "./schema.ts";

/** What a repository runs its queries on: the database itself, or the transaction in progress. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** The root database, for layers that build repositories (`Layer.effect(Tag, Effect.map(DatabaseClient, make))`). */
export class DatabaseClient extends Context.Tag("crown/db/DatabaseClient")<DatabaseClient, Kysely<Database>>() {}

/** The open transactions of the current fiber, by the database they belong to (usually none or one). */
export type OpenTransactions = ReadonlyMap<Kysely<Database>, Transaction<Database>>;

/**
 * The transactions the current fiber runs in. Set by `Transactor.run` with `Effect.locally`, so it
 * follows the effect (and the fibers it forks) and nothing else. Keyed by database: a transaction
 * is only ever used by repositories of its own database.
 */
export const currentExecutor: FiberRef.FiberRef<OpenTransactions> = globalValue(
  Symbol.for("@crown/db/currentExecutor"),
  () => FiberRef.unsafeMake<OpenTransactions>(new Map()),
);

/** The executor for `db` in the current fiber: its open transaction, or `db` itself. */
export function executor(db: Kysely<Database>): Effect.Effect<Executor>;
/** The same, for the database in the context. */
export function executor(): Effect.Effect<Executor, never, DatabaseClient>;
export function executor(db?: Kysely<Database>): Effect.Effect<Executor, never, DatabaseClient> {
  const pick = (root: Kysely<Database>) => Effect.map(FiberRef.get(currentExecutor), (open): Executor => open.get(root) ?? root);
  return db !== undefined ? pick(db) : Effect.flatMap(DatabaseClient, pick);
}

/**
 * Runs one query (or a few) on the current executor: every repository's one way to the database.
 * A failure of the database is a defect: callers cannot act on it, and it surfaces as a 500.
 */
export const run = <A>(db: Kysely<Database>, f: (ex: Executor) => Promise<A>): Effect.Effect<A> =>
  Effect.flatMap(executor(db), (ex) => Effect.promise(() => f(ex)));

/** `%text%` for ILIKE, with the pattern characters of the text taken literally. */
export const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Runs `self` in one transaction of `db`: commit on success, rollback on failure, defect or
 * interruption. Inside a transaction already, `self` simply joins it.
 */
export const inTransaction =
  (db: Kysely<Database>) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(FiberRef.get(currentExecutor), (open) =>
      open.has(db)
        ? self
        : Effect.acquireUseRelease(
            Effect.promise(() => db.startTransaction().execute()),
            (tx) => Effect.locally(self, currentExecutor, new Map(open).set(db, tx)),
            (tx, exit) =>
              Effect.promise(async () => {
                if (Exit.isFailure(exit)) return tx.rollback().execute();
                try {
                  await tx.commit().execute();
                } catch (error) {
                  // A failed COMMIT ends the transaction but Kysely keeps the connection: a
                  // rollback releases it. The commit error still surfaces as a defect.
                  await tx.rollback().execute().catch(() => undefined);
                  throw error;
                }
              }),
          ),
    );
