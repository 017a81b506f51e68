import { Effect, Option } from "effect";
import { ValidationFailed } from "../shared/errors.ts";
import { audit, now, PasswordHasher, Random, requestLanguage, transaction } from "../shared/ports.ts";
import { clientAddress, throttle } from "../shared/throttle.ts";
import { validate } from "../shared/validation.ts";
import { NPI_MESSAGES, normaliseNpi } from "./npi.ts";
import { AccountsConfig, newUser, normaliseEmail, type User, Users } from "./model.ts";
import { MESSAGES } from "./messages.ts";
import { SignUpRequest } from "./schemas.ts";
import { send } from "./tokens.ts";
import { issueVerificationLink } from "./verify-email.ts";
import { refuseCommonPassword } from "./common-passwords.ts";

export const signUp = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(SignUpRequest, input);
    const config = yield* AccountsConfig;
    const npi = request.npi ? normaliseNpi(request.npi) : null;
    if (request.type === "physician" && npi === null) return yield* ValidationFailed.field("npi", NPI_MESSAGES.required);
    yield* refuseCommonPassword(request.password);
    yield* throttle(`sign-up:addr:${yield* clientAddress}`, config.limits.signUpPerAddress);
    yield* throttle(`sign-up:acct:${normaliseEmail(request.email)}`, config.limits.signUpPerAccount);
    const users = yield* Users;
    const random = yield* Random;
    const at = yield* now;
    const language = yield* requestLanguage;
    const passwordHash = yield* (yield* PasswordHasher).hash(request.password);
    const [user, mail] = yield* transaction(
      Effect.gen(function* () {
        if (Option.isSome(yield* users.findByEmail(normaliseEmail(request.email)))) {
          return yield* ValidationFailed.field("email", MESSAGES.emailTaken);
        }
        const created: User = {
          ...newUser({
            id: random.identifier(),
            email: request.email,
            passwordHash,
            type: request.type,
            firstName: request.first_name,
            lastName: request.last_name,
            phone: request.phone,
            at,
            language,
          }),
          // Only a physician's; their practice is being verified until an admin verifies it (ADR 25).
          npi: request.type === "physician" ? npi : null,
        };
        yield* users.insert(created);
        const link = yield* issueVerificationLink(created);
        yield* audit({ action: "account.sign_up", actorId: created.id, subjectId: created.id, details: { type: created.type } });
        return [created, link] as const;
      }),
    );
    yield* send(mail);
    return { identifier: user.id, email: user.email, type: user.type, status: user.status };
  });
