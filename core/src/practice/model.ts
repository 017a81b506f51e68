import { Context, Effect, Option } from "effect";
import type { User } from "../accounts/model.ts";
import type { PageOf, PageRequest } from "../onboarding/model.ts";
import type { StaffType } from "../onboarding/schemas.ts";

/**
 * A delegation lets one staff member act for one physician. A staff member may hold several;
 * removal ends one (ended_at) and it is never reused: adding the same person again opens a new one.
 */
export interface Delegation {
  readonly id: string;
  readonly physicianId: string;
  readonly staffId: string;
  readonly staffType: StaffType;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly endedAt: Date | null;
  readonly endedBy: string | null;
}

export interface StaffMember {
  readonly delegation: Delegation;
  readonly user: User;
}

export interface DelegationsPort {
  readonly insert: (delegation: Delegation) => Effect.Effect<void>;
  /** The live delegation of `staffId` for `physicianId`, if any. */
  readonly findActive: (physicianId: string, staffId: string) => Effect.Effect<Option.Option<Delegation>>;
  /** The live delegations of a staff member, oldest first. */
  readonly listActiveForStaff: (staffId: string) => Effect.Effect<ReadonlyArray<Delegation>>;
  /** A physician's live staff (of the given types), oldest first. */
  readonly listStaff: (physicianId: string, types: ReadonlyArray<StaffType>, page: PageRequest) => Effect.Effect<PageOf<StaffMember>>;
  readonly end: (id: string, at: Date, endedBy: string) => Effect.Effect<void>;
}
export class Delegations extends Context.Tag("crown/Delegations")<Delegations, DelegationsPort>() {}
