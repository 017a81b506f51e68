export * from "./queue.ts";
export * from "./pg-boss-db.ts";
