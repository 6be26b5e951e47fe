// Drawing a table's state (JSON from bot/web/views.py) into the page: shared by the live
// table and the replay. Only what the server sent is drawn; the page knows nothing else.
"use strict";
window.Filicau = (() => {
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  };
  const texts = JSON.parse($("texts").textContent);
  let base = "";

  function cardImg(code, w, h) {
    const img = el("img");
    img.src = base + code + ".png";
    img.alt = code;
    img.dataset.card = code;
    img.width = w || 60;
    img.height = h || 90;
    img.decoding = "async";
    return img;
  }

  // One slot per seat, made once: a card played fills its slot, nothing else moves.
  function slots(box, n, names) {
    if (box.children.length !== n) {
      box.replaceChildren();
      for (let i = 0; i < n; i++) {
        const s = el("div", "slot");
        s.dataset.seat = i;
        s.append(el("span", "who"), el("div", "place"));
        box.append(s);
      }
      box.style.setProperty("--n", n);
    }
    for (let i = 0; i < n; i++) box.children[i].firstChild.textContent = names[i] || "";
  }

  function fillTrick(box, n, names, cards, winner) {
    slots(box, n, names);
    const bySeat = new Map((cards || []).map((c) => [c.seat, c.card]));
    for (let i = 0; i < n; i++) {
      const slot = box.children[i];
      const place = slot.lastChild;
      const code = bySeat.get(i);
      const shown = place.firstChild ? place.firstChild.dataset.card : undefined;
      if (code !== shown) place.replaceChildren(...(code ? [cardImg(code)] : []));
      slot.classList.toggle("wins", winner === i && bySeat.has(i));
    }
  }

  function seatMeta(seat, extra) {
    const parts = [];
    if (seat.team) parts.push(seat.team);
    if (seat.badges) parts.push(seat.badges);
    if (seat.cards) parts.push("🂠 " + seat.cards);
    if (seat.taken !== null && seat.taken !== undefined) parts.push(texts.taken + " " + seat.taken);
    if (extra) parts.push(extra);
    return parts.join(" · ");
  }

  function drawSeats(list, state, opts) {
    const n = state.seats.length;
    list.style.setProperty("--n", n);
    if (list.children.length !== n) {
      list.replaceChildren();
      for (let i = 0; i < n; i++) {
        const li = el("li", "seat");
        li.dataset.seat = i;
        li.append(el("span", "name"), el("span", "meta"), el("span", "clock"));
        if (opts && opts.hands) li.append(el("div", "hand"));
        list.append(li);
      }
    }
    state.seats.forEach((seat, i) => {
      const li = list.children[i];
      li.classList.toggle("turn", (state.turn || []).includes(i));
      li.children[0].textContent = seat.name;
      li.children[1].textContent = seatMeta(seat);
      if (opts && opts.hands) {
        const codes = (state.hands || [])[i] || [];
        li.children[3].replaceChildren(...codes.map((c) => cardImg(c, 30, 45)));
      }
    });
  }

  function drawCommon(state) {
    const names = state.seats.map((s) => s.name);
    const trump = $("trump");
    trump.replaceChildren();
    if (state.trump) {
      trump.append(el("span", null, texts.trump + ": " + state.trump.label));
      for (const c of state.shown || []) trump.append(cardImg(c, 24, 36));
    }
    $("points").textContent = [state.points, state.match, state.phase].filter(Boolean).join(" · ");
    const facts = $("facts");
    facts.replaceChildren(...(state.facts || []).map((f) => el("li", null, f)));
    return names;
  }

  function drawResult(box, state) {
    if (!state.result) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    box.replaceChildren(...state.result.map((line) => el("p", null, line)));
    if (state.unplayed) {
      state.unplayed.forEach((cards, i) => {
        if (!cards.length) return;
        const p = el("p", "left", state.seats[i].name + ": ");
        cards.forEach((c) => p.append(cardImg(c, 24, 36)));
        box.append(p);
      });
    }
    box.hidden = false;
  }

  return { $, el, texts, cardImg, fillTrick, drawSeats, drawCommon, drawResult,
           setBase: (b) => { base = b; } };
})();
