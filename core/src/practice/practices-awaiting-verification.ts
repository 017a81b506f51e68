import { Effect, Option, Schema } from "effect";
import { Users } from "../accounts/model.ts";
import { BaaSignatures } from "../onboarding/model.ts";
import { OptionalPage, OptionalPerPage, pageOf } from "../shared/page.ts";
import { validate } from "../shared/validation.ts";
import { physicianName, requireActive } from "../accounts/access.ts";
import { practiceVerification } from "../accounts/practice-verification.ts";

/** The admin console's queue: 10 a page by default; the page and per_page rules are every list's (shared/page.ts). */
export const AWAITING_PER_PAGE = { default: 10 } as const;

export const AwaitingPracticesQuery = Schema.Struct({
  page: OptionalPage,
  per_page: OptionalPerPage,
});

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
    // An empty or absent value is the default, as on every list (`?page=` is page 1).
    const page = query.page ?? 1;
    const perPage = query.per_page ?? AWAITING_PER_PAGE.default;
    const { data, total } = yield* (yield* Users).listAwaitingPracticeVerification((page - 1) * perPage, perPage);
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
    return pageOf(rows, total, page, perPage);
  });
