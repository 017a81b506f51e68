import { readFile } from "node:fs/promises";
import path from "node:path";
import { Option } from "effect";
import { Learning } from "@crown/core";
import { analyzePhoto } from "@crown/core/measurement/index";
import { analyzeOptionsFrom, decodeImage, type LoadedHeadContourModel, loadHeadContourModel } from "@crown/inference";
import type { Services } from "../compose.ts";

/**
 * `crown model:evaluate [--model FILE] [--set reviewed|DIR]` (issue 41, item 4): the shipped model, or
 * a candidate, against the reviewers. `reviewed` is the reviewed set in the database (consented
 * photos); without --model the model's answers are the ones it gave when it measured them. A DIR is
 * any set in the truth.json format (a `crown dataset:export`, or a rendered set, whose truth plays
 * the reviewer); its photos are measured now, as tests/bench/generalisation.bench.ts measures them.
 */

interface SetItem {
  image: string;
  reasons: number[];
  ci: number | null;
  cvai: number | null;
  /** A reviewed set's decision; a rendered set has none (good = no reason). */
  decision?: "accept" | "reject";
}

const measureWith = async (model: LoadedHeadContourModel, bytes: Uint8Array) => {
  const a = await analyzePhoto(await decodeImage(bytes), model, analyzeOptionsFrom(model.card));
  return { verdict: a.verdict, reasons: a.reasons, ci: a.ci, cvai: a.cvai };
};

export const evaluateSet = async (set: string, modelFile: string, write: (line: string) => void): Promise<Learning.Agreement> => {
  const truth = JSON.parse(await readFile(path.join(set, "truth.json"), "utf8")) as { items: SetItem[] };
  const model = await loadHeadContourModel(modelFile, { threads: 1 });
  try {
    const rows: Learning.AgreementRow[] = [];
    for (const item of truth.items) {
      const accepted = item.decision ? item.decision === "accept" : item.reasons.length === 0;
      rows.push({ truth: { accepted, reasons: item.reasons, ci: item.ci, cvai: item.cvai }, model: await measureWith(model, await readFile(path.join(set, item.image))) });
    }
    write(`model ${model.identity ? `${model.identity.name} ${model.identity.version}` : modelFile} on ${set}\n`);
    const figures = Learning.agreementOf(rows);
    for (const line of Learning.agreementLines(figures)) write(`${line}\n`);
    return figures;
  } finally {
    await model.close();
  }
};

export const evaluateReviewed = async (services: Services, modelFile: string | null, write: (line: string) => void): Promise<Learning.Agreement> => {
  const photos = (await services.run(Learning.reviewedPhotos)).filter((x) => x.usable).map((x) => x.photo);
  const model = modelFile ? await loadHeadContourModel(modelFile, { threads: 1 }) : null;
  try {
    const rows: Learning.AgreementRow[] = [];
    for (const photo of photos) {
      const row = Learning.agreementRowOf(photo);
      if (!model) {
        rows.push(row);
        continue;
      }
      const bytes = await services.run(Learning.exampleImage(photo));
      if (Option.isSome(bytes)) rows.push({ truth: row.truth, model: await measureWith(model, bytes.value) });
    }
    write(`${model ? `candidate ${model.identity ? `${model.identity.name} ${model.identity.version}` : modelFile}` : "the models that measured each photo"} on the reviewed set (${rows.length} photos)\n`);
    const figures = Learning.agreementOf(rows);
    for (const line of Learning.agreementLines(figures)) write(`${line}\n`);
    return figures;
  } finally {
    await model?.close();
  }
};

