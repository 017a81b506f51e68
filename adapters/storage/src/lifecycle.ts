import type { Client } from "minio";

/**
 * A multipart upload cut by a crash is no object (never listed, served or named by a row), but its
 * parts stay stored. The pending-blob sweep (ADR 0051) cannot reach them: it removes objects by key.
 * The bucket's own `AbortIncompleteMultipartUpload` rule does, so the store sets it when it opens the
 * bucket (ADR 0065). Servers without that rule — MinIO purges stale uploads by itself
 * (`MINIO_API_STALE_UPLOADS_EXPIRY`), s3rver keeps them — are logged once and the store carries on.
 */

export const ABORT_RULE_ID = "crown-abort-incomplete-multipart-uploads";
/** S3 counts in whole days; one is the least it takes. */
export const ABORT_AFTER_DAYS = 1;

export type AbortRuleOutcome =
  /** Our rule was added to a bucket that had no lifecycle rules. */
  | "set"
  /** The bucket already aborts incomplete uploads (ours or the operator's rule). */
  | "present"
  /** The bucket has rules of the operator's and none aborts uploads: left as it is (rewriting them could lose fields), logged. */
  | "left-to-operator"
  /** The server refused or silently dropped the rule, or cannot say: logged. */
  | "unsupported";

type Rule = { AbortIncompleteMultipartUpload?: { DaysAfterInitiation?: unknown }; Status?: string };

const rulesOf = (config: unknown): Rule[] => {
  const rule = (config as { Rule?: Rule | Rule[] } | null | undefined)?.Rule;
  return rule === undefined ? [] : Array.isArray(rule) ? rule : [rule];
};
const aborts = (rules: Rule[]) => rules.some((r) => r.Status !== "Disabled" && r.AbortIncompleteMultipartUpload?.DaysAfterInitiation !== undefined);
const codeOf = (e: unknown) => String((e as { code?: string }).code ?? (e as Error)?.message ?? e).slice(0, 200);

/** The bucket's lifecycle rules; [] when it has none. Throws what the server answered otherwise. */
const currentRules = async (client: Client, bucket: string): Promise<Rule[]> => {
  try {
    return rulesOf(await client.getBucketLifecycle(bucket));
  } catch (e) {
    if ((e as { code?: string }).code === "NoSuchLifecycleConfiguration") return [];
    throw e;
  }
};

/** Makes sure the bucket aborts multipart uploads left incomplete for a day; never fails the start. */
export const ensureAbortIncompleteUploads = async (client: Client, bucket: string, log: (line: Record<string, unknown>) => void): Promise<AbortRuleOutcome> => {
  const unsupported = (reason: string): AbortRuleOutcome => {
    log({
      level: "warn",
      msg: "the bucket cannot be given an AbortIncompleteMultipartUpload rule: parts of uploads cut by a crash are left to the server's own expiry",
      bucket,
      reason,
    });
    return "unsupported";
  };
  try {
    const rules = await currentRules(client, bucket);
    if (aborts(rules)) return "present";
    if (rules.length > 0) {
      log({ level: "warn", msg: "the bucket has lifecycle rules and none aborts incomplete multipart uploads: add one (ADR 0065)", bucket });
      return "left-to-operator";
    }
    await client.setBucketLifecycle(bucket, {
      Rule: [{ ID: ABORT_RULE_ID, Status: "Enabled", Filter: { Prefix: "" }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: ABORT_AFTER_DAYS } }],
    });
    // Some servers answer 200 and keep the rule without its action: only what reads back counts.
    return aborts(await currentRules(client, bucket)) ? "set" : unsupported("the server kept no AbortIncompleteMultipartUpload action");
  } catch (e) {
    return unsupported(codeOf(e));
  }
};
