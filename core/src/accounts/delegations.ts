import { Context, Effect, Option } from "effect";
import type { User } from "./model.ts";
import type { PageOf, PageRequest } from "../shared/page.ts";
import type { StaffType } from "./staff-types.ts";

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
  /**
   * When the staff member accepted: null while an existing account has not answered the practice's
   * offer (ADR 56). Only an accepted, live delegation lets anyone act; an invitee's is accepted when made.
   */
  readonly acceptedAt: Date | null;
  readonly endedAt: Date | null;
  readonly endedBy: string | null;
}

export interface StaffMember {
  readonly delegation: Delegation;
  readonly user: User;
}

export interface DelegationsPort {
  readonly insert: (delegation: Delegation) => Effect.Effect<void>;
  /** The accepted, live delegation of `staffId` for `physicianId`, if any. */
  readonly findActive: (physicianId: string, staffId: string) => Effect.Effect<Option.Option<Delegation>>;
  /** The live delegation, accepted or still offered, of `staffId` for `physicianId`. */
  readonly findLive: (physicianId: string, staffId: string) => Effect.Effect<Option.Option<Delegation>>;
  readonly findById: (id: string) => Effect.Effect<Option.Option<Delegation>>;
  /** The accepted, live delegations of a staff member, oldest first. */
  readonly listActiveForStaff: (staffId: string) => Effect.Effect<ReadonlyArray<Delegation>>;
  /** The offers a staff member has not answered yet, oldest first. */
  readonly listOffered: (staffId: string) => Effect.Effect<ReadonlyArray<Delegation>>;
  /** Accepts a live offer; answers false when it was no longer one (answered or withdrawn meanwhile). */
  readonly accept: (id: string, at: Date) => Effect.Effect<boolean>;
  /** A physician's live staff (of the given types), offers included, oldest first. */
  readonly listStaff: (physicianId: string, types: ReadonlyArray<StaffType>, page: PageRequest) => Effect.Effect<PageOf<StaffMember>>;
  readonly end: (id: string, at: Date, endedBy: string) => Effect.Effect<void>;
}
export class Delegations extends Context.Tag("crown/Delegations")<Delegations, DelegationsPort>() {}
