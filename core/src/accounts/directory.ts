import { Effect, Schema } from "effect";
import { practiceVerification } from "./practice-verification.ts";
import { pageOf } from "../shared/page.ts";
import { requireActive } from "./access.ts";
import { NotFound, ValidationFailed } from "../shared/errors.ts";
import { OptionalText, Required, validate } from "../shared/validation.ts";
import { type User, Users } from "./model.ts";
import { changeStatus } from "./service.ts";
import { USER_STATUSES, USER_TYPES, isBlocked } from "./lifecycle.ts";

/** The admin console's user directory: every account, searchable, with block and unblock. */

export const DIRECTORY_MESSAGES = {
  users: "Users fetched successfully",
  blocked: "User blocked successfully",
  unblocked: "User unblocked successfully",
  notBlockable: "This account cannot be blocked.",
  notBlocked: "This account is not blocked.",
  self: "You cannot block your own account.",
} as const;

export const DirectoryQuery = Schema.Struct({
  search: OptionalText(100),
  type: Schema.optionalWith(Schema.Literal(...USER_TYPES).annotations({ message: () => `Type must be one of ${USER_TYPES.join(", ")}` }), { nullable: true }),
  status: Schema.optionalWith(Schema.Literal(...USER_STATUSES).annotations({ message: () => `Status must be one of ${USER_STATUSES.join(", ")}` }), { nullable: true }),
});

export const UserIdentifierRequest = Schema.Struct({ identifier: Required("Identifier") });

const present = (u: User) => ({
  identifier: u.id,
  first_name: u.firstName,
  last_name: u.lastName,
  email: u.email,
  phone: u.phone,
  type: u.type,
  status: u.status,
  created_at: u.createdAt.toISOString(),
  // Whether there is a second factor an admin could reset (issue 44).
  second_factor: u.secondFactorAt !== null,
  // What the admin checks before verifying a practice (ADR 25).
  ...(u.type === "physician" ? { npi: u.npi, practice_verification: practiceVerification(u) } : {}),
});

/** `GET /admin/users?page=&search=&type=&status=`: 10 a page, newest first. */
export const listUsers = (page: number, input: unknown, perPage = 10) =>
  Effect.gen(function* () {
    yield* requireActive("admin");
    const q = yield* validate(DirectoryQuery, input);
    const search = q.search && q.search.trim().length > 2 ? q.search.trim() : null;
    // One page from the database (ADR 0072): never every account into memory.
    const rows = yield* (yield* Users).directory({ search, type: q.type ?? null, status: q.status ?? null }, { page, perPage });
    return pageOf(rows.data.map(present), rows.total, page, perPage);
  });

const target = (input: unknown) =>
  Effect.gen(function* () {
    const caller = yield* requireActive("admin");
    const { identifier } = yield* validate(UserIdentifierRequest, input);
    const user = yield* (yield* Users).findById(identifier);
    if (user._tag === "None") return yield* NotFound.of("User");
    return { caller, user: user.value };
  });

/** `POST /admin/users/block`: the account's sessions end at once (changeStatus revokes them). */
export const blockUser = (input: unknown) =>
  Effect.gen(function* () {
    const { caller, user } = yield* target(input);
    if (user.id === caller.user.id) return yield* ValidationFailed.field("identifier", DIRECTORY_MESSAGES.self);
    if (isBlocked(user)) return present(user);
    const updated = yield* changeStatus(user.id, { type: "BLOCKED" }, caller.user.id).pipe(
      Effect.catchAll(() => ValidationFailed.field("identifier", DIRECTORY_MESSAGES.notBlockable)),
    );
    return present(updated);
  });

/** `POST /admin/users/unblock`. */
export const unblockUser = (input: unknown) =>
  Effect.gen(function* () {
    const { caller, user } = yield* target(input);
    if (!isBlocked(user)) return yield* ValidationFailed.field("identifier", DIRECTORY_MESSAGES.notBlocked);
    const updated = yield* changeStatus(user.id, { type: "UNBLOCKED" }, caller.user.id).pipe(
      Effect.catchAll(() => ValidationFailed.field("identifier", DIRECTORY_MESSAGES.notBlocked)),
    );
    return present(updated);
  });
