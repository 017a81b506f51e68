import { Hono } from "hono";
import {
  AcceptDisclaimerRequest,
  BabyRequest,
  BabyUpdateRequest,
  CalendarDays,
  IdentifierRequest,
  MarketingRequest,
  Onboarding,
  SignBaaRequest,
  UpdateQuizRequest,
} from "@crown/core";
import { ok, runUseCase } from "../effect-bridge.ts";
import type { Env } from "../env.ts";
import { paged, takesJson } from "../wire-input.ts";
import { requireCaller, requireCallerDuringSetup } from "../middleware.ts";
import { documented, PAGED } from "../openapi.ts";
import { jsonBody, pageParam } from "../request.ts";

const tag = "Onboarding";
const today = CalendarDays.latestToday(new Date());
documented({ method: "post", path: "/user/register-baby", summary: "Register the first baby (moves AdditionalInformationRequired to Active or WaitingApproval; answers parent_status). physician_identifier 'no-physician' for 'No Physician'", tag, auth: true, body: BabyRequest(today) });
documented({ method: "post", path: "/user/add-baby", summary: "Add another child", tag, auth: true, body: BabyRequest(today) });
documented({ method: "post", path: "/user/update-baby", summary: "Edit one of the caller's babies", tag, auth: true, body: BabyUpdateRequest(today) });
documented({ method: "post", path: "/user/update-child", summary: "Edit one of the caller's children (relation may be omitted)", tag, auth: true, body: BabyUpdateRequest(today) });
documented({ method: "get", path: "/user/babies", summary: "The caller's babies", tag, auth: true });
documented({ method: "post", path: "/user/add-childinfo-marketing", summary: "Ask for the kit offer ('I dont have a kit')", tag, auth: true, body: MarketingRequest });
documented({ method: "get", path: "/physicians", summary: "Provider search (?name=, more than 2 characters); the last item is the 'No Physician' choice (identifier no-physician). No token needed", tag, auth: false });
documented({ method: "get", path: "/physician/list", summary: "The physicians a staff member works for (a physician: themself)", tag, auth: true });
documented({ method: "get", path: "/user/onboarding", summary: "The caller's onboarding step and flags (first_time_login, is_quiz_time, disclaimer_accepted, baa_signed) and BAA signature", tag, auth: true });
documented({ method: "post", path: "/user/accept-disclaimer", summary: "Accept the disclaimer (accepted: true)", tag, auth: true, body: AcceptDisclaimerRequest });
documented({ method: "post", path: "/user/sign-baa", summary: "Sign the Business Associate Agreement (physicians); the agreement text version is stored with the signature", tag, auth: true, body: SignBaaRequest });
documented({ method: "post", path: "/user/update-quiz", summary: "Grade and record a quiz: mode (cap, nocap) and answers, one { image, answer: GOOD|BAD } for each of the 10 distinct pool photos shown; the server scores them against the pool, 8 of 10 passes, and only a cap pass clears is_quiz_time", tag, auth: true, body: UpdateQuizRequest });
documented({ method: "get", path: "/admin/users/pending", summary: "Accounts waiting for approval (admins), ?page=", query: PAGED, tag: "Admin", auth: true });
documented({ method: "post", path: "/admin/users/approve", summary: "Approve a WaitingApproval account (admins); the user is notified and e-mailed", tag: "Admin", auth: true, body: IdentifierRequest });
documented({ method: "post", path: "/admin/users/reject", summary: "Reject a WaitingApproval account (admins); the user is e-mailed", tag: "Admin", auth: true, body: IdentifierRequest });

/** Babies, the provider search, the first-login steps, the quiz result and approvals. */
export const onboardingRoutes = () =>
  new Hono<Env>()
    .post("/user/register-baby", takesJson(BabyRequest), requireCaller, async (c) => {
      const { message, results } = await runUseCase(c, Onboarding.registerBaby(await jsonBody(c)));
      return c.json(ok(message, results), 201);
    })
    .post("/user/add-baby", takesJson(BabyRequest), requireCaller, async (c) => {
      const { message, results } = await runUseCase(c, Onboarding.addBaby(await jsonBody(c)));
      return c.json(ok(message, results), 201);
    })
    .post("/user/update-baby", takesJson(BabyUpdateRequest), requireCaller, async (c) => {
      const baby = await runUseCase(c, Onboarding.updateBaby(await jsonBody(c)));
      return c.json(ok(Onboarding.MESSAGES.childUpdated, baby), 200);
    })
    .post("/user/update-child", takesJson(BabyUpdateRequest), requireCaller, async (c) => {
      const baby = await runUseCase(c, Onboarding.updateBaby(await jsonBody(c)));
      return c.json(ok(Onboarding.MESSAGES.childUpdated, baby), 200);
    })
    .get("/user/babies", requireCaller, async (c) => {
      const babies = await runUseCase(c, Onboarding.myBabies);
      return c.json(ok(Onboarding.MESSAGES.babies, babies), 200);
    })
    .post("/user/add-childinfo-marketing", takesJson(MarketingRequest), requireCaller, async (c) => {
      const lead = await runUseCase(c, Onboarding.addMarketingInfo(await jsonBody(c)));
      return c.json(ok(Onboarding.MESSAGES.marketing, lead), 201);
    })
    .get("/physicians", async (c) => {
      const physicians = await runUseCase(c, Onboarding.searchPhysicians(c.req.query()));
      return c.json(ok(Onboarding.MESSAGES.physicians, physicians), 200);
    })
    .get("/physician/list", requireCaller, async (c) => {
      const physicians = await runUseCase(c, Onboarding.myPhysicians);
      return c.json(ok(Onboarding.MESSAGES.physicians, physicians), 200);
    })
    .get("/user/onboarding", requireCallerDuringSetup, async (c) => {
      const status = await runUseCase(c, Onboarding.onboardingStatus);
      return c.json(ok(Onboarding.MESSAGES.onboarding, status), 200);
    })
    .post("/user/accept-disclaimer", takesJson(AcceptDisclaimerRequest), requireCaller, async (c) => {
      const flags = await runUseCase(c, Onboarding.acceptDisclaimer(await jsonBody(c)));
      return c.json(ok(Onboarding.MESSAGES.disclaimerAccepted, flags), 200);
    })
    .post("/user/sign-baa", takesJson(SignBaaRequest), requireCallerDuringSetup, async (c) => {
      const results = await runUseCase(c, Onboarding.signBaa(await jsonBody(c)));
      return c.json(ok(Onboarding.MESSAGES.baaSigned, results), 200);
    })
    .post("/user/update-quiz", takesJson(UpdateQuizRequest), requireCaller, async (c) => {
      const { message, results } = await runUseCase(c, Onboarding.updateQuiz(await jsonBody(c)));
      return c.json(ok(message, results), 200);
    })
    .get("/admin/users/pending", paged, requireCaller, async (c) => {
      const page = await runUseCase(c, Onboarding.listPendingApprovals(pageParam(c)));
      return c.json(ok(Onboarding.MESSAGES.pending, page), 200);
    })
    .post("/admin/users/approve", takesJson(IdentifierRequest), requireCaller, async (c) => {
      const user = await runUseCase(c, Onboarding.approveAccount(await jsonBody(c)));
      return c.json(ok(Onboarding.MESSAGES.approved, user), 200);
    })
    .post("/admin/users/reject", takesJson(IdentifierRequest), requireCaller, async (c) => {
      const user = await runUseCase(c, Onboarding.rejectAccount(await jsonBody(c)));
      return c.json(ok(Onboarding.MESSAGES.rejected, user), 200);
    });
