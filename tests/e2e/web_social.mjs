// web_social.mjs URL OUT: two account players (rated) meet in a Dominion match in headless
// Chromium and use what sits beside the table (issue 29): a chat line and an emote reach
// the other, and a spectator reads the chat without a field to write in; a muted player's line reaches the page but is not shown; a flood of lines is
// refused by the gateway and the refusal is shown under the chat; an undo asked in rated
// play waits for the opponent's consent (its dialog), and once allowed the move is taken
// back; a move whose card script fails is told in words with the way out (the bot answers);
// then one resigns and both end screens say so. axe-core checks the match with its
// chat and the consent dialog. Screenshots: OUT/chat*.png, OUT/script-error*.png, OUT/undo-ask*.png,
// OUT/resigned*.png. No console error on either page.
import { browser, checkNoConsoleErrors, fail, log, player, resign } from "./web_rig.mjs";
import { audit, desktop, shots } from "./web_checks.mjs";

const [url, out] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const chatLines = (page) => page.$$eval(".chat-lines li", (els) => els.map((e) => e.textContent));
const seen = (page, text) => page.waitForFunction((t) =>
  Array.from(document.querySelectorAll(".chat-lines li")).some((e) => e.textContent.includes(t)), { timeout: 10_000 }, text)
  .catch(async () => fail(`"${text}" never shown; chat: ${await chatLines(page)}`));

async function say(page, text) {
  await page.type("#chat-text", text);
  await page.click("#chat-send");
}

// test_chat_between_two_players: a line and an emote each way.
async function chat(a, b) {
  await say(a, "hello from Ada");
  await seen(b, "hello from Ada");
  await a.waitForFunction(() => document.querySelector("#chat-text").value === "", { timeout: 5_000 })
    .catch(() => fail("the sent line stayed in its field"));
  await b.click('.emote-go[data-emote="gg"]');
  await seen(a, "Good game!");
  log("a chat line and an emote went both ways");
}

// test_a_spectator_reads_the_chat: Cy watches the match from the watch list; a line sent
// then reaches his screen, which has no field to write in.
async function spectator(a) {
  const c = await player(url, "Cy");
  const id = await a.$eval(".match", (el) => el.dataset.match);
  const listed = `.watch-list li[data-match="${id}"] .watch-go`;
  for (let tries = 0; !(await c.$(listed)); tries++) {
    if (tries === 20) fail(`match ${id} never appeared in the watch list`);
    await c.click("#watch-refresh");
    await c.waitForSelector(listed, { timeout: 1_000 }).catch(() => {});
  }
  await c.click(listed);
  await c.waitForSelector(".match.watching .chat", { timeout: 20_000 }).catch(() => fail("the spectator has no chat panel"));
  if (await c.$(".match.watching #chat-text")) fail("the spectator may write in the chat");
  await say(a, "hello watchers");
  await seen(c, "hello watchers");
  log("a spectator reads the chat and cannot write in it");
  await c.keyboard.press("Escape");
  await c.waitForSelector("#lobby");
}

// test_a_muted_player_is_not_shown: B mutes A; A's next line reaches B's page (its trace)
// but is not drawn there.
async function mute(a, b) {
  const seatA = await a.$eval(".seat.mine", (el) => el.dataset.seat);
  await b.click(`.mute[data-seat="${seatA}"]`);
  await b.waitForSelector(`.mute[data-seat="${seatA}"][aria-pressed="true"]`);
  await say(a, "are you there");
  await seen(a, "are you there");
  await b.waitForFunction(() => window.deckhandTrace.some((l) => l.includes("are you there")), { timeout: 10_000 })
    .catch(() => fail("the muted line never reached the page"));
  await sleep(100);
  if ((await chatLines(b)).some((t) => t.includes("are you there"))) fail("a muted player's line is shown");
  await b.click(`.mute[data-seat="${seatA}"]`);
  log("a muted player's line is not shown");
}

// test_a_chat_flood_is_refused: lines sent faster than the gateway's chat allowance are
// refused (RATE_LIMITED) and the page says so.
async function flood(a, b) {
  await sleep(1200); // some allowance back after the lines above
  await a.evaluate(() => {
    const input = document.querySelector("#chat-text");
    for (let i = 0; i < 10; i++) {
      input.value = `flood ${i}`;
      document.querySelector("#chat-send").click();
    }
  });
  await a.waitForSelector(".chat-error", { timeout: 10_000 }).catch(() => fail("no refusal shown after a flood of chat lines"));
  const said = await a.$eval(".chat-error", (el) => el.textContent);
  if (!/too many/i.test(said)) fail(`the flood refusal reads "${said}"`);
  await sleep(500);
  const got = (await chatLines(b)).filter((t) => t.includes("flood")).length;
  if (got >= 10) fail(`all ${got} flood lines were relayed`);
  log(`a flood of 10 lines: ${got} relayed, the rest refused ("${said}")`);
  await shots(a, out, "chat");
  await audit(a, "a match with its chat");
}

