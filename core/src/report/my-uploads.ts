import { Effect } from "effect";
import { validate } from "../shared/validation.ts";
import { readableBaby } from "./access.ts";
import { Reports } from "./model.ts";
import { uploadItem } from "./present.ts";
import { attachmentsOf } from "./queries.ts";
import { auditReportReads, READ_AUDIT } from "./read-audit.ts";
import { UploadsRequest } from "./requests.ts";
import { pageOf } from "../shared/page.ts";

/** `POST /report/my-uploads?page=`: every upload of a baby with its attachments (parent, or the baby's practice). */
export const myUploads = (page: number, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(UploadsRequest, input);
    const { caller, baby } = yield* readableBaby(request.baby_identifier);
    const perPage = request.per_page ?? 10;
    const result = yield* (yield* Reports).uploadsForBaby(baby.id, { page, perPage });
    const attachments = yield* attachmentsOf(result.data);
    yield* auditReportReads(READ_AUDIT.listed, caller, result.data, { list: "my-uploads" });
    return pageOf(result.data.map((r) => uploadItem(r, attachments.get(r.id) ?? [], null)), result.total, page, perPage);
  });
