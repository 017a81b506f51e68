import { type Kysely, sql } from "kysely";

/**
 * Blobs written but not yet named by any row, and the lease of the process writing them (ADR 0051):
 * a sweep removes the blobs of a lease that stopped being renewed (its process died), on local
 * storage and S3 alike. Frozen in time: imports nothing from the app.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("process_leases")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("started_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("renewed_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // No foreign key: a lease ended (or swept) before its pending blobs is the same as an expired one.
  await db.schema
    .createTable("pending_blobs")
    .addColumn("blob_key", "text", (c) => c.primaryKey())
    .addColumn("lease_id", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("pending_blobs_lease").on("pending_blobs").column("lease_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("pending_blobs").execute();
  await db.schema.dropTable("process_leases").execute();
}
