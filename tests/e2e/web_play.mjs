// web_play.mjs URL OUT: two headless Chromium players play one Dominion match through the
// web client served at URL (test_web_play.sh starts the cluster). Checked: the page loads
// with no console error; guests log in and reach the lobby; both queue and get the same
// match; decisions are answered by clicking an option button (the first few) or the "let
// the bot answer" button; player A reloads mid-match and the page resumes the same match
// (token and match id kept in localStorage) and goes on; both reach the end screen with
// the same results. Screenshots: OUT/lobby.png, OUT/match.png, OUT/end.png.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [url, out] = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../../client/web/package.json"));
const puppeteer = (await import(pathToFileURL(require.resolve("puppeteer-core")).href)).default;

const DEADLINE = Date.now() + Number(process.env.WEB_PLAY_MS || 150_000);
const log = (...a) => console.log(new Date().toISOString().slice(11, 19), ...a);
const fail = (msg) => {
  throw new Error(msg);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
});
const errors = [];
const pages = [];

async function player(name) {
  const ctx = await browser.createBrowserContext(); // its own localStorage
  const page = await ctx.newPage();
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

// One player's loop: answer every decision until the end screen. The first `clicks`
// single-choice decisions are answered by clicking the first option, the others by the
// bot button; after `reloadAt` answers the page reloads once (onReload runs after).
async function play(page, name, { clicks = 3, reloadAt = -1, onReload = async () => {} } = {}) {
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
      await (option ?? bot).click();
    } catch {
      continue; // redrawn between finding and clicking it (a message came): look again
    }
    lastDecision = d;
    answered++;
  }
  await page.screenshot({ path: path.join(out, `stuck-${name}.png`) });
  const text = (await Promise.all(pages.map((p) => p.evaluate(() => window.deckhandTrace.slice(-25).join("\n"))))).join("\n----\n");
  fail(`${name}: no end screen before the deadline (${answered} answers); the page says:\n${text}`);
}

try {
  const a = await player("Alice");
  const b = await player("Bob");
  pages.push(a, b);
  await a.screenshot({ path: path.join(out, "lobby.png") });
  log("both in the lobby");
  await a.click("#queue");
  await b.click("#queue");
  await a.waitForSelector(".match", { timeout: 20_000 });
  await b.waitForSelector(".match", { timeout: 20_000 });
  const matchA = await a.$eval(".match", (el) => el.dataset.match);
  const matchB = await b.$eval(".match", (el) => el.dataset.match);
  if (!matchA || matchA !== matchB) fail(`not the same match: ${matchA} / ${matchB}`);
  log(`match ${matchA}`);
  await a.waitForSelector(".card", { timeout: 10_000 }); // the View and Catalog arrived

  const resumed = async () => {
    await a.waitForSelector(".match .card", { timeout: 15_000 });
    const again = await a.$eval(".match", (el) => el.dataset.match);
    if (again !== matchA) fail(`after the reload: match ${again}, not ${matchA}`);
    await a.screenshot({ path: path.join(out, "match.png") });
    log("Alice resumed the match after the reload");
  };
  const [na, nb] = await Promise.all([
    play(a, "Alice", { reloadAt: 12, onReload: resumed }),
    play(b, "Bob"),
  ]);
  log(`end screens: Alice answered ${na}, Bob ${nb}`);
  if (na <= 12) fail("Alice's match ended before her reload");
  const rows = async (p) => p.$$eval("#game-over .results tbody tr", (trs) => trs.map((tr) => tr.textContent));
  const ra = await rows(a);
  const rb = await rows(b);
  if (ra.length !== 2 || JSON.stringify(ra) !== JSON.stringify(rb)) fail(`results differ: ${ra} / ${rb}`);
  await a.screenshot({ path: path.join(out, "end.png") });
  await b.setViewport({ width: 390, height: 844 }); // a phone
  await b.screenshot({ path: path.join(out, "end-phone.png") });
  if (errors.length) fail(`console errors:\n${errors.join("\n")}`);
  log(`results: ${ra.join(" | ")}`);
} finally {
  await browser.close();
}
