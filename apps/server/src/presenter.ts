import { Accounts } from "@crown/core";
import type { SessionPresenter } from "@crown/http";

/** Sign-in and profile answers: the account plus the flags the clients route on. */
export const sessionPresenter: SessionPresenter = {
  signIn: async (_c, user, token) => {
    const firstTimeLogin = Accounts.isFirstLogin(user);
    const quizTime = Accounts.isQuizTime(user);
    return {
      token,
      first_time_login: firstTimeLogin,
      is_quiz_time: quizTime,
      type: user.type,
      status: user.status,
      email: user.email,
      identifier: user.id,
      first_name: user.firstName,
      last_name: user.lastName,
      babies: [],
      // The specs' client also reads these names.
      isFirstLogin: firstTimeLogin,
      isQuizTime: quizTime,
      userType: user.type,
      userStatus: user.status,
      userEmail: user.email,
    };
  },
  profile: async (_c, _user, base) => ({ ...base, babies: [] }),
};
