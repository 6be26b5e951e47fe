// A table, live: the first step comes with the page, the next ones over the socket
// (bot/web/protocol.py). A socket that closes is opened again, and says which step it has,
// so no move is lost or shown twice.
"use strict";
(() => {
  const F = window.Filicau;
  const { $, el, texts } = F;
  const root = $("table");
  F.setBase(root.dataset.cards);
  let cur = JSON.parse($("first").textContent);
  let deadline = cur.deadline;
  // The server's clock minus the page's: deadlines are the server's.
  let skew = cur.now ? cur.now - Date.now() / 1000 : 0;
  let gone = false;
  let delay = 250;
  const moves = $("moves");

  function draw(m) {
    const s = m.state;
    const names = F.drawCommon(s);
    F.drawSeats($("seats"), s);
    F.fillTrick($("trick"), s.players || s.seats.length, names, s.trick || [], s.winner);
    F.fillTrick($("last"), s.players || s.seats.length, names,
                s.last ? s.last.cards : [], s.last ? s.last.winner : null);
    F.drawResult($("result"), s);
    $("delayed").hidden = !m.delayed;
    document.querySelector(".bar h1").textContent = s.heading || s.title;
    tick();
  }

  function logMove(m) {
    if (m.move) {
      const li = el("li", null, m.move.text);
      li.value = m.at;
      li.dataset.hand = m.hand;
      li.dataset.at = m.at;
      moves.append(li);
    } else if (m.hand) {
      const li = el("li", "deal", m.state.heading || m.state.title);
      li.dataset.hand = m.hand;
      li.dataset.at = m.at;
      moves.append(li);
    }
    while (moves.children.length > 200) moves.firstChild.remove();
    moves.scrollTop = moves.scrollHeight;
  }

  function tick() {
    const left = deadline ? Math.max(0, Math.ceil(deadline - skew - Date.now() / 1000)) : null;
    const turn = (cur.state.turn || []);
    for (const li of $("seats").children) {
      const clock = li.children[2];
      const mine = turn.includes(Number(li.dataset.seat));
      const text = mine && left !== null ? " ⏳ " + left + " " + texts.seconds_left : "";
      if (clock.textContent !== text) clock.textContent = text;
    }
  }
  setInterval(tick, 500);

  function show(m) {
    if (m.hand === cur.hand && m.at <= cur.at && m.move) return; // already shown
    cur = m;
    deadline = m.deadline;
    logMove(m);
    draw(m);
  }

  function connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + root.dataset.socket;
    const ws = new WebSocket(url);
    ws.onopen = () => {
      delay = 250;
      $("link").textContent = "";
      ws.send(JSON.stringify({ v: 1, type: "resume", hand: cur.hand || null, at: cur.at }));
    };
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.v !== 1) return;
      if (m.now) skew = m.now - Date.now() / 1000;
      if (m.type === "step") show(m);
      else if (m.type === "clock") { deadline = m.deadline; tick(); }
      else if (m.type === "gone") {
        gone = true;
        $("link").textContent = texts["gone_" + m.reason] || "";
      }
    };
    ws.onclose = () => {
      if (gone) return;
      $("link").textContent = texts.reconnecting;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 4000);
    };
  }

  logMove(cur);
  draw(cur);
  connect();
})();
