import { Context, type Effect, type Option } from "effect";
import type { Measurement } from "../report/model.ts";
import type { ReportStatus } from "../report/lifecycle.ts";

/** Learning from the reviewers (issue 41): consent per child, the reviewed sets, their ports. */

/** A parent's choice for one child: none until chosen (off), granted, declined, or withdrawn after a grant. */
export const CONSENT_CHOICES = ["granted", "declined", "withdrawn"] as const;
export type ConsentChoice = (typeof CONSENT_CHOICES)[number];

export interface ResearchConsent {
  readonly babyId: string;
  readonly choice: ConsentChoice | null;
  readonly chosenBy: string | null;
  readonly chosenAt: Date | null;
  /** The consent text's version the parent read when choosing. */
  readonly textVersion: string | null;
  /** When the parent was asked (after the first report), whatever the answer; never asked again. */
  readonly askedAt: Date | null;
}

/** Only a grant lets a child's photos into a set. */
export const consented = (c: Pick<ResearchConsent, "choice"> | null | undefined) => c?.choice === "granted";

export interface ResearchConsentsPort {
  readonly find: (babyId: string) => Effect.Effect<Option.Option<ResearchConsent>>;
  readonly listByBabies: (babyIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<ResearchConsent>>;
  readonly save: (consent: ResearchConsent) => Effect.Effect<void>;
}
export class ResearchConsents extends Context.Tag("crown/ResearchConsents")<ResearchConsents, ResearchConsentsPort>() {}

/** A photo a reviewer decided or corrected, with what the set needs to label it, and its child's consent. */
export interface ReviewedPhoto {
  readonly attachmentId: string;
  readonly babyId: string;
  readonly blobKey: string;
  readonly reviewedAt: Date;
  readonly measurement: Measurement;
  readonly consent: ResearchConsent | null;
}

export interface ReviewedSetRecord {
  readonly id: string;
  readonly directory: string;
  readonly createdAt: Date;
  readonly manifest: Record<string, unknown>;
  readonly usedByModel: string | null;
  readonly examples: ReadonlyArray<{ readonly attachmentId: string; readonly babyId: string; readonly image: string }>;
}

export interface ReviewedSetsPort {
  /** Every reviewed photo of the reports in `statuses` (the current round), with its child's consent. */
  readonly reviewedPhotos: (statuses: ReadonlyArray<ReportStatus>) => Effect.Effect<ReadonlyArray<ReviewedPhoto>>;
  readonly record: (set: ReviewedSetRecord) => Effect.Effect<void>;
  /** Takes a child's examples out of every set no shipped model has used; answers what was removed, by set. */
  readonly removeChild: (babyId: string) => Effect.Effect<ReadonlyArray<{ readonly directory: string; readonly images: ReadonlyArray<string> }>>;
  readonly list: () => Effect.Effect<ReadonlyArray<Omit<ReviewedSetRecord, "examples"> & { readonly examples: number }>>;
  /** The sets (by id) a promoted model was trained or validated on: a withdrawal leaves them as they are. */
  readonly markUsed: (setIds: ReadonlyArray<string>, model: string) => Effect.Effect<void>;
}
export class ReviewedSets extends Context.Tag("crown/ReviewedSets")<ReviewedSets, ReviewedSetsPort>() {}

/** Where exported sets live (the machine's file system): a withdrawal removes the child's files from them. */
export interface SetFilesPort {
  readonly removeExamples: (directory: string, images: ReadonlyArray<string>) => Effect.Effect<void>;
}
export class SetFiles extends Context.Tag("crown/SetFiles")<SetFiles, SetFilesPort>() {}
