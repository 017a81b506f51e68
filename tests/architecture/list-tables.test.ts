import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * One list table and one pager in the portal (issue 43 item 5, issue 46 item 12): every list is
 * ui/ListTable.tsx and every pager ui/lists.tsx's, so a list cannot drift from the others in its
 * loading, empty and error states, its phone layout or its paging (ADR 0163).
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const web = "apps/web/src";
const OWNERS = new Set([`${web}/ui/ListTable.tsx`, `${web}/ui/lists.tsx`]);

const screens = (dir: string): string[] =>
  readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) return screens(rel);
    return name.endsWith(".tsx") && !name.endsWith(".test.tsx") ? [rel] : [];
  });

/** A hand-rolled table or pager in a screen's text. */
const handRolled = (text: string): string[] => [...text.matchAll(/<table\b|<thead\b|<tbody\b|className="pager\b|\bpadRows\b/g)].map((m) => m[0]);

describe("the portal's lists", () => {
  it("catches a hand-rolled table or pager (the check itself can fail)", () => {
    expect(handRolled(`<div className="table-wrap"><table className="table"><thead /></table></div><nav className="pager" />`)).toEqual(["<table", "<thead", 'className="pager']);
  });

  it("are all ListTable, with the one pager", () => {
    const offences = screens(web)
      .filter((file) => !OWNERS.has(file))
      .flatMap((file) => handRolled(readFileSync(path.join(root, file), "utf8")).map((found) => `${file}: ${found}`));
    expect(offences).toEqual([]);
  });
});
