import { type FormEvent, useEffect, useState } from "react";
import { Button, Form } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { ApiError, crown, messageOf } from "../api/crown.ts";
import type { Api, ResultsOf } from "../api/wire.ts";
import { day } from "../i18n/dates.ts";
import { Field, SubmitButton } from "../ui/fields.tsx";
import { ListTable } from "../ui/ListTable.tsx";
import { CursorPager } from "../ui/lists.tsx";
import { toast } from "../ui/toasts.tsx";
import { ConsoleSection } from "./ConsoleSection.tsx";

/**
 * The admin console's audit log (GET /admin/audit-events): who did what to which account, baby or
 * report, newest first. Filters by actor, subject, action and dates; Older / Newer walk the pages by
 * the server's cursor; Export CSV downloads the filtered entries. The server audits every look.
 */

type AuditPage = Pick<ResultsOf<Api["admin"]["audit-events"]["$get"]>, "data" | "next_cursor">;
type AuditEventRow = AuditPage["data"][number];
type Filter = { actor: string; subject: string; action: string; from: string; to: string };
const noFilter: Filter = { actor: "", subject: "", action: "", from: "", to: "" };

const queryOf = (f: Filter, before?: string) => {
  const q: Record<string, string> = {};
  for (const [k, v] of Object.entries(f)) if (v.trim()) q[k] = v.trim();
  if (before) q.before = before;
  return q;
};

/** The day in the portal's language (MM/DD/YYYY in English) and the time to the second, 24-hour, in the browser's zone. */
const when = (iso: string) => {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${day(d)} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
};

export function AuditLog() {
  const { t } = useTranslation("admin");
  const [draft, setDraft] = useState<Filter>(noFilter);
  const [filter, setFilter] = useState<Filter>(noFilter);
  // The cursors of the pages shown so far: [] is the newest page.
  const [trail, setTrail] = useState<string[]>([]);
  const [page, setPage] = useState<AuditPage | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const before = trail.at(-1);

  useEffect(() => {
    let live = true;
    setPage(null);
    crown.call((api) => api.admin["audit-events"].$get({ query: queryOf(filter, before) }))
      .then((r) => {
        if (!live) return;
        setPage(r.results);
        setFailure(null);
      })
      .catch((e: unknown) => {
        if (!live) return;
        const fields = e instanceof ApiError ? e.fieldErrors : {};
        setErrors(fields);
        setFailure(Object.keys(fields).length ? null : messageOf(e));
        setPage({ data: [], next_cursor: null });
      });
    return () => {
      live = false;
    };
  }, [filter, before]);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    setTrail([]);
    setFilter({ ...draft });
  };
  const exportCsv = async () => {
    try {
      const blob = await crown.blob((api) => api.admin["audit-events"].export.$get({ query: queryOf(filter) }));
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = "audit-log.csv";
      document.body.appendChild(a);
      a.click();
      a.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  const set = (k: keyof Filter) => (v: string) => setDraft((d) => ({ ...d, [k]: v }));

  return (
    <ConsoleSection name="audit" title={t("audit.title")}>
      <p className="muted">{t("audit.intro")}</p>
      <Form onSubmit={apply} className="form" aria-label={t("audit.filter")} validationBehavior="aria">
        <div className="grid-3">
          <Field name="actor" label={t("audit.actor")} value={draft.actor} onChange={set("actor")} error={errors.actor} />
          <Field name="subject" label={t("audit.subject")} value={draft.subject} onChange={set("subject")} error={errors.subject} />
          <Field name="action" label={t("audit.action")} value={draft.action} onChange={set("action")} error={errors.action} />
          <Field name="from" label={t("audit.from")} type="date" value={draft.from} onChange={set("from")} error={errors.from} />
          <Field name="to" label={t("audit.to")} type="date" value={draft.to} onChange={set("to")} error={errors.to} />
        </div>
        <div className="form-actions">
          <Button className="btn btn-secondary" onPress={() => void exportCsv()}>
            {t("audit.export")}
          </Button>
          <SubmitButton isPending={false}>{t("audit.apply")}</SubmitButton>
        </div>
      </Form>
      <ListTable
        rows={page?.data ?? null}
        error={failure}
        empty={t("audit.empty")}
        caption={t("audit.caption")}
        rowKey={(e) => e.identifier}
        columns={[
          { header: t("audit.columns.when"), cell: (e) => when(e.at) },
          { header: t("audit.columns.action"), cell: (e) => e.action },
          { header: t("audit.columns.actor"), cell: (e) => e.actor_email ?? e.actor_identifier ?? <span className="muted">{t("audit.system")}</span> },
          { header: t("audit.columns.subject"), className: "cell-code", cell: (e) => e.subject_identifier ?? "" },
          { header: t("audit.columns.address"), cell: (e) => e.ip ?? "" },
          { header: t("audit.columns.details"), className: "cell-code", cell: (e) => (Object.keys(e.details).length ? JSON.stringify(e.details) : "") },
        ]}
      />
      <CursorPager
        label={t("audit.pages")}
        page={t("audit.page", { page: trail.length + 1 })}
        newer={{ label: t("audit.newer"), onPress: trail.length === 0 ? null : () => setTrail((cursors) => cursors.slice(0, -1)) }}
        older={{ label: t("audit.older"), onPress: page?.next_cursor ? () => setTrail((cursors) => [...cursors, page.next_cursor!]) : null }}
      />
    </ConsoleSection>
  );
}
