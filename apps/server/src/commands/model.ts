import { readFile } from "node:fs/promises";
import path from "node:path";
import { Learning } from "@crown/core";
import type { Services } from "../compose.ts";

/**
 * `crown model:shadow FILE`, `model:promote`, `model:rollback`, `model:list` (issue 41, item 5;
 * ADR 0159): the same use cases as the admin console's Model section, recorded and audited with no
 * actor (the operator at the machine). The card is the model.json beside FILE, as for CROWN_MODEL.
 */

const line = (m: Learning.InstalledModelSummary) =>
  `${m.role.padEnd(9)} ${m.name} ${m.version}${m.release_model ? " (the release's own model)" : ` sha256 ${m.sha256?.slice(0, 16)}… ${((m.size ?? 0) / 1e6).toFixed(1)} MB`} since ${m.role_since}`;

export const installShadowCommand = async (services: Services, file: string, write: (line: string) => void) => {
  const bytes = new Uint8Array(await readFile(file));
  const card = JSON.parse(await readFile(path.join(path.dirname(file), "model.json"), "utf8")) as unknown;
  const installed = await services.run(Learning.installShadow({ bytes, card }, null));
  write(`Installed ${installed.name} ${installed.version} as the shadow model (sha256 ${installed.sha256}).\n`);
  write("Every report analysed from now on is measured by it too, after the shipped model; compare them on the admin's Model page.\n");
  return 0;
};

export const promoteCommand = async (services: Services, write: (line: string) => void) => {
  const r = await services.run(Learning.promoteShadow(null));
  write(`${r.shipped.name} ${r.shipped.version} is now the shipped model; ${r.previous.name} ${r.previous.version} is kept for \`crown model:rollback\`.\n`);
  return 0;
};

export const rollbackCommand = async (services: Services, write: (line: string) => void) => {
  const r = await services.run(Learning.rollbackModel(null));
  write(`${r.shipped.name} ${r.shipped.version} is the shipped model again${r.retired ? `; ${r.retired.name} ${r.retired.version} is retired (kept)` : ""}.\n`);
  return 0;
};

export const listModelsCommand = async (services: Services, write: (line: string) => void) => {
  const all = await services.run(Learning.installedModels);
  if (all.length === 0) write("No model installed through Crown: the release's own model is the shipped model.\n");
  for (const m of all) write(`${line(m)}\n`);
  return 0;
};
