// The table's socket (bot/web/protocol.py): every message in order; after a drop it connects
// again and says which step it has (`resume`), so no move is missed or shown twice.

import type { Incoming } from "./types";

export interface Handlers {
  message(m: Incoming): void;
  /** The socket is up (true) or down and trying again (false). */
  connected(up: boolean): void;
  /** The ticket no longer opens the socket: a new one is needed. */
  expired(): void;
}

export class TableSocket {
  private ws: WebSocket | null = null;
  private hand: number | null = null;
  private at = 0;
  private failures = 0;
  private stopped = false;

  constructor(private ticket: string, private readonly on: Handlers) {}

  /** What the page has: sent with each (re)connection. */
  have(hand: number, at: number): void {
    this.hand = hand;
    this.at = at;
  }

  renew(ticket: string): void {
    this.ticket = ticket;
    this.failures = 0;
    this.stopped = false;
    this.open();
  }

  open(): void {
    const url = new URL("ws/" + this.ticket, location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(url);
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.failures = 0;
      this.on.connected(true);
      ws.send(JSON.stringify({ v: 1, type: "resume", hand: this.hand, at: this.at }));
    };
    ws.onmessage = (e: MessageEvent<string>) => {
      const m = JSON.parse(e.data) as Incoming;
      if (m.type === "gone") this.stopped = true;
      this.on.message(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      this.on.connected(false);
      this.failures += opened ? 0 : 1;
      if (this.failures >= 3) {
        // The ticket is refused (expired, or the server's key was rotated): ask again.
        this.stopped = true;
        this.on.expired();
        return;
      }
      window.setTimeout(() => this.open(), Math.min(4000, 300 * 2 ** this.failures));
    };
  }

  send(message: Record<string, unknown>): boolean {
    if (this.ws === null || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ v: 1, ...message }));
    return true;
  }

  close(): void {
    this.stopped = true;
    this.ws?.close();
  }
}
