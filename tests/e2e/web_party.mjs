// web_party.mjs URL OUT: the party and lobby screens of the web client against the real
// servers (test_web_party.sh starts the cluster), in headless Chromium.
// test_party_queues_together: Dan creates a party, Eve joins it by its code, both see
// two members; Dan (the leader) queues for Dominion and both land in the same match.
// test_private_lobby_applies_its_option: Fay picks Dominion's kingdom "size_distortion",
// opens a private lobby, Gus joins by its code, both mark ready, Fay starts, and both land
// in the same match whose supply is that preset's (Witch and Gardens piles, no Militia).
// test_party_queue_clears_after_its_match: Dan resigns it; his lobby's party panel no
// longer says "Queued for ...".
// test_spectator_leaves_with_escape: Hal finds the party's match in the watch list,
// watches it (a read-only screen: no options), and Escape (SpectateStop) takes him back
// to the lobby with no error.
// No console error on any page; the lobby screens fit a phone. Screenshots in OUT: party,
// lobby-ready, lobby-phone, lobby-match (.png).
import path from "node:path";
import { browser, checkNoConsoleErrors, fail, fitsPhone, log, phone, player, resign } from "./web_rig.mjs";

const [url, out] = process.argv.slice(2);
const shot = (page, name, full = false) => page.screenshot({ path: path.join(out, `${name}.png`), fullPage: full });

async function sameMatch(x, y, what) {
  await x.waitForSelector(".match .card", { timeout: 20_000 });
  await y.waitForSelector(".match .card", { timeout: 20_000 });
  const mx = await x.$eval(".match", (el) => el.dataset.match);
  const my = await y.$eval(".match", (el) => el.dataset.match);
  if (!mx || mx !== my) fail(`${what}: not the same match: ${mx} / ${my}`);
  return mx;
}

const members = (page, list) => page.$$eval(`${list} li`, (lis) => lis.map((li) => li.textContent));

try {
  // test_party_queues_together
  const dan = await player(url, "Dan");
  const eve = await player(url, "Eve");
  await dan.click("#party-create");
  await dan.waitForSelector(".party h2 code", { timeout: 10_000 });
  const party = await dan.$eval(".party h2 code", (el) => el.textContent);
  await eve.type("#party-code", party);
  await eve.click("#party-join");
  for (const p of [dan, eve])
    await p.waitForFunction(() => document.querySelectorAll(".party ul li").length === 2, { timeout: 10_000 })
      .catch(async () => fail(`party ${party}: members ${await members(p, ".party ul")}`));
  if ((await eve.$eval(".party h2 code", (el) => el.textContent)) !== party) fail("Eve's page shows another party");
  await shot(dan, "party");
  log(`party ${party}: Dan and Eve`);
  await dan.click("#queue");
  const partyMatch = await sameMatch(dan, eve, "the party");
  log(`the party landed in match ${partyMatch}`);

  // test_spectator_leaves_with_escape
  const hal = await player(url, "Hal");
  const listed = `.watch-list li[data-match="${partyMatch}"] .watch-go`;
  for (let tries = 0; !(await hal.$(listed)); tries++) {
    if (tries === 20) fail(`match ${partyMatch} never appeared in the watch list`);
    await hal.click("#watch-refresh");
    await hal.waitForSelector(listed, { timeout: 1_000 }).catch(() => {});
  }
  await hal.click(listed);
  await hal.waitForSelector(".match.watching .card", { timeout: 30_000 });
  if (await hal.$(".match .decision .option, #bot-answer")) fail("the spectator screen offers options");
  await hal.keyboard.press("Escape");
  await hal.waitForSelector("#lobby", { timeout: 5_000 }).catch(() => fail("Escape did not leave the spectator screen"));
  const notice = await hal.$eval(".notice", (el) => el.textContent).catch(() => "");
  if (notice) fail(`leaving the spectator screen: ${notice}`);
  log("Hal watched the party's match and left it with Escape");

  // test_party_queue_clears_after_its_match: Dan resigns the party's match; back in the
  // lobby, the party panel no longer says the party is queued.
  await resign(dan);
  await dan.waitForSelector("#game-over", { timeout: 15_000 }).catch(() => fail("no end screen after Dan resigned"));
  await dan.click("#back-to-lobby");
  await dan.waitForSelector(".party h2 code", { timeout: 5_000 });
  const queued = await dan.$eval(".party-queued", (el) => el.textContent).catch(() => "");
  if (queued) fail(`after the party's match the party panel still says "${queued}"`);
  log("after the party's match the party panel no longer says it is queued");

  // test_private_lobby_applies_its_option
  const fay = await player(url, "Fay");
  const gus = await player(url, "Gus");
  await fay.waitForSelector('.game.picked[data-game="dominion"] select[data-option="kingdom"] option[value="size_distortion"]',
    { timeout: 10_000 });
  await fay.select('select[data-option="kingdom"]', "size_distortion");
  await fay.click("#lobby-create-private");
  await fay.waitForSelector(".lobbies h2 code", { timeout: 10_000 });
  const code = await fay.$eval(".lobbies h2 code", (el) => el.textContent);
  const about = await fay.$eval(".lobbies p", (el) => el.textContent);
  if (!about.includes("private") || !about.includes("kingdom=size_distortion")) fail(`the lobby says "${about}"`);
  await gus.type("#lobby-code", code);
  await gus.click("#lobby-join");
  for (const p of [fay, gus])
    await p.waitForFunction(() => document.querySelectorAll(".lobbies ul li").length === 2, { timeout: 10_000 })
      .catch(async () => fail(`lobby ${code}: members ${await members(p, ".lobbies ul")}`));
  await gus.setViewport(phone);
  await fitsPhone(gus, "the lobby with a lobby joined");
  await shot(gus, "lobby-phone", true);
  await gus.setViewport({ width: 1100, height: 900 });
  for (const p of [fay, gus]) await p.click("#lobby-ready");
  await fay.waitForFunction(() => [...document.querySelectorAll(".lobbies ul li")].every((li) => li.textContent.includes("ready")),
    { timeout: 10_000 }).catch(async () => fail(`not both ready: ${await members(fay, ".lobbies ul")}`));
  await shot(fay, "lobby-ready");
  await fay.click("#lobby-start");
  const lobbyMatch = await sameMatch(fay, gus, "the lobby");
  const piles = await gus.$$eval('.match [data-zone^="supply:"]', (els) => els.map((e) => e.dataset.zone));
  for (const want of ["supply:Witch", "supply:Gardens"])
    if (!piles.includes(want)) fail(`the lobby's match has no ${want} pile (kingdom option not applied): ${piles}`);
  if (piles.includes("supply:Militia")) fail("the lobby's match has the default kingdom's Militia");
  await shot(gus, "lobby-match");
  log(`lobby ${code} started match ${lobbyMatch} with kingdom size_distortion`);
  checkNoConsoleErrors();
} finally {
  await browser.close();
}
