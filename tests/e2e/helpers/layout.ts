import type { Page } from "playwright";

/**
 * Layout checks a user notices without reading the code (issue 46): the floating Chat button lying
 * over the page, and a field's text cut off by its own box.
 */

/**
 * Scrolls to the bottom and answers what the Chat launcher's box covers there: every line of text
 * and every control of the page (the chat widget itself and the toasts left out), one description
 * each. Empty when the page's last content stays clear of the button.
 */
export const coveredByChat = async (page: Page): Promise<string[]> => {
  await page.locator(".chat-launcher").waitFor();
  await page.evaluate(() => window.scrollTo(0, document.scrollingElement?.scrollHeight ?? 0));
  // Two frames: the scroll and any layout it causes are painted before measuring.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(() => {
    const launcher = document.querySelector(".chat-launcher")!.getBoundingClientRect();
    const overlaps = (r: DOMRect) => r.width > 0 && r.height > 0 && r.left < launcher.right && r.right > launcher.left && r.top < launcher.bottom && r.bottom > launcher.top;
    const outside = (el: Element) => !el.closest(".chat-widget, .toasts");
    const visible = (el: Element) => {
      const s = getComputedStyle(el);
      return s.visibility !== "hidden" && s.display !== "none" && Number(s.opacity) > 0;
    };
    const found: string[] = [];
    const controls = document.querySelectorAll("a[href], button, input, select, textarea, [role=button], [role=link], [tabindex]");
    for (const el of Array.from(controls)) {
      if (!outside(el) || !visible(el)) continue;
      if (overlaps(el.getBoundingClientRect())) found.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 60) || el.getAttribute("aria-label") || el.getAttribute("name") || ""}"`);
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent || !outside(parent) || !visible(parent)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      if (Array.from(range.getClientRects()).some((r) => overlaps(r as DOMRect))) found.push(`text "${text.slice(0, 60)}"`);
    }
    return found;
  });
};

/**
 * Whether a field shows its whole text: the placeholder of an empty input, or the selected option of
 * a select, measured in the field's own font against the room inside its padding (a select also
 * keeps room for its arrow). Answers the text and the two widths when it is cut off, else null.
 */
export const cutOff = (page: Page, selector: string): Promise<string | null> =>
  page.locator(selector).first().evaluate((el) => {
    const field = el as HTMLInputElement | HTMLSelectElement;
    const text = field instanceof HTMLSelectElement ? (field.selectedOptions[0]?.text ?? "") : field.value || field.placeholder;
    const s = getComputedStyle(field);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const needed = context.measureText(text).width;
    const arrow = field instanceof HTMLSelectElement ? 20 : 0;
    const room = field.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - arrow;
    return needed <= room ? null : `"${text}" needs ${Math.ceil(needed)} px in ${Math.floor(room)} px`;
  });
