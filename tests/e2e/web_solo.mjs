// web_solo.mjs URL OUT GAME: one headless Chromium player queues alone for GAME, whose
// queue fills the empty seat with a bot (test_web_solo.sh sets bot_fill_ms), and plays
// the match to the end screen through the web client, with no console error; the game's
// presentation hints are drawn (a type colour, a zone label); its screens fit a phone. Screenshots: OUT/GAME-match.png, OUT/GAME-match-phone.png, OUT/GAME-end.png.
import path from "node:path";
import { browser, checkHints, checkNoConsoleErrors, fail, fitsPhone, log, phone, play, player, results } from "./web_rig.mjs";

const [url, out, game] = process.argv.slice(2);
// What each game's presentation hints make visible (scripts/GAME/game.lua, `presentation`).
const HINTS = {
  caveman: { card: '.card[data-card="Wood"]', colour: "#c9b79c" },
  elemental: { card: '.card[data-card$=" Hero"]', colour: "#f0d9a8", label: "Hero" }, // its zone is "hero"
};

try {
  const p = await player(url, "Solo");
  // Pick the game once the server's game list has arrived (the lobby draws a built-in list
  // first, whose games declare no options; the server's Dominion declares its kingdom):
  // one click must do, and a click that lands while that list's redraw replaces the
  // buttons is a race of the test's making, seen once under a loaded run.
  await p.waitForSelector(".game.picked [data-option]");
  await p.waitForSelector(`.game[data-game="${game}"] .game-pick`);
  await p.click(`.game[data-game="${game}"] .game-pick`);
  await p.waitForSelector(`.game.picked[data-game="${game}"] #queue`, { timeout: 5_000 })
    .catch(() => fail(`${game} was not picked by one click in the lobby`));
  await p.click("#queue");
  await p.waitForSelector(".match .card", { timeout: 20_000 });
  const playing = await p.$eval(".match", (el) => el.dataset.game);
  if (playing !== game) fail(`playing ${playing}, not ${game}`);
  log(`${game}: a match against a bot-filled seat`);
  if (!HINTS[game]) fail(`no presentation check for ${game}`);
  await checkHints(p, game, HINTS[game]);
  let shot = false;
  const n = await play(p, "Solo", out, {
    reloadAt: 4,
    onReload: async () => {
      await p.waitForSelector(".match .card", { timeout: 15_000 });
      if (!shot) {
        await p.screenshot({ path: path.join(out, `${game}-match.png`) });
        await p.setViewport(phone);
        await fitsPhone(p, `the ${game} match screen`);
        await p.screenshot({ path: path.join(out, `${game}-match-phone.png`), fullPage: true });
        await p.setViewport({ width: 1100, height: 900 });
      }
      shot = true;
    },
  });
  const rows = await results(p);
  if (rows.length !== 2) fail(`end screen rows: ${rows}`);
  await p.screenshot({ path: path.join(out, `${game}-end.png`) });
  checkNoConsoleErrors();
  log(`${game}: ${n} answers; results: ${rows.join(" | ")}`);
} finally {
  await browser.close();
}
