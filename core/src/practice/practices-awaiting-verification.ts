import { Effect, Option, Schema } from "effect";
import { Users } from "../accounts/model.ts";
import { BaaSignatures } from "../onboarding/model.ts";
import { pageOf } from "../shared/page.ts";
import { validate } from "../shared/validation.ts";
import { physicianName, requireActive } from "../accounts/access.ts";
import { practiceVerification } from "../accounts/practice-verification.ts";

/** The admin console's queue is short work: 10 a page by default, at most 50. */
export const AWAITING_PER_PAGE = { default: 10, max: 50 } as const;

export const AwaitingPracticesQuery = Schema.Struct({
  page: Schema.optionalWith(Schema.NumberFromString.pipe(Schema.int(), Schema.positive()), { default: () => 1 }),
  per_page: Schema.optionalWith(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, AWAITING_PER_PAGE.max)), { default: () => AWAITING_PER_PAGE.default }),
}).annotations({ message: () => `page must be a positive whole number and per_page between 1 and ${AWAITING_PER_PAGE.max}` });

/**
 * `GET /admin/practices/awaiting-verification?page=&per_page=`: the self-signed-up physicians (Active,
 * e-mail verified) whose practice is being verified, longest waiting first, with what an admin checks
 * before verifying: the name, the NPI number, the contact details, the practice named in the signed BAA
 * (null while unsigned) and the sign-up date. Admins only. Reading it exposes no child's data.
 */
export const listPracticesAwaitingVerification = (input: unknown) =>
  Effect.gen(function* () {
    yield* requireActive("admin");
    const query = yield* validate(AwaitingPracticesQuery, input);
    const { data, total } = yield* (yield* Users).listAwaitingPracticeVerification((query.page - 1) * query.per_page, query.per_page);
    const signatures = yield* BaaSignatures;
    const rows = [];
    for (const physician of data) {
      const baa = yield* signatures.latestFor(physician.id);
      rows.push({
        identifier: physician.id,
        name: physicianName(physician),
        first_name: physician.firstName,
        last_name: physician.lastName,
        email: physician.email,
        phone: physician.phone,
        fax_number: physician.faxNumber,
        npi: physician.npi,
        practice_name: Option.match(baa, { onNone: () => null, onSome: (s) => s.coveredEntity }),
        baa_signed_at: physician.baaSignedAt?.toISOString() ?? null,
        signed_up_at: physician.createdAt.toISOString(),
        practice_verification: practiceVerification(physician),
      });
    }
    return pageOf(rows, total, query.page, query.per_page);
  });
