import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { Learning, ValidationFailed } from "@crown/core";
import { errorResponse, HttpFailure, ok, runUseCase } from "../effect-bridge.ts";
import type { Env } from "../env.ts";
import { requireCaller } from "../middleware.ts";
import { documented } from "../openapi.ts";
import { formBody, jsonBody } from "../request.ts";
import { takesForm, takesJson } from "../wire-input.ts";

const tag = "Learning";
documented({ method: "get", path: "/user/research-consent", summary: "The parent's children with their choice to let their reviewed photos improve Crown (off until chosen), whether to ask now, and the consent text in the request's language", tag, auth: true });
documented({ method: "post", path: "/user/research-consent", summary: "Grant, decline or withdraw for one child; a withdrawal removes the child's photos from every reviewed set not yet used for a shipped model", tag, auth: true, body: Learning.ConsentRequest });
documented({ method: "post", path: "/user/research-consent/asked", summary: "The parent closed the question without choosing: stays off, not asked again", tag, auth: true, body: Learning.ConsentAskedRequest });

documented({ method: "get", path: "/admin/model", summary: "The shipped model against the reviewers on the reviewed set: last 30 days and in total, and the photos where they disagree most (admins and reviewers)", tag: "Admin", auth: true });

documented({ method: "post", path: "/admin/model/shadow", summary: "Install a candidate model as the shadow model (multipart: `model`, the .onnx file, and `card`, its model.json); checked in onnxruntime against the head-contour contract, stored with its version and checksum, audited (admins)", tag: "Admin", auth: true });
documented({ method: "post", path: "/admin/model/promote", summary: "Make the shadow model the shipped model for the next report in every worker; the shipped one is kept for a rollback (admins)", tag: "Admin", auth: true });
documented({ method: "post", path: "/admin/model/rollback", summary: "Go back to the model shipped before the last promotion (admins)", tag: "Admin", auth: true });

/** A candidate model and its card; the .onnx files Crown builds are a few MB. */
export const MODEL_UPLOAD_LIMIT = 64 * 1024 * 1024;
const modelLimit = bodyLimit({ maxSize: MODEL_UPLOAD_LIMIT, onError: (c) => c.json({ message: "The model file must be at most 64 MB." }, 413) });

const candidateOf = async (c: Context<Env>) => {
  const refuse = (message: string): never => {
    const { status, body } = errorResponse(ValidationFailed.field("model", message));
    throw new HttpFailure(Response.json(body, { status }));
  };
  if (!(c.req.header("content-type") ?? "").includes("multipart/form-data")) return refuse(Learning.LEARNING_MESSAGES.modelFile);
  const form = await formBody(c);
  const model = form.model;
  const card = form.card;
  if (!(model instanceof File) || model.size === 0 || card === undefined) return refuse(Learning.LEARNING_MESSAGES.modelFile);
  const text = card instanceof File ? await card.text() : String(card);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return refuse(Learning.LEARNING_MESSAGES.modelCard);
  }
  return { bytes: new Uint8Array(await model.arrayBuffer()), card: parsed };
};

/** Consent per child (parents) and, for admins, the model's agreement with the reviewers. */
export const learningRoutes = () =>
  new Hono<Env>()
    .get("/user/research-consent", requireCaller, async (c) => c.json(ok(Learning.LEARNING_MESSAGES.consents, await runUseCase(c, Learning.myConsents)), 200))
    .post("/user/research-consent", takesJson(Learning.ConsentRequest), requireCaller, async (c) => {
      const { message, results } = await runUseCase(c, Learning.chooseConsent(await jsonBody(c)));
      return c.json(ok(message, results), 200);
    })
    .get("/admin/model", requireCaller, async (c) => c.json(ok(Learning.LEARNING_MESSAGES.model, await runUseCase(c, Learning.modelPage)), 200))
    .post("/admin/model/shadow", takesForm<{ model: File; card: File | string }>(), modelLimit, requireCaller, async (c) => {
      // Who may install is decided before the upload is read.
      await runUseCase(c, Learning.requireAdmin);
      return c.json(ok(Learning.LEARNING_MESSAGES.shadowInstalled, await runUseCase(c, Learning.installShadowAsAdmin(await candidateOf(c)))), 200);
    })
    .post("/admin/model/promote", requireCaller, async (c) => c.json(ok(Learning.LEARNING_MESSAGES.promoted, await runUseCase(c, Learning.promoteAsAdmin)), 200))
    .post("/admin/model/rollback", requireCaller, async (c) => c.json(ok(Learning.LEARNING_MESSAGES.rolledBack, await runUseCase(c, Learning.rollbackAsAdmin)), 200))
    .post("/user/research-consent/asked", takesJson(Learning.ConsentAskedRequest), requireCaller, async (c) =>
      c.json(ok(Learning.LEARNING_MESSAGES.asked, await runUseCase(c, Learning.consentAsked(await jsonBody(c)))), 200),
    );
