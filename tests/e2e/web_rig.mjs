// web_rig.mjs: what the browser tests share (web_play.mjs, web_solo.mjs): headless
// Chromium (Debian's, through puppeteer-core from client/web's lock file), players who
// log in as guests in browser contexts of their own (their own localStorage), a loop that
// answers every decision until the end screen, and the console errors seen.
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
const pages = [];

export const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
});

// A guest named name on the page at url, in the lobby.
export async function player(url, name) {
  const ctx = await browser.createBrowserContext();
  const page = await ctx.newPage();
  pages.push(page);
  await page.setViewport({ width: 1100, height: 900 });
  page.on("console", (m) => m.type() === "error" && errors.push(`${name}: ${m.text()}`));
  page.on("pageerror", (e) => errors.push(`${name}: ${e.message}`));
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("#guest-name");
  await page.type("#guest-name", name);
  await page.click("#guest-go");
  await page.waitForSelector("#lobby");
  return page;
}

// A decision taking several options: toggle min of them (at least one, at most max), by
// clicks or by their keys 1, 2, ..., see Confirm count them, and confirm with Enter. False
// when it was not that kind of screen.
async function chooseSeveral(page, byKeys) {
  const { min, max } = await page.$eval(".decision", (el) => ({ min: Number(el.dataset.min), max: Number(el.dataset.max) }));
  const want = Math.min(max, Math.max(1, min), 9);
  if ((await page.$$(".decision .option")).length < want) return false;
  // Toggle options 1..want that are not selected yet, and look again: a click that lands
  // while a message redraws the screen can be lost (the page is rebuilt under the
  // pointer), and toggling everything again would unselect what did land.
  for (let round = 0; round < 5; round++) {
    const on = await page.$$eval(".decision .option", (els) => els.map((e) => e.classList.contains("selected")));
    if (on.slice(0, want).every(Boolean)) break;
    for (let i = 1; i <= want; i++) {
      if (on[i - 1]) continue;
      if (byKeys) await page.keyboard.press(String(i));
      else await page.click(`.decision .option:nth-child(${i})`);
    }
    await sleep(50);
  }
  await page.evaluate(() => document.activeElement?.blur());
  await page.waitForFunction((n) => document.querySelector(".decision .confirm")?.textContent.includes(`(${n})`),
    { timeout: 5000 }, want);
  await page.keyboard.press("Enter");
  log(`a multi-select decision answered by ${byKeys ? "keys" : "clicks on"} 1..${want} and Enter`);
  return true;
}

// Answer every decision on page until the end screen; returns the number of answers.
// The first `clicks` single-choice decisions are answered by clicking the first option
// button, the first `multi` decisions taking several options by keys or clicks, then
// Enter (chooseSeveral), the others by the "let the bot answer" button, or its key B (every
// fourth). After `reloadAt` answers the
// page reloads once, and onReload runs. At the deadline: a screenshot OUT/stuck-NAME.png
// and the last messages of every page in the error.
export async function play(page, name, out, { clicks = 3, multi = 2, reloadAt = -1, onReload = async () => {} } = {}) {
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
    try {
      if (!single && multi > 0 && (await chooseSeveral(page, multi % 2 === 0))) multi--;
      else if (!option && answered % 4 === 3) await page.keyboard.press("b"); // the key, now and then
      else await (option ?? bot).click();
    } catch {
      continue; // redrawn between finding and clicking it (a message came): look again
    }
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