// The page whose seat has a decision offering a "play" (a treasure in the buy phase), the
// other answering by the bot until one does.
async function playerToPlay(pages) {
  for (let i = 0; i < 60; i++) {
    for (const p of pages) {
      const at = await p.$$eval(".decision .option:not([disabled])", (els) => els.findIndex((e) =>
        e.dataset.verb ? e.dataset.verb === "play" : /^\d?Play (?!all)/.test(e.textContent))).catch(() => -1);
      if (at >= 0) return [p, at];
    }
    for (const p of pages) {
      const bot = await p.$("#bot-answer:not([disabled])");
      if (bot) await bot.click().catch(() => {});
    }
    await sleep(150);
  }
  return fail("no seat could play a card in 60 rounds");
}

// test_a_script_failure_is_told_in_words: Ada buys a Curse, whose script fails (the
// pushed rule of test_web_social.sh): the decision says so with the way out, nothing is
// played, and its "Let the bot answer" answers the decision for her.
async function scriptFailure(a, b) {
  for (let i = 0; i < 60 && !(await a.$(".decision .option")); i++) {
    const bot = await b.$("#bot-answer:not([disabled])");
    if (bot) await bot.click().catch(() => {});
    await sleep(150);
  }
  for (let i = 0; i < 60; i++) {
    const at = await a.$$eval(".decision .option:not([disabled])", (els) => els.findIndex((e) => /Buy Curse/.test(e.textContent)));
    if (at >= 0) {
      const before = await a.$eval(".decision[data-decision]", (el) => el.dataset.decision);
      await (await a.$$(".decision .option:not([disabled])"))[at].click();
      await a.waitForSelector(".script-error", { timeout: 10_000 }).catch(() => fail("no words after a move whose script failed"));
      const said = await a.$eval(".script-error", (el) => el.textContent);
      if (!/could not be played/.test(said) || !/error/i.test(said)) fail(`the script failure reads "${said}"`);
      if ((await a.$eval(".decision[data-decision]", (el) => el.dataset.decision)) !== before) fail("the failed move changed the decision");
      await shots(a, out, "script-error");
      await a.click("#script-error-bot");
      await a.waitForFunction((d) => document.querySelector(".decision[data-decision]")?.dataset.decision !== d, { timeout: 10_000 }, before)
        .catch(() => fail("the bot did not answer after the script failure"));
      log(`a failed move is told in words ("${said.slice(0, 80)}…") and the bot answered instead`);
      return;
    }
    for (const p of [a, b]) {
      const bot = await p.$("#bot-answer:not([disabled])");
      if (bot) await bot.click().catch(() => {});
    }
    await sleep(150);
  }
  fail("Ada never had a Curse to buy");
}

// test_an_undo_in_rated_play_waits_for_consent: the mover asks, the other seat's dialog
// allows it, the mover's hand has the card again.
async function undo(a, b) {
  const [mover, at] = await playerToPlay([a, b]);
  const other = mover === a ? b : a;
  const hand = await mover.$$eval(".hand-dock .card", (els) => els.length);
  const before = await mover.$eval(".decision[data-decision]", (el) => el.dataset.decision);
  await (await mover.$$(".decision .option:not([disabled])"))[at].click();
  await mover.waitForFunction((d) => document.querySelector(".decision[data-decision]")?.dataset.decision !== d,
    { timeout: 10_000 }, before);
  await mover.waitForSelector("#undo", { timeout: 5_000 }).catch(() => fail("no Undo button after playing a card"));
  await mover.click("#undo");
  await other.waitForSelector("#undo-dialog", { timeout: 10_000 }).catch(() => fail("the opponent was not asked to allow the undo"));
  await audit(other, "the undo consent dialog");
  await shots(other, out, "undo-ask");
  await other.click("#undo-accept");
  await mover.waitForFunction((n) => document.querySelectorAll(".hand-dock .card").length === n, { timeout: 10_000 }, hand)
    .catch(() => fail(`the allowed undo did not bring the hand back to ${hand} cards`));
  log(`an undo asked in rated play was allowed by the opponent: the hand has ${hand} cards again`);
}

// test_a_player_resigns_and_everyone_is_told: A resigns; both end screens say so.
async function resignOne(a, b) {
  const name = await a.$eval(".seat.mine h2", (el) => el.textContent.replace(/ \(you\).*/, ""));
  await resign(a);
  for (const p of [a, b]) await p.waitForSelector("#game-over", { timeout: 15_000 }).catch(() => fail("no end screen after a resign"));
  const reason = await b.$eval("#end-reason", (el) => el.textContent).catch(() => "");
  const head = await b.$eval("#game-over h1", (el) => el.textContent);
  if (!reason.includes(name) || head !== "You won!") fail(`the opponent's end screen after ${name} resigned: "${head}", "${reason}"`);
  await shots(b, out, "resigned");
  log(`${name} resigned; the other reads "${head}" - "${reason}"`);
}

try {
  const a = await player(url, "Ada", "correct horse 1");
  const b = await player(url, "Bob", "correct horse 2");
  for (const p of [a, b]) {
    await p.setViewport(desktop);
    await p.waitForSelector(".game.picked [data-option]");
    await p.click("#queue");
  }
  for (const p of [a, b]) await p.waitForSelector(".decision", { timeout: 20_000 });
  await chat(a, b);
  await spectator(a);
  await mute(a, b);
  await flood(a, b);
  await scriptFailure(a, b);
  await undo(a, b);
  await resignOne(a, b);
  checkNoConsoleErrors();
} finally {
  await browser.close();
}
