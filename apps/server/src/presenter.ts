import { Onboarding } from "@crown/core";
import { runUseCase, type SessionPresenter } from "@crown/http";

/**
 * Sign-in and profile answers: the account plus the flags the clients route on, the parent's
 * babies and the staff member's physicians.
 */
export const sessionPresenter: SessionPresenter = {
  signIn: async (c, user, token) => {
    const { flags, babies, physicians, practice } = await runUseCase(c, Onboarding.sessionExtras(user));
    return {
      token,
      // Core's onboarding step: the portal routes by it rather than re-deriving it from the flags.
      step: flags.step,
      first_time_login: flags.first_time_login,
      is_quiz_time: flags.is_quiz_time,
      disclaimer_accepted: flags.disclaimer_accepted,
      baa_signed: flags.baa_signed,
      type: user.type,
      status: user.status,
      email: user.email,
      identifier: user.id,
      first_name: user.firstName,
      last_name: user.lastName,
      babies,
      ...(user.type === "physician_staff" ? { physicians } : {}),
      ...practice,
      // The specs' client also reads these names.
      isFirstLogin: flags.first_time_login,
      isQuizTime: flags.is_quiz_time,
      userType: user.type,
      userStatus: user.status,
      userEmail: user.email,
    };
  },
  profile: async (c, user, base) => {
    const { flags, babies, physicians, practice } = await runUseCase(c, Onboarding.sessionExtras(user));
    return {
      ...base,
      step: flags.step,
      first_time_login: flags.first_time_login,
      is_quiz_time: flags.is_quiz_time,
      disclaimer_accepted: flags.disclaimer_accepted,
      baa_signed: flags.baa_signed,
      babies,
      ...(user.type === "physician_staff" ? { physicians } : {}),
      ...practice,
    };
  },
};
