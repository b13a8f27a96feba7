// web_solo.mjs URL OUT GAME: one headless Chromium player queues alone for GAME, whose
// queue fills the empty seat with a bot (test_web_solo.sh sets bot_fill_ms), and plays
// the match to the end screen through the web client, with no console error. Screenshots:
// OUT/GAME-match.png, OUT/GAME-end.png.
import path from "node:path";
import { browser, checkNoConsoleErrors, fail, log, play, player, results } from "./web_rig.mjs";

const [url, out, game] = process.argv.slice(2);

try {
  const p = await player(url, "Solo");
  // Pick the game, again if the click was lost: the server's game list arriving redraws
  // the lobby, and a click landing during that redraw does nothing.
  const picked = `.game.picked[data-game="${game}"] #queue`;
  for (let tries = 0; !(await p.$(picked)); tries++) {
    if (tries === 5) fail(`${game} could not be picked in the lobby`);
    await p.click(`.game[data-game="${game}"] .game-pick`);
    await p.waitForSelector(picked, { timeout: 3_000 }).catch(() => {});
  }
  await p.click("#queue");
  await p.waitForSelector(".match .card", { timeout: 20_000 });
  const playing = await p.$eval(".match", (el) => el.dataset.game);
  if (playing !== game) fail(`playing ${playing}, not ${game}`);
  log(`${game}: a match against a bot-filled seat`);
  let shot = false;
  const n = await play(p, "Solo", out, {
    reloadAt: 4,
    onReload: async () => {
      await p.waitForSelector(".match .card", { timeout: 15_000 });
      if (!shot) await p.screenshot({ path: path.join(out, `${game}-match.png`) });
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
