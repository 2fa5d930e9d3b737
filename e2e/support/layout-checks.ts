import { expect, type Page } from '@playwright/test';

/** Nothing may widen the page past the viewport (a sideways scroll on phones). */
export async function expectNoPageOverflow(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), { message: 'horizontal page overflow (px)' })
    .toBeLessThanOrEqual(0);
}

export interface TextLayoutOptions {
  /** Where to look (CSS selectors); the whole body by default. */
  roots?: string[];
  /** Pixels two text boxes may share in each direction before they count as overlapping (tight line heights). */
  tolerance?: number;
  /** Pixels a line of text may pass the side of the box that clips it (a cut letter shows from about 1 px); up and down, `tolerance`. */
  clipTolerance?: number;
  /** Containers meant to scroll sideways (tab strips with a scroll hint): text beyond their edges is not cut off. */
  scrollers?: string[];
}

/**
 * Problems with the visible text inside `roots`, one line each: two pieces of text (or form
 * controls, which show a value) drawn over each other, or text cut off by an ancestor that hides its overflow (ellipsis, line clamp, a
 * fixed box, a sideways scroll area) or by the viewport's edges. Text is measured per line
 * (Range.getClientRects of each text node); visually hidden text (sr-only), closed selects and
 * invisible parts are skipped. A vertical scroll area (a long menu) does not cut off: scrolling
 * down is expected; a sideways one does, unless it is one of `scrollers`.
 */
export function textLayoutProblems(page: Page, opts: TextLayoutOptions = {}): Promise<string[]> {
  return page.evaluate(
    ({ roots, tolerance, clipTolerance, scrollers }) => {
      const problems: string[] = [];
      const describe = (el: Element) => {
        const id = el.id ? `#${el.id}` : '';
        const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).slice(0, 3).join('.')}` : '';
        return `${el.tagName.toLowerCase()}${id}${cls}`;
      };
      const hidden = (el: Element): boolean => {
        for (let e: Element | null = el; e; e = e.parentElement) {
          if (e.closest('select, option, script, style, template, noscript')) return true;
          const s = getComputedStyle(e);
          if (s.display === 'none' || s.visibility === 'hidden' || s.visibility === 'collapse' || Number(s.opacity) === 0) return true;
          // sr-only: a 1 px box that hides its overflow, clipped away (a table keeps its size but not its pixels).
          const r = e.getBoundingClientRect();
          if (s.overflow !== 'visible' && (r.width <= 1 || r.height <= 1)) return true;
          if (s.clipPath === 'inset(50%)' || s.clip === 'rect(0px, 0px, 0px, 0px)') return true;
        }
        return false;
      };
      const cuts = (v: string) => v === 'hidden' || v === 'clip';
      interface Clip {
        el: Element;
        box: DOMRect;
        x: boolean;
        y: boolean;
        /** A strip meant to scroll: it hides what is scrolled away, which is no defect. */
        scroller: boolean;
      }
      /** The ancestors that cut off what overflows them, and on which axes. */
      const clippers = (el: Element): Clip[] => {
        const found: Clip[] = [];
        for (let e: Element | null = el; e && e !== document.body && e !== document.documentElement; e = e.parentElement) {
          const s = getComputedStyle(e);
          const x = s.overflowX !== 'visible';
          const y = cuts(s.overflowY);
          if (x || y) found.push({ el: e, box: e.getBoundingClientRect(), x, y, scroller: scrollers.some((sel) => e!.matches(sel)) });
        }
        return found;
      };
      /** The part of `r` its clipping ancestors let through (what can overlap anything). */
      const visible = (r: DOMRect, clips: Clip[]): DOMRect => {
        let { left, right, top, bottom } = r;
        for (const c of clips) {
          if (c.x) [left, right] = [Math.max(left, c.box.left), Math.min(right, c.box.right)];
          if (c.y) [top, bottom] = [Math.max(top, c.box.top), Math.min(bottom, c.box.bottom)];
        }
        return new DOMRect(left, top, Math.max(0, right - left), Math.max(0, bottom - top));
      };
      const texts: { text: string; el: Element; rects: DOMRect[] }[] = [];
      for (const root of roots.flatMap((sel) => Array.from(document.querySelectorAll(sel)))) {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent?.trim() ?? '';
          const el = node.parentElement;
          if (!text || !el || hidden(el)) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0.5 && r.height > 0.5);
          if (rects.length > 0) texts.push({ text, el, rects });
        }
      }
      // Form controls show text of their own (a value, the chosen option): nothing may be drawn over them either.
      const controls = roots.flatMap((sel) => Array.from(document.querySelectorAll(`${sel} select, ${sel} textarea, ${sel} input:not([type="hidden"], [type="checkbox"], [type="radio"])`)));
      for (const el of controls) {
        const r = el.getBoundingClientRect();
        if (!hidden(el.parentElement ?? el) && r.width > 0 && r.height > 0) texts.push({ text: `[${el.tagName.toLowerCase()}] ${(el as HTMLInputElement).value}`, el, rects: [r] });
      }
      const label = (t: { text: string; el: Element }) => `"${t.text.slice(0, 40)}" (${describe(t.el)})`;
      const viewport = document.documentElement.clientWidth;
      // Sideways a glyph fills its box; up and down a line's box has room above and below the letters.
      const outX = (a: number, b: number) => a - b > clipTolerance;
      const outY = (a: number, b: number) => a - b > tolerance;
      for (const t of texts) {
        const cutBy = clippers(t.el);
        let by: string | null = null;
        // Scrolled out of sight in a strip meant to scroll is not cut off.
        const scrolls = cutBy.some((c) => c.scroller);
        for (const r of t.rects) {
          if (!scrolls && (outX(0, r.left) || outX(r.right, viewport))) by = 'the viewport';
          const cut = cutBy.find(({ box: b, x, y, scroller }) => !scroller && ((x && (outX(b.left, r.left) || outX(r.right, b.right))) || (y && (outY(b.top, r.top) || outY(r.bottom, b.bottom)))));
          if (cut) by = describe(cut.el);
        }
        if (by) problems.push(`clipped: ${label(t)} by ${by}`);
        t.rects = t.rects.map((r) => visible(r, cutBy));
      }
      for (let i = 0; i < texts.length; i++) {
        for (let j = i + 1; j < texts.length; j++) {
          const a = texts[i]!;
          const b = texts[j]!;
          const hit = a.rects.some((ra) =>
            b.rects.some((rb) => {
              const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
              const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
              return w > tolerance && h > tolerance;
            }),
          );
          if (hit) problems.push(`overlap: ${label(a)} and ${label(b)}`);
        }
      }
      return problems;
    },
    { roots: opts.roots ?? ['body'], tolerance: opts.tolerance ?? 2, clipTolerance: opts.clipTolerance ?? 0.5, scrollers: opts.scrollers ?? [] },
  );
}

/**
 * The page does not scroll sideways and its visible text neither overlaps nor is cut off
 * (textLayoutProblems, polled for a few seconds: charts and strips measure themselves after a
 * resize); `where` names the page and width in the failure.
 */
export async function expectTidyLayout(page: Page, where: string, opts: TextLayoutOptions = {}): Promise<void> {
  await expect.poll(() => textLayoutProblems(page, opts), { message: `text overlapping or cut off on ${where}`, timeout: 5_000 }).toEqual([]);
  await expectNoPageOverflow(page);
}
