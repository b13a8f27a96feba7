// proto.ts: ClientMessage out, ServerMessage in, through the static code build.mjs makes
// from proto/deckhand.proto (so the client and the servers read one definition).
import { deckhand } from "deckhand-proto";
import type { ServerMessage } from "./gen/deckhand";

export function encodeClient(cmdId: number, body: string, value: object): Uint8Array {
  const msg = deckhand.ClientMessage.fromObject({ cmd_id: cmdId, [body]: value });
  return deckhand.ClientMessage.encode(msg).finish();
}

export function decodeServer(bytes: Uint8Array): ServerMessage {
  const msg = deckhand.ServerMessage.decode(bytes);
  return deckhand.ServerMessage.toObject(msg, {
    longs: Number, enums: String, defaults: true, arrays: true, oneofs: true,
  }) as ServerMessage;
}
