// deckhand-proto.d.ts: the shape of the generated protocol module (build.mjs) that the
// client uses; the messages' own fields are typed in gen/deckhand.ts (gen-types.mjs writes it from the .proto).
declare module "deckhand-proto" {
  interface MessageType {
    fromObject(o: object): unknown;
    encode(m: unknown): { finish(): Uint8Array };
    decode(b: Uint8Array): unknown;
    toObject(m: unknown, o: object): object;
  }
  export const deckhand: { ClientMessage: MessageType; ServerMessage: MessageType };
}
