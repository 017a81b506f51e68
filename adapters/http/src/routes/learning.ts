import { Hono } from "hono";
import { Learning } from "@crown/core";
import { ok, runUseCase } from "../effect-bridge.ts";
import type { Env } from "../env.ts";
import { requireCaller } from "../middleware.ts";
import { documented } from "../openapi.ts";
import { jsonBody } from "../request.ts";
import { takesJson } from "../wire-input.ts";

const tag = "Learning";
documented({ method: "get", path: "/user/research-consent", summary: "The parent's children with their choice to let their reviewed photos improve Crown (off until chosen), whether to ask now, and the consent text in the request's language", tag, auth: true });
documented({ method: "post", path: "/user/research-consent", summary: "Grant, decline or withdraw for one child; a withdrawal removes the child's photos from every reviewed set not yet used for a shipped model", tag, auth: true, body: Learning.ConsentRequest });
documented({ method: "post", path: "/user/research-consent/asked", summary: "The parent closed the question without choosing: stays off, not asked again", tag, auth: true, body: Learning.ConsentAskedRequest });

documented({ method: "get", path: "/admin/model", summary: "The shipped model against the reviewers on the reviewed set: last 30 days and in total, and the photos where they disagree most (admins and reviewers)", tag: "Admin", auth: true });

/** Consent per child (parents) and, for admins, the model's agreement with the reviewers. */
export const learningRoutes = () =>
  new Hono<Env>()
    .get("/user/research-consent", requireCaller, async (c) => c.json(ok(Learning.LEARNING_MESSAGES.consents, await runUseCase(c, Learning.myConsents)), 200))
    .post("/user/research-consent", takesJson(Learning.ConsentRequest), requireCaller, async (c) => {
      const { message, results } = await runUseCase(c, Learning.chooseConsent(await jsonBody(c)));
      return c.json(ok(message, results), 200);
    })
    .get("/admin/model", requireCaller, async (c) => c.json(ok(Learning.LEARNING_MESSAGES.model, await runUseCase(c, Learning.modelPage)), 200))
    .post("/user/research-consent/asked", takesJson(Learning.ConsentAskedRequest), requireCaller, async (c) =>
      c.json(ok(Learning.LEARNING_MESSAGES.asked, await runUseCase(c, Learning.consentAsked(await jsonBody(c)))), 200),
    );
