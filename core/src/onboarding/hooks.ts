import { Context, Effect, Layer, Option } from "effect";
import { AccountHooks, AccountsConfig, type User, Users } from "../accounts/model.ts";
import { changeStatus } from "../accounts/service.ts";
import { Notifications } from "../notifications/model.ts";
import { notify } from "../notifications/service.ts";
import { displayName } from "../accounts/access.ts";
import { Delegations } from "../accounts/delegations.ts";
import { AuditLog, Mailer, type OutgoingMail, Random, Transactor } from "../shared/ports.ts";
import { Sessions } from "../accounts/model.ts";
import { invitationAcceptedMail } from "./emails.ts";
import { Babies, babyName } from "./model.ts";
import { awaitsFirstBaby } from "../accounts/lifecycle.ts";

/**
 * What onboarding does when an invited person accepts (inside the acceptance's transaction):
 * a caregiver whose baby a practice registered is Active at once (the baby is the "first baby"),
 * and whoever invited them is notified in the bell; the e-mails it answers go out after the commit.
 */
export const invitationAccepted = (user: User) =>
  Effect.gen(function* () {
    const mails: OutgoingMail[] = [];
    const users = yield* Users;
    const config = yield* AccountsConfig;
    const name = displayName(user) || user.email;
    if (user.type === "parent") {
      const babies = yield* (yield* Babies).listByParent(user.id);
      if (awaitsFirstBaby(user) && babies.some((b) => b.physicianId !== null)) {
        yield* changeStatus(user.id, { type: "FIRST_BABY_REGISTERED", needsApproval: false }, user.id);
      }
      for (const baby of babies) {
        if (baby.physicianId === null) continue;
        const physician = yield* users.findById(baby.physicianId);
        if (Option.isNone(physician)) continue;
        const params = { name, baby: babyName(baby) };
        yield* notify(physician.value.id, "invitation_accepted", "invitationAcceptedBaby", params, baby.id);
        mails.push(invitationAcceptedMail(physician.value, "invitationAcceptedBaby", params, `${config.publicUrl}/`));
      }
    }
    if (user.type === "physician_staff") {
      for (const delegation of yield* (yield* Delegations).listActiveForStaff(user.id)) {
        const physician = yield* users.findById(delegation.physicianId);
        if (Option.isNone(physician)) continue;
        const params = { name, email: user.email };
        yield* notify(physician.value.id, "invitation_accepted", "invitationAcceptedStaff", params, user.id);
        mails.push(invitationAcceptedMail(physician.value, "invitationAcceptedStaff", params, `${config.publicUrl}/`));
      }
    }
    return mails;
  });

type HookNeeds = Users | Babies | Delegations | Notifications | Random | Mailer | AccountsConfig | Sessions | Transactor | AuditLog;

/** The AccountHooks of onboarding, closing over the services it needs when the layer is built. */
export const onboardingHooksLayer: Layer.Layer<AccountHooks, never, HookNeeds> = Layer.effect(
  AccountHooks,
  Effect.map(Effect.context<HookNeeds>(), (captured) => ({
    invitationAccepted: (user: User) =>
      // The caller's context wins (request address, the open transaction's fiber), the captured one fills in.
      Effect.mapInputContext(Effect.orDie(invitationAccepted(user)), (outer: Context.Context<never>) => Context.merge(captured, outer)),
  })),
);
