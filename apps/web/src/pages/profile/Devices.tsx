import { useCallback, useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { endOtherSessions, endSession, type SignedInSession, signedInSessions } from "../../api/familyData.ts";
import { messageOf } from "../../api/crown.ts";
import { currentLanguage } from "../../i18n/language.ts";
import { moment } from "../../i18n/dates.ts";
import { FormMessage } from "../../ui/fields.tsx";

/** The country's name in the portal's language (the server answers an ISO code from its shipped database). */
const countryName = (code: string | null) => {
  if (!code) return null;
  try {
    return new Intl.DisplayNames([currentLanguage()], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
};

/**
 * Profile, Signed-in devices (issue 44): every session of the account in words, this one marked;
 * any other one, or all others at once, can be signed out. Their next call is refused and their
 * live streams close.
 */
export function Devices() {
  const { t } = useTranslation("profile");
  const [rows, setRows] = useState<ReadonlyArray<SignedInSession> | null>(null);
  const [notice, setNotice] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setRows((await signedInSessions()).results);
    } catch (err) {
      setNotice({ tone: "error", text: messageOf(err) });
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (key: string, call: () => Promise<{ message: string }>) => {
    setBusy(key);
    setNotice(null);
    try {
      const { message } = await call();
      setNotice({ tone: "success", text: message });
      await load();
    } catch (err) {
      setNotice({ tone: "error", text: messageOf(err) });
    } finally {
      setBusy(null);
    }
  };

  const describe = (s: SignedInSession) => {
    const browser = s.browser ? (s.browser_version ? `${s.browser} ${s.browser_version}` : s.browser) : t("devices.unknownBrowser");
    return s.os ? t("devices.browserOn", { browser, os: s.os }) : browser;
  };
  const others = rows?.filter((s) => !s.current).length ?? 0;

  return (
    <section aria-labelledby="devices-title">
      <h2 id="devices-title">{t("devices.title")}</h2>
      <p className="muted">{t("devices.intro")}</p>
      {notice ? <FormMessage tone={notice.tone}>{notice.text}</FormMessage> : null}
      {rows === null ? null : (
        <ul className="device-list" aria-label={t("devices.title")}>
          {rows.map((s) => (
            <li key={s.identifier} className="device-row" data-current={s.current ? "true" : undefined}>
              <div>
                <strong>{describe(s)}</strong> {s.current ? <span className="tag">{t("devices.thisDevice")}</span> : null}
                <div className="muted">
                  {t(`devices.kind.${s.kind}`)}
                  {countryName(s.country) ? ` · ${t("devices.near", { place: countryName(s.country) })}` : ""}
                </div>
                <div className="muted">{t("devices.seen", { first: moment(s.first_seen), last: moment(s.last_seen) })}</div>
              </div>
              {s.current ? null : (
                <Button className="btn btn-secondary" isPending={busy === s.identifier} onPress={() => void act(s.identifier, () => endSession(s.identifier))} aria-label={t("devices.endNamed", { device: describe(s) })}>
                  {t("devices.end")}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {others > 0 ? (
        <div className="form-actions">
          <Button className="btn btn-primary" isPending={busy === "others"} onPress={() => void act("others", endOtherSessions)}>
            {t("devices.endOthers")}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
