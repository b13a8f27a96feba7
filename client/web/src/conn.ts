// conn.ts: the WebSocket to the gateway that served the page (ws[s]://HOST/ws). Every
// request gets a fresh cmd_id and a promise of its Reply; every other ServerMessage goes
// to onMessage. A dropped connection rejects what is in flight and tells onClose; the app
// decides when to connect again.
import { decodeServer, encodeClient } from "./proto";
import type { Reply, ServerMsg } from "./types";

export class RequestError extends Error {
  constructor(public code: string, message: string) {
    super(message || code);
  }
}

export class Conn {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  onMessage: (m: ServerMsg) => void = () => {};
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
    return p.then((r) => {
      if (!r.ok) throw new RequestError(r.error?.code ?? "INTERNAL", r.error?.message ?? "");
      return r;
    });
  }

  private receive(bytes: Uint8Array): void {
    const m = decodeServer(bytes);
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
