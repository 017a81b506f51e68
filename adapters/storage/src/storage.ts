import type { BlobStore } from "@crown/core";
import type { Layer } from "effect";
import { localBlobStoreLayer } from "./local.ts";
import { s3BlobStoreLayer, type S3Settings } from "./s3.ts";

export interface StorageSettings {
  readonly dataDir: string;
  readonly s3?: S3Settings | undefined;
}

/** S3 settings from `S3_ENDPOINT`, `S3_ACCESS_KEY`, `S3_SECRET_KEY`, `S3_BUCKET` (and optional `S3_REGION`). */
export const s3SettingsFromEnv = (env: NodeJS.ProcessEnv = process.env): S3Settings | undefined => {
  const endpoint = env.S3_ENDPOINT?.trim();
  if (!endpoint) return undefined;
  const missing = ["S3_ACCESS_KEY", "S3_SECRET_KEY", "S3_BUCKET"].filter((name) => !env[name]?.trim());
  if (missing.length > 0) throw new Error(`S3_ENDPOINT is set but ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not`);
  return {
    endpoint,
    accessKey: env.S3_ACCESS_KEY!.trim(),
    secretKey: env.S3_SECRET_KEY!.trim(),
    bucket: env.S3_BUCKET!.trim(),
    region: env.S3_REGION?.trim() || undefined,
  };
};

/** S3 when `s3` (or `S3_ENDPOINT`) is given, otherwise files under `${dataDir}/blobs`. */
export const storageLayerFromEnv = (settings: StorageSettings, env: NodeJS.ProcessEnv = process.env, log?: (line: Record<string, unknown>) => void): Layer.Layer<BlobStore> => {
  const s3 = settings.s3 ?? s3SettingsFromEnv(env);
  return s3 ? s3BlobStoreLayer(s3, log) : localBlobStoreLayer(settings.dataDir);
};
