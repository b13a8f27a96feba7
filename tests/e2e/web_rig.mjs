// web_rig.mjs: what the browser tests share (web_play.mjs, web_solo.mjs, web_party.mjs):
// headless Chromium (Debian's, through puppeteer-core from client/web's lock file),
// players who log in as guests in browser contexts of their own (their own localStorage),
// a loop that answers every decision until the end screen (by clicks, keys 1-9, arrows
// and Enter, the bot button and its key), a check that a press survives a redraw, a
// check that a screen fits a phone, and the console errors seen.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../../client/web/package.json"));
const puppeteer = (await import(pathToFileURL(require.resolve("puppeteer-core")).href)).default;

export const DEADLINE = Date.now() + Number(process.env.WEB_PLAY_MS || 150_000);
export const log = (...a) => console.log(new Date().toISOString().slice(11, 19), ...a);
export const fail = (msg) => {
  throw new Error(msg);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const errors = [];
export const phone = { width: 390, height: 844 };
const pages = [];

export const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
});

// A guest named name on the page at url, in the lobby; with a password, a new account of
// that name instead (registered on the login screen).
export async function player(url, name, password = "") {
  const ctx = await browser.createBrowserContext();
  const page = await ctx.newPage();
  pages.push(page);
  await page.setViewport({ width: 1100, height: 900 });
  page.on("console", (m) => m.type() === "error" && errors.push(`${name}: ${m.text()}`));
  page.on("pageerror", (e) => errors.push(`${name}: ${e.message}`));
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("#guest-name");
  if (password) {
    await page.type("#acct-name", name);
    await page.type("#acct-pass", password);
    await page.click("#acct-register");
  } else {
    await page.type("#guest-name", name);
    await page.click("#guest-go");
  }
  await page.waitForSelector("#lobby");
  return page;
}

// The page fits a phone: nothing wider than the screen (document.scrollWidth <= innerWidth).
export async function fitsPhone(page, what) {
  const { scroll, inner } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
  }));
  if (scroll > inner) fail(`${what}: ${scroll} px wide on a ${inner} px screen`);
}

// test_presentation_hints_are_drawn: the bundle's hints (Catalog.presentation) reach the
// screen: a card matching `card` is drawn in the type colour `colour`, and (when given) a
// zone is labelled `label`; without hints the client hashes a hue and labels by zone name.
export async function checkHints(page, what, { card, colour, label = "" }) {
  const seen = await page.$$eval(card, (els) =>
    els.map((el) => getComputedStyle(el).getPropertyValue("--type-colour").trim()));
  if (!seen.length) fail(`${what}: no card ${card} on screen`);
  if (!seen.every((c) => c.toLowerCase() === colour)) fail(`${what}: ${card} drawn in ${seen}, not the bundle's ${colour}`);
  if (label) {
    const labels = await page.$$eval(".zone-name", (els) => els.map((el) => el.textContent));
    if (!labels.some((t) => t.startsWith(label))) fail(`${what}: no zone labelled ${label} (${labels})`);
  }
}

const selectedOptions = (page) =>
  page.$$eval(".decision .option", (els) => els.map((e) => e.classList.contains("selected")));

// test_a_press_survives_a_redraw: press option 2 of a multi-select, and while it is held
// toggle option 1 by its key (a redraw of the decision), then release: the release lands
// on the same button node, so option 2 toggles too (before dom.ts patched in place, the
// redraw replaced the button under the pointer and the click was lost).
async function pressAcrossRedraw(page) {
  const option = await page.$(".decision .option:nth-child(2)");
  // Where the press and the release land, for the message when the click is missed.
  await page.evaluate(() => {
    const where = (e) => {
      const t = e.target;
      return `${e.type} on ${t.tagName}.${t.className} "${(t.textContent ?? "").slice(0, 30)}" at ${e.clientX},${e.clientY}`;
    };
    window.pressTrace = [];
    for (const type of ["mousedown", "mouseup", "click"])
      document.addEventListener(type, (e) => window.pressTrace.push(where(e)), { capture: true });
  });
  await option.scrollIntoView();
  const box = await option.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.keyboard.press("1");
  await page.waitForFunction(() => document.querySelector(".decision .option:nth-child(1)")?.classList.contains("selected"),
    { timeout: 3000 });
  await page.mouse.up();
  const same = await option.evaluate((el) => el.isConnected && el === document.querySelector(".decision .option:nth-child(2)"));
  if (!same) fail("the redraw replaced the pressed option button");
  await page.waitForFunction(() => document.querySelector(".decision .option:nth-child(2)")?.classList.contains("selected"),
    { timeout: 3000 }).catch(async () => fail(`a press held across a redraw did not toggle its option (aimed at ` +
      `${JSON.stringify(box)}, now at ${JSON.stringify(await option.boundingBox())}; ` +
      `${await page.evaluate(() => window.pressTrace.join("; "))}; last messages: ` +
      `${await page.evaluate(() => window.deckhandTrace.slice(-8).join(" | "))})`));
  log("a press held across a redraw toggled its option (the button was kept)");
}

