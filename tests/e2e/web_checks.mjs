// web_checks.mjs: what the browser tests of the players' client (issue 29) check on a
// page beside playing it (web_rig.mjs): an accessibility audit by axe-core (pinned in
// client/web's lock file, injected into the page through the DevTools protocol, so the
// page's CSP is untouched), the phone layout by element geometry (the own hand and an open
// decision both on screen, not overlapping), and screenshots at both sizes.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fail, log, phone } from "./web_rig.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../../client/web/package.json"));
const axeSource = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export const desktop = { width: 1280, height: 900 };

// test_no_serious_accessibility_issue: axe-core finds nothing serious or critical on the
// screen shown (WCAG 2 A and AA rules and axe's best practices).
export async function audit(page, what) {
  if (!(await page.evaluate(() => typeof window.axe !== "undefined"))) await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")})`);
  });
  if (found.length) fail(`${what}: accessibility issues:\n${found.join("\n")}`);
  log(`${what}: axe-core finds no serious or critical issue`);
}

// A screenshot of the screen at the desktop size and at the phone's (OUT/NAME.png and
// OUT/NAME-phone.png); the page is left at the desktop size.
export async function shots(page, out, name) {
  await page.setViewport(desktop);
  await page.screenshot({ path: path.join(out, `${name}.png`) });
  await page.setViewport(phone);
  await page.screenshot({ path: path.join(out, `${name}-phone.png`) });
  await page.setViewport(desktop);
}

// test_the_hand_is_visible_while_a_decision_is_open: on the viewport set, the own hand's
// dock, its first cards and the open decision lie inside the screen, and the decision's
// box does not overlap the hand's; nothing is wider than the screen.
export async function handVisible(page, what) {
  const g = await page.evaluate(() => {
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    };
    const hand = document.querySelector(".hand-dock");
    const decision = document.querySelector(".decision[data-decision]");
    const cards = Array.from(document.querySelectorAll(".hand-dock .card")).slice(0, 3).map(box);
    return { hand: hand && box(hand), decision: decision && box(decision), cards, w: innerWidth, h: innerHeight,
      scroll: document.documentElement.scrollWidth };
  });
  if (!g.hand || !g.decision) fail(`${what}: no hand dock or no open decision`);
  if (!g.cards.length) fail(`${what}: no card in the hand`);
  const inside = (b) => b.top >= 0 && b.left >= 0 && b.bottom <= g.h + 0.5 && b.right <= g.w + 0.5;
  const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  if (!inside(g.hand)) fail(`${what}: the hand ${JSON.stringify(g.hand)} is not inside the ${g.w}x${g.h} screen`);
  if (!inside(g.decision)) fail(`${what}: the decision ${JSON.stringify(g.decision)} is not inside the screen`);
  if (overlap(g.hand, g.decision)) fail(`${what}: the decision ${JSON.stringify(g.decision)} covers the hand ${JSON.stringify(g.hand)}`);
  for (const c of g.cards)
    if (c.top < g.hand.top - 0.5 || c.bottom > g.hand.bottom + 0.5 || !inside({ ...c, left: Math.max(c.left, 0), right: Math.min(c.right, g.w) }))
      fail(`${what}: a hand card ${JSON.stringify(c)} is not shown in the hand ${JSON.stringify(g.hand)}`);
  if (g.scroll > g.w) fail(`${what}: ${g.scroll} px wide on a ${g.w} px screen`);
  log(`${what}: the hand (${Math.round(g.hand.top)}-${Math.round(g.hand.bottom)} px) and the decision ` +
    `(${Math.round(g.decision.top)}-${Math.round(g.decision.bottom)} px) are both on the ${g.w}x${g.h} screen, apart`);
}

export const onPhone = (page) => page.setViewport(phone);
