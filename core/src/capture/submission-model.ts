/** What a submission takes, reports and reads of a failed call (the machine is in submission.ts). */
export type SubmissionStep = "prepare" | "upload" | "finalize";

/** A file to send. `content` is whatever the app holds (a File, a Blob); core never reads it. */
export interface SubmissionFile {
  readonly id: string;
  readonly name: string;
  /** The unit of progress: bytes on the portal, 1 a shot on the kiosk. */
  readonly size: number;
  readonly content: unknown;
}

export type FileState = "queued" | "sending" | "sent" | "failed" | "cancelled";

export interface FileProgress {
  readonly id: string;
  readonly state: FileState;
  /** Of `size`, never going back (a retry does not move the bar back). */
  readonly loaded: number;
  readonly error: string | null;
}

/** What a failed call means, as the app's port reads it (an ApiError on the apps). */
export interface SubmissionFailure {
  readonly message: string;
  /** Trying again may help: nothing answered (`offline`) or the server asked to come back later. */
  readonly transient: boolean;
  readonly offline: boolean;
  /** The server's own wait (Retry-After), in milliseconds. */
  readonly retryAfterMs?: number;
}

/**
 * Whether an HTTP answer is worth trying again without asking anyone: nothing answered (0), or a
 * busy or rate-limited server that said when (429, 503 with Retry-After). A 4xx is the server's
 * answer about this request and stays so; a 5xx without Retry-After is shown (ADR 0161).
 */
export const transientStatus = (httpStatus: number, retryAfterSeconds?: number): boolean =>
  httpStatus === 0 || ((httpStatus === 429 || httpStatus === 503) && retryAfterSeconds !== undefined && retryAfterSeconds > 0);

/** A failed call's answer (the apps' ApiError) as the machine reads it. */
export const failureOfAnswer = (answer: { readonly httpStatus: number; readonly message: string; readonly retryAfterSeconds?: number | undefined }): SubmissionFailure => ({
  message: answer.message,
  transient: transientStatus(answer.httpStatus, answer.retryAfterSeconds),
  offline: answer.httpStatus === 0,
  ...(answer.retryAfterSeconds ? { retryAfterMs: answer.retryAfterSeconds * 1000 } : {}),
});

/** The progress a parent shows: the step, files sent of the files to send, and the report. */
export interface UploadProgress {
  readonly step: SubmissionStep;
  readonly sent: number;
  readonly total: number;
  readonly reportIdentifier: string | null;
}

/** What the submission tells the machine that invoked it (the kiosk's events of the same names). */
export type SubmissionReport =
  | { type: "UPLOAD_PROGRESS"; progress: UploadProgress }
  | { type: "FILE_SENT"; id: string }
  | { type: "NETWORK_DOWN" }
  | { type: "UPLOAD_SUCCEEDED" }
  | { type: "UPLOAD_FAILED"; message: string };

export type SubmissionOutcome = "done" | "failed" | "cancelled";
export interface SubmissionOutput {
  readonly outcome: SubmissionOutcome;
  readonly reportIdentifier: string | null;
  readonly error: string | null;
}

export interface SubmissionInput {
  readonly files: ReadonlyArray<SubmissionFile>;
  /** A report prepared by an earlier run (the portal's Upload pressed again after a failure). */
  readonly reportIdentifier?: string | null;
  /** Tries of one call, the first included, while its failures are transient. */
  readonly maxAttempts?: number;
  /**
   * true (the portal): a failed file or finalize waits for the person (retry, remove, finish, close);
   * false (the kiosk): the submission fails, and its parent decides.
   */
  readonly byHand?: boolean;
}

export interface SubmissionContext {
  readonly files: ReadonlyArray<SubmissionFile>;
  readonly progress: ReadonlyArray<FileProgress>;
  readonly reportIdentifier: string | null;
  /** The file being sent. */
  readonly current: string | null;
  /** Tries of the call in progress. */
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly byHand: boolean;
  /** The last failure shown to the person (cleared when a call succeeds). */
  readonly error: SubmissionFailure | null;
  /** Calls of finalize started (a try again of the same call not counted twice). */
  readonly finalizeCalls: number;
  /** Set on reaching a final state. */
  readonly outcome: SubmissionOutcome | null;
}

export type SubmissionEvent =
  /** Bytes of the file being sent (the upload port's callback). */
  | { type: "FILE_PROGRESS"; id: string; loaded: number }
  /** Stop everything: nothing more is sent and nothing is finalized. */
  | { type: "CANCEL" }
  /** Stop (or leave out) one file; the others go on. */
  | { type: "CANCEL_FILE"; id: string }
  /** Send a failed or cancelled file again. */
  | { type: "RETRY_FILE"; id: string }
  /** Finalize with the files sent (after some were left out by hand). */
  | { type: "FINISH" }
  /** The network is back: a call waiting to be tried again goes now. */
  | { type: "RESUME" };

/** The calls, as the app makes them; `signal` aborts when the machine stops waiting for the answer. */
export interface SubmissionPorts {
  readonly prepare: (signal: AbortSignal) => Promise<string>;
  readonly upload: (reportIdentifier: string, file: SubmissionFile, onProgress: (loaded: number) => void, signal: AbortSignal) => Promise<void>;
  readonly finalize: (reportIdentifier: string, signal: AbortSignal) => Promise<void>;
  /** What a rejection of one of the calls means. */
  readonly failure: (error: unknown) => SubmissionFailure;
}

export const DEFAULT_MAX_ATTEMPTS = 4;
/** The wait before the n-th try again: 1 s, 2 s, 4 s … at most 15 s, or what the server asked. */
export const backoffMs = (attempt: number, failure: SubmissionFailure | null) =>
  failure?.retryAfterMs ?? Math.min(15_000, 1000 * 2 ** Math.max(0, attempt - 1));
