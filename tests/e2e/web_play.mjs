// web_play.mjs URL OUT: two headless Chromium players play one Dominion match through the
// web client served at URL (test_web_play.sh starts the cluster). Checked: the page loads
// with no console error; guests log in and reach the lobby; both queue and get the same
// match; decisions are answered by clicking an option button (the first few) or the "let
// the bot answer" button; player A reloads mid-match and the page resumes the same match
// (token and match id kept in localStorage) and goes on; both reach the end screen with
// the same results; a second tab of Alice's logs in with her token and the first tab steps
// aside. Screenshots: OUT/lobby.png, OUT/match.png, OUT/match-phone.png,
// OUT/end.png, OUT/end-phone.png.
import path from "node:path";
import { browser, checkNoConsoleErrors, fail, log, play, player, results } from "./web_rig.mjs";

const [url, out] = process.argv.slice(2);
const phone = { width: 390, height: 844 };

try {
  const a = await player(url, "Alice");
  const b = await player(url, "Bob");
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
    await b.setViewport(phone);
    await b.screenshot({ path: path.join(out, "match-phone.png"), fullPage: true });
    log("Alice resumed the match after the reload");
  };
  const [na, nb] = await Promise.all([
    play(a, "Alice", out, { reloadAt: 12, onReload: resumed }),
    play(b, "Bob", out),
  ]);
  log(`end screens: Alice answered ${na}, Bob ${nb}`);
  if (na <= 12) fail("Alice's match ended before her reload");
  const ra = await results(a);
  const rb = await results(b);
  if (ra.length !== 2 || JSON.stringify(ra) !== JSON.stringify(rb)) fail(`results differ: ${ra} / ${rb}`);
  await a.screenshot({ path: path.join(out, "end.png") });
  await b.screenshot({ path: path.join(out, "end-phone.png") });
  // A second tab of Alice's browser is the same player: it logs in with the kept token,
  // and the first tab steps aside (no reconnect tug of war) until asked to play there.
  const a2 = await a.browserContext().newPage();
  await a2.goto(url, { waitUntil: "load" });
  await a2.waitForSelector("#lobby", { timeout: 10_000 });
  await a.waitForSelector("#play-here", { timeout: 10_000 });
  log("a second tab took Alice over; the first offers to play there");
  checkNoConsoleErrors();
  log(`results: ${ra.join(" | ")}`);
} finally {
  await browser.close();
}
