// The Activity's page: prove who is here (identity.ts), open the table's socket
// (socket.ts), draw what it says (view.ts), and send the player's taps back.

import { Refused, inDiscord, session } from "./identity";
import { TableSocket } from "./socket";
import type { Texts } from "./draw";
import type { ServerMessage } from "./protocol";
import type { Request } from "./socket";
import { TableView } from "./view";

const app = document.getElementById("app") as HTMLElement;
const appId = app.dataset.appId ?? "";
let texts: Texts = JSON.parse((document.getElementById("texts") as HTMLElement).textContent ?? "{}");

function say(text: string, retry?: () => void): void {
  const p = document.createElement("p");
  p.className = "status-line";
  p.id = "status";
  p.textContent = text;
  const parts: HTMLElement[] = [p];
  if (retry) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "primary";
    b.textContent = texts["activity.retry"] ?? "↻";
    b.addEventListener("click", retry);
    parts.push(b);
  }
  app.replaceChildren(...parts);
}

let socket: TableSocket | null = null;
let view: TableView | null = null;

function send(message: Request): void {
  if (socket === null || !socket.send(message)) {
    view?.refused(texts["web.reconnecting"] ?? "…");
  }
}

function stamp(): { hand: number; at: number } {
  const step = view?.step;
  return { hand: step?.hand ?? 0, at: step?.at ?? 0 };
}

function received(m: ServerMessage): void {
  if (view === null) return;
  switch (m.type) {
    case "hello":
      view.hello(m);
      break;
    case "step":
      socket?.have(m.hand, m.at);
      view.show(m);
      break;
    case "clock":
      view.clock(m.deadline, m.now);
      break;
    case "error":
      view.refused(m.text ?? m.reason);
      break;
    case "notice":
      view.notice(m.text);
      break;
    case "answer":
      view.answer(m.text);
      break;
    case "gone":
      if (m.reason === "revoked") void start();
      else view.gone(texts["web.gone_closed"] ?? m.reason, () => location.reload());
      break;
  }
}

async function start(): Promise<void> {
  try {
    const s = await session(appId);
    texts = s.texts;
    document.documentElement.lang = s.lang;
    if (view === null) {
      view = new TableView(texts, {
        act: (action) => send({ type: "act", ...stamp(), seat: view?.step?.mine?.seat ?? null, action }),
        seat: (op, team) => send({ type: "seat", op, team: team ?? null, hand: stamp().hand }),
        hint: () => send({ type: "hint", ...stamp() }),
      });
    } else {
      view.setTexts(texts);
    }
    if (socket === null) {
      socket = new TableSocket("ws/" + s.ticket, {
        message: received,
        connected: (up) => view?.connected(up),
        expired: () => void start(),
      });
      socket.open();
    } else {
      socket.renew("ws/" + s.ticket);
    }
  } catch (e) {
    const text = e instanceof Refused ? e.message : String((e as Error)?.message ?? e);
    say(text, () => {
      say(texts["activity.connecting"] ?? "…");
      void start();
    });
  }
}

if (inDiscord()) {
  void start();
} else {
  say(texts["activity.outside"] ?? "");
}
