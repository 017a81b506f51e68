import { Context, Effect, Option } from "effect";
import type { ConsentStatus } from "./consent.ts";

/** A practice's request to link a patient to an existing parent's account, awaiting the parent's answer (ADR 56). */
export interface PatientLinkRequest {
  readonly id: string;
  readonly babyId: string;
  readonly physicianId: string;
  /** The parent whose account the baby would join. */
  readonly parentId: string;
  readonly requestedBy: string;
  readonly status: ConsentStatus;
  readonly createdAt: Date;
  readonly answeredAt: Date | null;
}

export interface PatientLinkRequestsPort {
  readonly insert: (request: PatientLinkRequest) => Effect.Effect<void>;
  readonly findById: (id: string) => Effect.Effect<Option.Option<PatientLinkRequest>>;
  /** A parent's requests in `status`, oldest first. */
  readonly listForParent: (parentId: string, status: ConsentStatus) => Effect.Effect<ReadonlyArray<PatientLinkRequest>>;
  /** Moves the request from `from` to `to`; answers false when it was no longer in `from`. */
  readonly answer: (id: string, from: ConsentStatus, to: ConsentStatus, at: Date) => Effect.Effect<boolean>;
}
export class PatientLinkRequests extends Context.Tag("crown/PatientLinkRequests")<PatientLinkRequests, PatientLinkRequestsPort>() {}
