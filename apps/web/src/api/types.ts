import type { OnboardingStep, UserStatus, UserType } from "@crown/core";

/** Wire shapes of the accounts and onboarding calls (api-contract.md). */

export interface PhysicianRef {
  readonly identifier: string;
  readonly name: string;
}

export interface Baby {
  readonly identifier: string;
  readonly name: string;
  readonly first_name?: string;
  readonly middle_name?: string | null;
  readonly last_name?: string;
  readonly date_of_birth?: string;
  readonly relation?: string;
  readonly referral_code?: string | null;
  readonly gender?: string | null;
  readonly ethnicity?: string | null;
  readonly nicu_time?: number | string | null;
  readonly previous_condition?: string | null;
  readonly physician?: PhysicianRef | null;
}

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
  /** The session's absolute end (sign-in only). */
  readonly expires_at?: string;
}

export interface SignUpResult {
  readonly identifier: string;
  readonly email: string;
  readonly type: UserType;
  readonly status: UserStatus;
}

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
  readonly babies?: ReadonlyArray<Baby>;
}

export interface Notification {
  readonly identifier?: string;
  readonly text: string;
  readonly read: boolean;
  readonly created_at?: string;
}

export interface Reminder {
  readonly identifier?: string;
  readonly text?: string;
  readonly message?: string;
  readonly title?: string;
  readonly due_date?: string;
  readonly baby_name?: string;
}

export interface RecentReport {
  readonly identifier?: string;
  readonly baby_name: string;
  readonly upload_date?: string;
  readonly uploaded_date?: string;
  readonly parent_name?: string;
  readonly attachments?: number | ReadonlyArray<unknown>;
  readonly read?: boolean;
}

export interface Page<T> {
  readonly data: ReadonlyArray<T>;
  readonly current_page: number;
  readonly last_page: number;
  readonly per_page: number;
  readonly total: number;
}