// A decision taking several options: toggle min of them (at least one, at most max), by
// clicks or by their keys 1, 2, ..., see Confirm count them, and confirm with Enter. With
// checkPress (and room for two), the first two are toggled by pressAcrossRedraw. False
// when it was not that kind of screen.
async function chooseSeveral(page, byKeys, checkPress) {
  const { min, max } = await page.$eval(".decision", (el) => ({ min: Number(el.dataset.min), max: Number(el.dataset.max) }));
  let want = Math.min(max, Math.max(1, min), 9);
  const n = (await page.$$(".decision .option")).length;
  if (n < want) return false;
  if (checkPress && max >= 2 && n >= 2 && !(await selectedOptions(page)).some(Boolean)) {
    await pressAcrossRedraw(page);
    want = Math.max(want, 2);
  }
  const on = await selectedOptions(page);
  for (let i = 1; i <= want; i++) {
    if (on[i - 1]) continue;
    if (byKeys) await page.keyboard.press(String(i));
    else await page.click(`.decision .option:nth-child(${i})`);
    await page.waitForFunction((k) => document.querySelector(`.decision .option:nth-child(${k})`)?.classList.contains("selected"),
      { timeout: 3000 }, i);
  }
  await page.evaluate(() => document.activeElement?.blur());
  await page.waitForFunction((k) => document.querySelector(".decision .confirm")?.textContent.includes(`(${k})`),
    { timeout: 5000 }, want);
  await page.keyboard.press(byKeys ? " " : "Enter");
  log(`a multi-select decision answered by ${byKeys ? "keys" : "clicks on"} 1..${want} and ${byKeys ? "Space" : "Enter"}`);
  return true;
}

// A single choice by the keyboard alone: an arrow focuses the first option, Enter takes it.
async function chooseByArrows(page) {
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("ArrowRight");
  const focused = await page.evaluate(() => document.activeElement?.classList.contains("option") ?? false);
  if (!focused) fail("an arrow key did not move the focus to an option");
  await page.keyboard.press("Enter");
}

// Answer every decision on page until the end screen; returns the number of answers.
// The first `clicks` single-choice decisions are answered by clicking the first option
// button, the first `multi` decisions taking several options by keys or clicks, then
// Enter (chooseSeveral), the others by the "let the bot answer" button, or its key B (every
// fourth). After `reloadAt` answers the
// page reloads once, and onReload runs. At the deadline: a screenshot OUT/stuck-NAME.png
// and the last messages of every page in the error.
export async function play(page, name, out,
  { clicks = 3, multi = 2, arrows = 1, checkPress = true, reloadAt = -1, onReload = async () => {} } = {}) {
  let answered = 0;
  let lastDecision = "";
  while (Date.now() < DEADLINE) {
    if (await page.$("#game-over")) return answered;
    if (answered === reloadAt) {
      reloadAt = -1;
      log(`${name} reloads after ${answered} answers`);
      await page.reload({ waitUntil: "load" });
      await onReload();
      continue;
    }
    const d = await page.$eval(".decision", (el) => el.dataset.decision ?? "").catch(() => "");
    const bot = d && d !== lastDecision ? await page.$("#bot-answer:not([disabled])") : null;
    if (!bot) {
      await sleep(15);
      continue;
    }
    const single = !(await page.$(".decision .confirm"));
    const option = single && answered < clicks ? await page.$(".decision .option:not([disabled])") : null;
    if (!single && multi > 0 && (await chooseSeveral(page, multi % 2 === 0, checkPress))) {
      multi--;
      checkPress = false;
    } else if (single && !option && arrows > 0) {
      await chooseByArrows(page);
      arrows--;
    } else if (!option && answered % 4 === 3) await page.keyboard.press("b"); // the key, now and then
    else await (option ?? bot).click();
    lastDecision = d;
    answered++;
  }
  await page.screenshot({ path: path.join(out, `stuck-${name}.png`) });
  const traces = await Promise.all(pages.map((p) => p.evaluate(() => window.deckhandTrace.slice(-25).join("\n"))));
  fail(`${name}: no end screen before the deadline (${answered} answers); last messages:\n${traces.join("\n----\n")}`);
}

// The rows of the end screen's results table.
export const results = (page) => page.$$eval("#game-over .results tbody tr", (trs) => trs.map((tr) => tr.textContent));

export function checkNoConsoleErrors() {
  if (errors.length) fail(`console errors:\n${errors.join("\n")}`);
}

// Resign the match shown on page: "Resign and leave", then the dialog's Resign.
export async function resign(page) {
  await page.click("#resign");
  await page.waitForSelector("#resign-confirm", { timeout: 5_000 }).catch(() => fail("no resign dialog"));
  await page.click("#resign-confirm");
}
