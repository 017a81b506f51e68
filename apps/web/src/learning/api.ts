import { crown } from "../api/crown.ts";
import type { Api, ResultsOf } from "../api/wire.ts";

/** A parent's choice per child to let the reviewed photos improve Crown (issue 41), through the typed client. */
export type Consents = ResultsOf<Api["user"]["research-consent"]["$get"]>;
export type ConsentChild = Consents["children"][number];
export type ConsentChoice = "granted" | "declined" | "withdrawn";

export const researchConsents = () => crown.call((api) => api.user["research-consent"].$get());
export const chooseConsent = (baby: string, choice: ConsentChoice) => crown.call((api) => api.user["research-consent"].$post({ json: { baby_identifier: baby, choice } }));
export const consentAsked = (baby: string) => crown.call((api) => api.user["research-consent"].asked.$post({ json: { baby_identifier: baby } }));

/** The consent text's `{name}` is the child's first name. */
export const forChild = (text: string, child: Pick<ConsentChild, "name">) => text.replaceAll("{name}", child.name.split(" ")[0] ?? child.name);
