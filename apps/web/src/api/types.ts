import type { WirePage } from "@crown/core/shared/page";
import type { Api, ResultsOf } from "./wire.ts";

/*
 * Wire shapes of the accounts, onboarding and dashboard calls (api-contract.md), taken from the
 * server's routes (`AppType`) and core's presenters: type-only imports, so nothing of core's runtime
 * reaches the bundle.
 */

/** A physician as the search and the staff's physician list answer them. */
export type PhysicianRef = Pick<ResultsOf<Api["physicians"]["$get"]>[number], "identifier" | "name">;

/** A baby as the portal shows it (the sign-in and profile answers, add-baby). */
export type Baby = ResultsOf<Api["user"]["babies"]["$get"]>[number];

/** `POST /user/sign-in`'s results (core's `signInAnswer`, and the session's end). */
export type SignInResult = ResultsOf<Api["user"]["sign-in"]["$post"]>;

export type SignUpResult = ResultsOf<Api["user"]["sign-up"]["$post"]>;

/** `GET /user/profile`'s results (core's `profileAnswer`): the profile with the onboarding step and flags. */
export type Profile = ResultsOf<Api["user"]["profile"]["$get"]>;

/** A list page, as core's `pageOf` writes it. */
export type Page<T> = WirePage<T>;

export type Notification = ResultsOf<Api["user"]["notifications"]["$get"]>["data"][number];
export type Reminder = ResultsOf<Api["user"]["reminders"]["$get"]>[number];
export type RecentReport = ResultsOf<Api["report"]["list"]["$post"]>["data"][number];
