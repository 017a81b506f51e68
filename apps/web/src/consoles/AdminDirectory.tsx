import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { ApiError, messageOf, request } from "../api/client.ts";
import type { Page } from "../api/types.ts";
import { formatUsDate } from "../reporting/api.ts";
import { Pager, SearchBox } from "../reporting/listing.tsx";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { toast } from "../ui/toasts.tsx";

interface AdminUser {
  readonly identifier: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly type: string;
  readonly status: string;
  readonly created_at?: string;
}

interface KioskDevice {
  readonly identifier: string;
  readonly name?: string;
  readonly label?: string;
  readonly status?: string;
  readonly last_seen_at?: string | null;
}

const TYPE_NAMES: Record<string, string> = { parent: "Parent", physician: "Provider", physician_staff: "Provider Staff", reviewer: "Reviewer", admin: "Admin", other: "Other" };

function UserTable({ type, title }: { type: "" | "physician"; title: string }) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const [rows, setRows] = useState<ReadonlyArray<AdminUser> | null>(null);
  const [lastPage, setLastPage] = useState(1);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  useEffect(() => {
    request<Page<AdminUser>>("GET", "/admin/users", { query: { page, search: search || undefined, type: type || undefined } })
      .then((r) => {
        setRows(r.results.data);
        setLastPage(Math.max(1, r.results.last_page));
      })
      .catch((e) => {
        setRows([]);
        if (e instanceof ApiError && e.httpStatus === 404) setMissing(true);
        else setError(messageOf(e));
      });
  }, [page, search, reload]);
  const act = async (u: AdminUser, action: "block" | "unblock") => {
    try {
      await request("POST", `/admin/users/${action}`, { json: { identifier: u.identifier } });
      toast(action === "block" ? `${u.email} is blocked` : `${u.email} is unblocked`, "success");
      setReload((n) => n + 1);
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  const id = type || "all";
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <div className="list-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <SearchBox
          label={`Search ${title.toLowerCase()}`}
          placeholder="Search by name or e-mail"
          onSearch={(q) => {
            setSearch(q);
            setPage(1);
          }}
        />
      </div>
      {missing ? <FormMessage tone="info">This server does not offer the user directory yet.</FormMessage> : null}
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 ? (
        <p className="empty">No users found</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Since</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((u) => (
                <tr key={u.identifier}>
                  <td>
                    {u.first_name} {u.last_name}
                  </td>
                  <td>{u.email}</td>
                  <td>{TYPE_NAMES[u.type] ?? u.type}</td>
                  <td>{u.status}</td>
                  <td>{formatUsDate(u.created_at)}</td>
                  <td>
                    {u.status === "Blocked" ? (
                      <Button className="btn btn-sm btn-secondary" aria-label={`Unblock ${u.email}`} onPress={() => void act(u, "unblock")}>
                        Unblock
                      </Button>
                    ) : u.type !== "admin" ? (
                      <Button className="btn btn-sm btn-secondary" aria-label={`Block ${u.email}`} onPress={() => void act(u, "block")}>
                        Block
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} lastPage={lastPage} onPage={setPage} label={`${title} pages`} />
    </section>
  );
}

function KioskDevices() {
  const [rows, setRows] = useState<ReadonlyArray<KioskDevice> | null>(null);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    request<Page<KioskDevice> | ReadonlyArray<KioskDevice>>("GET", "/admin/kiosk/devices", { quiet: true })
      .then((r) => setRows(Array.isArray(r.results) ? r.results : (r.results as Page<KioskDevice>).data))
      .catch((e) => {
        setRows([]);
        if (e instanceof ApiError && e.httpStatus === 404) setMissing(true);
        else setError(messageOf(e));
      });
  }, []);
  return (
    <section className="panel" aria-labelledby="kiosk-title">
      <h2 id="kiosk-title">Kiosk devices</h2>
      {missing ? (
        <p className="muted">
          Kiosk devices are enrolled from the kiosk itself. This server has no kiosk device list yet; the kiosk app is at <a href="/kiosk/">/kiosk/</a>.
        </p>
      ) : null}
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {rows === null ? <PageSpinner /> : null}
      {rows && rows.length > 0 ? (
        <ul className="plain-list">
          {rows.map((d) => (
            <li key={d.identifier}>
              <strong>{d.name ?? d.label ?? d.identifier}</strong>
              <span className="muted small">
                {d.status ?? ""} {d.last_seen_at ? `· last seen ${formatUsDate(d.last_seen_at)}` : ""}
              </span>
            </li>
          ))}
        </ul>
      ) : rows && !missing ? (
        <p className="empty">No kiosk devices yet.</p>
      ) : null}
    </section>
  );
}

export function AdminDirectory() {
  return (
    <>
      <UserTable type="" title="Users" />
      <UserTable type="physician" title="Physicians" />
      <KioskDevices />
    </>
  );
}
