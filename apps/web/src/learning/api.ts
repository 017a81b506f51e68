import { request } from "../api/client.ts";
import type { Api, ResultsOf } from "../api/wire.ts";

/** A parent's choice per child to let the reviewed photos improve Crown (issue 41); types from the server's routes. */
export type Consents = ResultsOf<Api["user"]["research-consent"]["$get"]>;
export type ConsentChild = Consents["children"][number];
export type ConsentChoice = "granted" | "declined" | "withdrawn";

export const researchConsents = () => request<Consents>("GET", "/user/research-consent");
export const chooseConsent = (baby: string, choice: ConsentChoice) =>
  request<ResultsOf<Api["user"]["research-consent"]["$post"]>>("POST", "/user/research-consent", { json: { baby_identifier: baby, choice } });
export const consentAsked = (baby: string) =>
  request<ResultsOf<Api["user"]["research-consent"]["asked"]["$post"]>>("POST", "/user/research-consent/asked", { json: { baby_identifier: baby } });

/** The consent text's `{name}` is the child's first name. */
export const forChild = (text: string, child: Pick<ConsentChild, "name">) => text.replaceAll("{name}", child.name.split(" ")[0] ?? child.name);
