// web_board.mjs: a board game played on its board, by clicks (issue 29), for web_ai.mjs's
// Elemental match against the AI: a minion of the own board is picked (the first click
// answers nothing), its legal targets and spaces are highlighted, and a click on an enemy
// card attacks it, a click on a space moves it there; each answer is checked by the
// option it sent (the page's deckhandChosen: verb, entity, target, space) and a move by
// where the minion then stands. Until a minion can act, cards are played from the hand
// (the Play option, then a click on a free highlighted space), and the turn is ended with
// the End turn option (or the bot's answer).
import { fail, log } from "./web_rig.mjs";
import { shots } from "./web_checks.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The next decision other than `last` (or the end screen): its id, "" at the end.
async function nextDecision(page, last) {
  await page.waitForFunction((d) => document.querySelector("#game-over") ||
    (document.querySelector(".decision[data-decision]")?.dataset.decision !== d &&
      document.querySelector("#bot-answer:not([disabled])")), { timeout: 20_000 }, last);
  return page.$eval(".decision[data-decision]", (el) => el.dataset.decision).catch(() => "");
}

// Click el and wait for the answer it sends to be accepted; the options it chose.
async function answerBy(page, el) {
  const n = await page.evaluate(() => window.deckhandChosen.length);
  await el.click();
  await page.waitForFunction((k) => window.deckhandChosen.length > k, { timeout: 10_000 }, n)
    .catch(() => fail("a click on the board sent no answer"));
  return page.evaluate(() => window.deckhandChosen[window.deckhandChosen.length - 1]);
}

const entityOf = (el) => el.evaluate((e) => Number(e.dataset.entity));

// Pick the card el (an actor): no answer goes, the card is marked picked.
async function pickActor(page, el) {
  const entity = await entityOf(el);
  const n = await page.evaluate(() => window.deckhandChosen.length);
  await el.click();
  await page.waitForSelector(`.card.actor[data-entity="${entity}"]`, { timeout: 3_000 })
    .catch(() => fail(`a click on ${entity} did not pick it`));
  if ((await page.evaluate(() => window.deckhandChosen.length)) !== n) fail("picking a minion sent an answer");
  return entity;
}

// With `entity` picked: attack a highlighted enemy card, or move to a highlighted space.
async function act(page, entity, want, shot) {
  // The first time a picked minion has something to do: the screen with its highlights.
  if (shot && (await page.$(".seat:not(.mine) .card.target, .seat.mine .space.target:not(:has(.card))")))
    await shots(page, want.out, "board-pick");
  if (want.attack) {
    const target = await page.$(".seat:not(.mine) .card.target");
    if (target) {
      const t = await entityOf(target);
      const [o] = await answerBy(page, target);
      if (o?.verb !== "attack" || o.entity !== entity || o.target !== t)
        fail(`clicking enemy ${t} with ${entity} picked sent ${JSON.stringify(o)}, not its attack`);
      log(`board: ${entity} attacked ${t} by two clicks ("${o.label}")`);
      return "attack";
    }
  }
  if (want.move) {
    const space = await page.$(".seat.mine .space.target:not(:has(.card))");
    if (space) {
      const zone = await space.evaluate((el) => el.dataset.zone);
      const [o] = await answerBy(page, space);
      if (o?.verb !== "move" || o.entity !== entity || o.space !== zone)
        fail(`clicking ${zone} with ${entity} picked sent ${JSON.stringify(o)}, not its move`);
      await page.waitForSelector(`.seat.mine .space[data-zone="${zone}"] .card[data-entity="${entity}"]`, { timeout: 10_000 })
        .catch(() => fail(`${entity} is not drawn on ${zone} after its move`));
      log(`board: ${entity} moved to ${zone} by two clicks ("${o.label}")`);
      return "move";
    }
  }
  return "";
}

// Until an attack and a move were made by clicks: up to three matches against the AI (one
// the AI wins before a minion could act ends, and a new one starts from the lobby).
export async function boardPlay(page, out, again) {
  const want = { attack: true, move: true, out };
  for (let match = 1; ; match++) {
    if (await boardMatch(page, want)) return;
    if (match === 3) fail(`no ${want.attack ? "attack" : "move"} could be made on the board in 3 matches`);
    log(`board: the match ended before an attack and a move; another one`);
    await page.click("#back-to-lobby");
    await page.waitForSelector("#lobby");
    await again();
  }
}

// One match's part of boardPlay: true once both are done (the match goes on), false when
// it ended first.
async function boardMatch(page, want) {
  let shot = want.attack && want.move;
  const rows = await page.$$eval(".seat.mine .board .space", (els) => new Set(els.map((e) => e.dataset.row)).size);
  // test_the_whole_board_is_drawn: both rows of both sides from the first decision on.
  if (rows < 2) fail(`the own board is drawn with ${rows} row(s) at the first decision, not both`);
  const theirs = await page.$$eval(".seat:not(.mine) .board .space", (els) => els.length);
  if (theirs !== (await page.$$eval(".seat.mine .board .space", (els) => els.length))) fail("the boards differ in size");
  let last = "";
  for (let step = 0; step < 120 && (want.attack || want.move); step++) {
    last = await nextDecision(page, last);
    if (!last) return false;
    let done = "";
    for (const a of await page.$$(".seat.mine .board .card[data-acts]")) {
      const entity = await pickActor(page, a);
      done = await act(page, entity, want, shot);
      if (done) break;
      await a.click(); // drop it: nothing it may do now is wanted
      await sleep(50);
    }
    if (done) {
      want[done] = false;
      shot = false;
      continue;
    }
    // A space to put a card on (the card picked already: a "place" decision): click the
    // last free one (the back row, out of the enemy's first reach, so it lives to move).
    const spaces = await page.$$(".seat.mine .space.target:not(:has(.card))");
    const free = spaces[spaces.length - 1];
    if (free) {
      const zone = await free.evaluate((el) => el.dataset.zone);
      const [o] = await answerBy(page, free);
      if (o?.space !== zone) fail(`clicking the free space ${zone} sent ${JSON.stringify(o)}`);
      log(`board: a card put on ${zone} by a click on the space`);
      continue;
    }
    // Play a card (its placement comes next), else end the turn (or let the bot answer).
    const next = (await page.$('.decision .option[data-verb="play"]:not([disabled])')) ??
      (await page.$('.decision .option[data-verb="end"]:not([disabled])')) ?? (await page.$("#bot-answer"));
    await next.click();
  }
  if (want.attack || want.move) fail(`no ${want.attack ? "attack" : "move"} could be made on the board in 120 decisions`);
  return true;
}
