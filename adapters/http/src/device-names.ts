import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type DeviceDescription, DeviceNames, type DeviceNamesPort } from "@crown/core/accounts/devices";
import Bowser from "bowser";
import { Layer } from "effect";
import { type CountryResponse, Reader } from "maxmind";

/**
 * The profile's signed-in devices in words (issue 44, ADR 0149): the browser and system from the
 * User-Agent by bowser, and the country from the address by the public-domain (CC0)
 * geo-whois-asn-country database that ships in its npm package, read with maxmind's reader. No
 * address leaves the server; a private or unknown address has no country. Country level only: no
 * database that ships in a package places an address closer without a licence to keep it current.
 */

const require = createRequire(import.meta.url);
let reader: Reader<CountryResponse & { country_code?: string }> | null | undefined;
/** Loaded on first use (about 8 MB), never at start; null when the package's file cannot be read. */
const countries = () => {
  if (reader === undefined) {
    try {
      reader = new Reader<CountryResponse & { country_code?: string }>(readFileSync(require.resolve("@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb")));
    } catch {
      reader = null;
    }
  }
  return reader;
};

const KINDS: Readonly<Record<string, DeviceDescription["kind"]>> = { desktop: "desktop", mobile: "mobile", tablet: "tablet" };

export const deviceNames: DeviceNamesPort = {
  describe: (userAgent) => {
    if (!userAgent) return { browser: null, browserVersion: null, os: null, kind: "unknown" };
    const parsed = Bowser.parse(userAgent);
    return {
      browser: parsed.browser.name ?? null,
      // The major version is enough to tell two browsers apart, and says less about the device.
      browserVersion: parsed.browser.version?.split(".")[0] ?? null,
      os: parsed.os.name ?? null,
      kind: KINDS[parsed.platform.type ?? ""] ?? "unknown",
    };
  },
  country: (address) => {
    if (!address) return null;
    try {
      const found = countries()?.get(address.replace(/^::ffff:/, ""));
      return found?.country_code && /^[A-Z]{2}$/.test(found.country_code) ? found.country_code : null;
    } catch {
      return null;
    }
  },
};

export const deviceNamesLayer = Layer.succeed(DeviceNames, deviceNames);
