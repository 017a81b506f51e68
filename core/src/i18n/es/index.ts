import type { Catalogue } from "../en.ts";
import { ES_ACCOUNTS } from "./accounts.ts";
import { ES_CAPTURE } from "./capture.ts";
import { ES_FIELDS } from "./fields.ts";
import { ES_LEARNING } from "./learning.ts";
import { ES_REPORTS } from "./reports.ts";

/** Core's Spanish catalogue: every group and key of `EN` (the type and the parity test hold it to that). */
export const ES: Catalogue = { ...ES_FIELDS, ...ES_ACCOUNTS, ...ES_REPORTS, ...ES_CAPTURE, ...ES_LEARNING };
