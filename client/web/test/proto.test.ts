// proto.test.ts: the browser's protocol code is the project's own .proto (build.mjs):
// a ClientMessage encodes to the bytes the gateway reads (field numbers of deckhand.proto),
// and a ServerMessage decodes with snake_case names, numbers for 64-bit fields and the
// oneof's name in `body`.
import assert from "node:assert/strict";
import { test } from "node:test";
import { deckhand } from "deckhand-proto";
import { decodeServer, encodeClient } from "../src/proto";

test("a Hello encodes as ClientMessage field 10 with cmd_id 1", () => {
  const bytes = encodeClient(1, "hello", { name: "Ann" });
  // cmd_id (field 1, varint 1), hello (field 10, length 5: name field 1 "Ann")
  assert.deepEqual([...bytes], [0x08, 0x01, 0x52, 0x05, 0x0a, 0x03, 0x41, 0x6e, 0x6e]);
});

test("a cmd_id from the clock and a Choose with a bot survive the round trip", () => {
  const id = 1795000000123;
  const bytes = encodeClient(id, "choose", { match_id: "m-1", decision_id: 7, option_ids: [], bot: "default" });
  const back = deckhand.ClientMessage.toObject(deckhand.ClientMessage.decode(bytes), { longs: Number, oneofs: true }) as
    { cmd_id: number; body: string; choose: { bot: string; decision_id: number } };
  assert.equal(back.cmd_id, id);
  assert.equal(back.body, "choose");
  assert.equal(back.choose.bot, "default");
  assert.equal(back.choose.decision_id, 7);
});

test("a ServerMessage decodes with its body named and 64-bit numbers as numbers", () => {
  const server = deckhand.ServerMessage;
  const bytes = server.encode(server.fromObject({
    view_delta: { match_id: "m-1", base_view_seq: 459680653359382, view_seq: 459680653359383, waiting_for: -1 },
  })).finish();
  const m = decodeServer(bytes);
  assert.equal(m.body, "view_delta");
  assert.equal(m.view_delta?.view_seq, 459680653359383);
  assert.equal(m.view_delta?.waiting_for, -1);
  assert.deepEqual(m.view_delta?.zones, []);
  assert.equal(m.view_delta?.decision, null);
});
