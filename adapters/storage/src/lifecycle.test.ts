import type { Client } from "minio";
import { describe, expect, test } from "vitest";
import { ABORT_RULE_ID, ensureAbortIncompleteUploads } from "./lifecycle.ts";

/**
 * The branches s3rver cannot show (it answers NotImplemented; see s3.int.test.ts): a bucket's
 * lifecycle configuration as S3 keeps it, as MinIO keeps it (the action silently dropped), and with
 * an operator's rules already there. Only the two lifecycle calls exist on these servers.
 */
const server = (initial: unknown, keeps: (config: any) => any = (c) => c) => {
  let config = initial;
  const sets: unknown[] = [];
  const client = {
    getBucketLifecycle: async () => {
      if (config === undefined) throw Object.assign(new Error("The lifecycle configuration does not exist"), { code: "NoSuchLifecycleConfiguration" });
      return config;
    },
    setBucketLifecycle: async (_bucket: string, next: unknown) => {
      sets.push(next);
      config = keeps(structuredClone(next));
    },
  } as unknown as Client;
  return { client, sets, config: () => config };
};
const logs = () => {
  const lines: Record<string, unknown>[] = [];
  return { lines, log: (line: Record<string, unknown>) => lines.push(line) };
};

describe("ensureAbortIncompleteUploads", () => {
  test("a bucket with no rules is given the rule, and it reads back", async () => {
    const s = server(undefined);
    const l = logs();
    expect(await ensureAbortIncompleteUploads(s.client, "b", l.log)).toBe("set");
    expect(s.config()).toMatchObject({ Rule: [{ ID: ABORT_RULE_ID, Status: "Enabled", AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }] });
    expect(l.lines).toEqual([]);
    // The next start finds it and writes nothing.
    expect(await ensureAbortIncompleteUploads(s.client, "b", l.log)).toBe("present");
    expect(s.sets).toHaveLength(1);
  });

  test("a server that keeps the rule without its action (MinIO) is logged once, not trusted", async () => {
    const s = server(undefined, (c) => ({ Rule: c.Rule.map(({ AbortIncompleteMultipartUpload: _, ...rest }: any) => rest) }));
    const l = logs();
    expect(await ensureAbortIncompleteUploads(s.client, "b", l.log)).toBe("unsupported");
    expect(l.lines).toHaveLength(1);
  });

  test("an operator's rules are never rewritten; one that aborts uploads is enough", async () => {
    const theirs = { Rule: { ID: "expire-old", Status: "Enabled", Expiration: { Days: "365" } } };
    const s = server(theirs);
    const l = logs();
    expect(await ensureAbortIncompleteUploads(s.client, "b", l.log)).toBe("left-to-operator");
    expect(s.sets).toEqual([]);
    expect(l.lines).toHaveLength(1);
    const aborting = server({ Rule: [theirs.Rule, { ID: "abort", Status: "Enabled", AbortIncompleteMultipartUpload: { DaysAfterInitiation: "7" } }] });
    expect(await ensureAbortIncompleteUploads(aborting.client, "b", l.log)).toBe("present");
    expect(aborting.sets).toEqual([]);
  });

  test("a server that refuses (access denied, not implemented) is logged once and the start goes on", async () => {
    const client = {
      getBucketLifecycle: async () => {
        throw Object.assign(new Error("Access Denied"), { code: "AccessDenied" });
      },
    } as unknown as Client;
    const l = logs();
    expect(await ensureAbortIncompleteUploads(client, "b", l.log)).toBe("unsupported");
    expect(l.lines).toEqual([expect.objectContaining({ level: "warn", bucket: "b", reason: "AccessDenied" })]);
  });
});
