// web_rematch.mjs URL OUT: the end screen's rematch in headless Chromium (issue 29).
// test_a_rematch_against_the_ai_starts_at_once: a guest plays the AI, resigns, presses
// Rematch, and a new match (another id) is on screen with a decision.
// test_a_rematch_needs_every_player: two guests meet in a Dominion match and one resigns;
// the first to press Rematch reads that the other is awaited, the other reads the offer
// ("wants a rematch") and accepts it: both land in one new match. After that one ends, a
// rematch offered by one and left by the other (back to the lobby) is declined on the
// first's screen. Screenshots: OUT/rematch-offered*.png. No console error.
import { browser, checkNoConsoleErrors, fail, log, player, resign } from "./web_rig.mjs";
import { audit, desktop, shots } from "./web_checks.mjs";

const [url, out] = process.argv.slice(2);
const matchOf = (page) => page.$eval(".match[data-match]", (el) => el.dataset.match).catch(() => "");

async function newMatch(page, old, what) {
  await page.waitForFunction((id) => {
    const m = document.querySelector(".match[data-match]");
    return m && m.dataset.match !== id && document.querySelector(".decision");
  }, { timeout: 15_000 }, old).catch(() => fail(`${what}: no new match after the rematch`));
  return matchOf(page);
}

try {
  // Against the AI: at once.
  const solo = await player(url, "Sol");
  await solo.setViewport(desktop);
  await solo.waitForSelector("#play-ai");
  await solo.click("#play-ai");
  await solo.waitForSelector(".decision[data-decision]", { timeout: 15_000 });
  const first = await matchOf(solo);
  await resign(solo);
  await solo.waitForSelector("#rematch", { timeout: 10_000 });
  await solo.click("#rematch");
  const again = await newMatch(solo, first, "against the AI");
  log(`a rematch against the AI started at once: ${first} -> ${again}`);
  await resign(solo);
  await solo.waitForSelector("#game-over", { timeout: 10_000 });

  // Two players: both must offer.
  const a = await player(url, "Ann");
  const b = await player(url, "Ben");
  for (const p of [a, b]) {
    await p.setViewport(desktop);
    await p.waitForSelector(".game.picked [data-option]");
    await p.click("#queue");
  }
  for (const p of [a, b]) await p.waitForSelector(".decision", { timeout: 20_000 });
  const m1 = await matchOf(a);
  await resign(a);
  for (const p of [a, b]) await p.waitForSelector("#rematch", { timeout: 10_000 });
  await a.click("#rematch");
  await a.waitForFunction(() => /waiting/i.test(document.querySelector(".rematch-state")?.textContent ?? ""), { timeout: 10_000 })
    .catch(() => fail("the offering player does not read that the other is awaited"));
  await b.waitForFunction(() => /wants a rematch/.test(document.querySelector(".rematch-state")?.textContent ?? ""), { timeout: 10_000 })
    .catch(() => fail("the other player does not read the offer"));
  await shots(b, out, "rematch-offered");
  await audit(b, "the end screen with a rematch offered");
  await b.click("#rematch");
  const [ma, mb] = [await newMatch(a, m1, "Ann"), await newMatch(b, m1, "Ben")];
  if (ma !== mb) fail(`the rematch put them in two matches: ${ma} / ${mb}`);
  log(`both offered: the rematch ${ma} started for both`);

  // One offers, the other leaves: declined.
  await resign(b);
  for (const p of [a, b]) await p.waitForSelector("#rematch", { timeout: 10_000 });
  await a.click("#rematch");
  await b.waitForFunction(() => /wants a rematch/.test(document.querySelector(".rematch-state")?.textContent ?? ""), { timeout: 10_000 })
    .catch(() => fail("the second offer did not reach the other player"));
  await b.click("#back-to-lobby");
  await b.waitForSelector("#lobby");
  await a.waitForFunction(() => /no rematch/i.test(document.querySelector(".rematch-state")?.textContent ?? ""), { timeout: 10_000 })
    .catch(() => fail("the rematch left by the other is not shown declined"));
  if (!(await a.$("#rematch[disabled]"))) fail("a declined rematch can still be pressed");
  log("a rematch the other left is shown declined");
  checkNoConsoleErrors();
} finally {
  await browser.close();
}
