// A table's socket (bot/web/protocol.py), for every page of the bot: every message in order;
// after a drop it connects again and says which step it has (`resume`), so no move is
// missed or shown twice. The live table page and the Activity both open theirs here.

import type { PageMessage, ServerMessage } from "./protocol";

export interface Handlers {
  message(m: ServerMessage): void;
  /** The socket is up (true) or down and trying again (false). */
  connected(up: boolean): void;
  /** The address no longer opens the socket (three tries failed before opening): a new
   * ticket is needed. Without it, the page keeps trying. */
  expired?(): void;
}

/** A message from the page, without the version every message carries. */
export type Request = PageMessage extends infer M ? (M extends PageMessage ? Omit<M, "v"> : never) : never;

export class TableSocket {
  private ws: WebSocket | null = null;
  private hand: number | null = null;
  private at = 0;
  private failures = 0;
  private stopped = false;

  /** ``path``: the socket's address, relative to the page (``ws/TICKET``) or absolute
   * (``/ws/table/TOKEN``). */
  constructor(private path: string, private readonly on: Handlers) {}

  /** What the page has: sent with each (re)connection. */
  have(hand: number | null, at: number): void {
    this.hand = hand;
    this.at = at;
  }

  /** Open again at another address (a new ticket). */
  renew(path: string): void {
    this.path = path;
    this.failures = 0;
    this.stopped = false;
    this.open();
  }

  open(): void {
    const url = new URL(this.path, location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(url);
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.failures = 0;
      this.on.connected(true);
      this.send({ type: "resume", hand: this.hand, at: this.at });
    };
    ws.onmessage = (e: MessageEvent<string>) => {
      const m = JSON.parse(e.data) as ServerMessage;
      if (m.v !== 1) return;
      if (m.type === "gone") this.stopped = true;
      this.on.message(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      this.on.connected(false);
      this.failures += opened ? 0 : 1;
      if (this.failures >= 3 && this.on.expired) {
        // The ticket is refused (expired, or the server's key was rotated): ask again.
        this.stopped = true;
        this.on.expired();
        return;
      }
      window.setTimeout(() => this.open(), Math.min(4000, 250 * 2 ** Math.min(this.failures, 4)));
    };
  }

  send(message: Request): boolean {
    if (this.ws === null || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ v: 1, ...message }));
    return true;
  }

  close(): void {
    this.stopped = true;
    this.ws?.close();
  }
}
