// conn.ts: the WebSocket to the gateway that served the page (ws[s]://HOST/ws). Every
// request gets a fresh cmd_id and a promise of its Reply; every other ServerMessage goes
// to onMessage. A dropped connection rejects what is in flight and tells onClose; the app
// decides when to connect again.
import { decodeServer, encodeClient } from "./proto";
import type { Reply, ServerMessage } from "./gen/deckhand";

export class RequestError extends Error {
  constructor(public code: string, message: string) {
    super(message || code);
  }
}

export class Conn {
  private ws: WebSocket | null = null;
  // cmd_ids never repeat for a player, across connections and reloads: the worker answers
  // a cmd_id it has seen from the player in a match again without applying it (a retry),
  // so a reloaded page counting from 1 again would have its answers ignored. Milliseconds
  // since 1970 start above any id an earlier page of this browser sent (at most 50
  // commands a second pass the gateway's rate limit).
  private nextId = Date.now();
  // The last messages in and out, for a test to print when a page gets stuck.
  readonly trace: string[] = [];
  private pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  onMessage: (m: ServerMessage) => void = () => {};
  onClose: () => void = () => {};

  get open(): boolean {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  connect(url = Conn.defaultUrl()): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.binaryType = "arraybuffer";
      this.ws = ws;
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("cannot reach the server"));
      ws.onclose = () => {
        if (this.ws !== ws) return;
        this.ws = null;
        for (const p of this.pending.values()) p.reject(new RequestError("UNAVAILABLE", "connection lost"));
        this.pending.clear();
        this.onClose();
      };
      ws.onmessage = (e) => this.receive(new Uint8Array(e.data as ArrayBuffer));
    });
  }

  close(): void {
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }

  static defaultUrl(): string {
    return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
  }

  // Send one ClientMessage; resolves with its Reply when ok, rejects with its error.
  request(body: string, value: object = {}): Promise<Reply> {
    if (!this.open) return Promise.reject(new RequestError("UNAVAILABLE", "not connected"));
    const id = this.nextId++;
    const p = new Promise<Reply>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.ws!.send(encodeClient(id, body, value));
    this.note(`sent ${id} ${body} ${JSON.stringify(value).slice(0, 160)}`);
    return p.then((r) => {
      if (!r.ok) throw new RequestError(r.error?.code ?? "INTERNAL", r.error?.message ?? "");
      return r;
    });
  }

  private note(line: string): void {
    this.trace.push(line);
    if (this.trace.length > 60) this.trace.shift();
  }

  private receive(bytes: Uint8Array): void {
    const m = decodeServer(bytes);
    // A message of a newer server may carry a body this client does not know: none is set.
    const body = m.body ? m[m.body] : undefined;
    this.note(`${m.body ?? "(unknown body)"} ${String(JSON.stringify(body)).slice(0, 160)}`);
    if (m.body === "reply" && m.reply) {
      const p = this.pending.get(m.reply.cmd_id);
      if (p) {
        this.pending.delete(m.reply.cmd_id);
        p.resolve(m.reply);
        return;
      }
    }
    this.onMessage(m);
  }
}
