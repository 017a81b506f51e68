import type { BandKey } from "../measurement/bands.ts";
import type { Language } from "../shared/i18n.ts";
import { CATALOGUES } from "./index.ts";

/** A severity band's label in a language (core's catalogue group `bands`); English is the band's own label. */
export const bandLabel = (band: { readonly key: BandKey }, language: Language): string => CATALOGUES[language].bands[band.key];
