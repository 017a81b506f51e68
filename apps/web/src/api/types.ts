import type { OnboardingStep, UserStatus, UserType } from "@crown/core";
import type { PracticeVerification } from "@crown/core/practice/statuses";
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

export interface SignInResult {
  readonly token: string;
  /** Core's onboarding step: where the portal sends the user. */
  readonly step: OnboardingStep;
  readonly first_time_login?: boolean;
  readonly isFirstLogin?: boolean;
  readonly is_quiz_time?: boolean;
  readonly isQuizTime?: boolean;
  readonly type?: UserType;
  readonly userType?: UserType;
  readonly status?: UserStatus;
  readonly userStatus?: UserStatus;
  readonly email?: string;
  readonly userEmail?: string;
  readonly identifier: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly babies?: ReadonlyArray<Baby>;
  readonly disclaimer_accepted?: boolean;
  readonly baa_signed?: boolean;
  /** Staff only: the physicians they act for. */
  readonly physicians?: ReadonlyArray<PhysicianRef>;
  /** Physicians only: whether Crown has verified the practice yet (ADR 25, ADR 60). */
  readonly practice_verification?: PracticeVerification;
  /** The session's absolute end (sign-in only). */
  readonly expires_at?: string;
}

export type SignUpResult = ResultsOf<Api["user"]["sign-up"]["$post"]>;

export interface Profile {
  readonly identifier: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly phone: string;
  readonly type: UserType;
  readonly status: UserStatus;
  readonly photo: string | null;
  readonly fax_number?: string | null;
  readonly npi?: string | null;
  readonly practice_verification?: PracticeVerification;
  readonly babies?: ReadonlyArray<Baby>;
}

/** A list page, as core's `pageOf` writes it. */
export type Page<T> = WirePage<T>;

export type Notification = ResultsOf<Api["user"]["notifications"]["$get"]>["data"][number];
export type Reminder = ResultsOf<Api["user"]["reminders"]["$get"]>[number];
export type RecentReport = ResultsOf<Api["report"]["list"]["$post"]>["data"][number];
