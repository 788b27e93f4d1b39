// The belote-rl table: a lobby (create / list rooms) and one seat's view of a room.
// Everything shown comes from the server's view of that seat (its information set);
// the legal cards and bids too: nothing else can be clicked.
"use strict";

const SUITS = ["♠", "♥", "♦", "♣"];
const RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"];
const $ = (id) => document.getElementById(id);
// what an address may carry (the server's room ids, seats and tokens, training/rooms.py):
// anything else in an address or in the local storage is refused, never written into the page
const ROOM_ID = /^[A-Za-z0-9_-]{12}$/;
const SEAT = /^[0-9]$/;
const TOKEN = /^[A-Za-z0-9_-]{22}$/;

// the seats' tokens this browser keeps for a room, {seat: token}, the well-formed ones only
function storedTokens(roomId) {
  let tokens = {};
  try { tokens = JSON.parse(localStorage.getItem("belote-tokens-" + roomId) || "{}"); } catch (e) { tokens = {}; }
  const out = {};
  for (const [s, t] of Object.entries(tokens && typeof tokens === "object" ? tokens : {})) {
    if (SEAT.test(s) && typeof t === "string" && TOKEN.test(t)) out[s] = t;
  }
  return out;
}

function link(text, href, title) {
  const a = document.createElement("a");
  a.textContent = text;
  a.href = href;
  if (title) a.title = title;
  return a;
}

function cardSvg(id, legal) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 64 92");
  svg.setAttribute("class", "card" + (legal === true ? " legal" : legal === false ? " dim" : ""));
  svg.dataset.card = id;
  const red = id >= 8 && id < 24;  // hearts and diamonds
  const color = red ? "#c0102a" : "#111";
  const body = id < 0
    ? `<rect x="1" y="1" width="62" height="90" rx="6" fill="#234d8c" stroke="#fff" stroke-width="2"/>`
    : `<rect x="1" y="1" width="62" height="90" rx="6" fill="#fff" stroke="#333"/>
       <text x="6" y="20" font-size="16" font-weight="bold" fill="${color}">${RANKS[id % 8]}</text>
       <text x="6" y="38" font-size="16" fill="${color}">${SUITS[id >> 3]}</text>
       <text x="32" y="66" font-size="30" text-anchor="middle" fill="${color}">${SUITS[id >> 3]}</text>`;
  svg.innerHTML = body;
  return svg;
}

function cardName(id) { return RANKS[id % 8] + SUITS[id >> 3]; }

// the public declarations: four seats, each combination; two and three seats, the values announced
function declaredText(v, who) {
  const parts = [];
  v.declared.forEach((d, s) => {
    if (Array.isArray(d)) { for (const x of d) parts.push(`${who(s)} ${x.kind} ${x.cards.map(cardName).join(" ")} (${x.points})`); }
    else if (d.value) parts.push(`${who(s)} announced ${d.value}`);
  });
  if (v.decl_winner >= 0) parts.push(`scored by ${who(v.decl_winner)}: ${v.decl_cards.map(cardName).join(" ")}`);
  return parts.length ? ` &middot; declarations: ${parts.join("; ")}` : "";
}

// an <ol>'s items from {text, title, bold}, as text (never markup)
function fillList(ol, items) {
  ol.replaceChildren(...items.map((x) => {
    const li = document.createElement("li");
    const t = x.bold ? document.createElement("b") : li;
    t.textContent = x.text;
    if (x.bold) li.append(t);
    if (x.title) li.title = x.title;
    return li;
  }));
}

// the cards of a trick led by ``leader``, each with its player's name; with ``winner`` (a
// seat) its card is marked, with ``caption`` a line of text first
function drawTrick(box, cards, leader, names, winner = -1, caption = "") {
  box.innerHTML = "";
  if (caption) {
    const title = document.createElement("div");
    title.className = "caption";
    title.textContent = caption;
    box.append(title);
  }
  cards.forEach((c, i) => {
    const s = (leader + i) % names.length;
    const d = document.createElement("div");
    d.className = "played" + (s === winner ? " winner" : "");
    d.append(cardSvg(c), document.createElement("br"), names[s]);
    box.append(d);
  });
}

// the turned card, and after the seven's exchange who took it for which seven (TWO_THREE.md §2.5)
function turnedText(turned, exchanged, name) {
  return cardName(turned) + (exchanged >= 0 ? `, exchanged by ${name(exchanged)} for the ${cardName((turned >> 3) * 8)}` : "");
}

// ------------------------------------------------------------------ lobby
// "declarations=choice, belote=optional" as {option: value}: true / false / null and
// integers as such, anything else a string (the server names a bad option or value)
function ruleOptions(text) {
  const out = Object.create(null);  // "__proto__=x" is an option name like any other (the server names it)
  for (const part of text.split(/[,\s]+/)) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const key = eq < 0 ? part : part.slice(0, eq), raw = eq < 0 ? "" : part.slice(eq + 1);
    out[key] = raw === "true" ? true : raw === "false" ? false : raw === "null" ? null
      : /^-?\d+$/.test(raw) ? Number(raw) : raw;
  }
  return out;
}

function show(section) {
  for (const id of ["lobby", "table", "viewer"]) $(id).hidden = id !== section;
}

async function lobby() {
  show("lobby");
  tableNumber++;  // a view being drawn belongs to no table now
  if (socket) { socket.close(); socket = null; }
  $("status").textContent = "";
  $("record-file").onchange = async () => {
    const file = $("record-file").files[0];
    if (file) openReplay({ text: await file.text(), values: $("replay-values").checked ? "hard" : "0" });
  };
  const opts = await (await fetch("/api/options")).json();
  const rules = $("rules");
  rules.innerHTML = "";
  for (const p of opts.presets) {
    const label = opts.preset_labels && opts.preset_labels[p] ? `${opts.preset_labels[p]} (${p})` : p;
    rules.add(new Option(label, p, false, p === "seed004"));
  }
  const drawSeats = () => {
    const over = ruleOptions($("rule-options").value);
    const n = [2, 3, 4].includes(over.players) ? over.players : (opts.preset_players[rules.value] || 4);
    if (n === $("seats").querySelectorAll("select").length) return;
    const box = $("seats");
    box.innerHTML = "";
    for (let s = 0; s < n; s++) {
      const sel = document.createElement("select");
      sel.id = "seat" + s;
      for (const k of ["human"].concat(opts.tiers)) sel.add(new Option(k, k, false, s === 0 ? k === "human" : k === "hard"));
      const label = document.createElement("label");
      label.append(`Seat ${s} `, sel);
      box.append(label);
    }
  };
  rules.onchange = drawSeats;
  $("rule-options").oninput = drawSeats;
  drawSeats();
  $("create").onsubmit = async (ev) => {
    ev.preventDefault();
    const seats = [...$("seats").querySelectorAll("select")].map((s) => s.value);
    const limit = $("limit").value;
    const over = ruleOptions($("rule-options").value);  // options over the preset: the server checks them
    // another table size than the preset's: the rules' defaults under the options (a preset's four-seat options
    // do not apply at two or three seats)
    const base = typeof over.players === "number" && over.players !== opts.preset_players[rules.value]
      ? {} : opts.preset_rules[rules.value];
    const body = { rules: Object.keys(over).length ? { ...base, ...over } : rules.value,
                   limit: /^\d+$/.test(limit) ? Number(limit) : limit, seats };
    if ($("seed").value !== "") body.seed = Number($("seed").value);
    const submit = $("create").querySelector("button[type=submit]");
    if (submit.disabled) return;  // one room a click: a double click sends one request
    submit.disabled = true;
    $("create-error").textContent = "creating the room...";
    let r, answer;
    try {
      r = await fetch("/api/rooms", { method: "POST", body: JSON.stringify(body) });
      answer = await r.json();
    } catch (e) {
      r = { ok: false }; answer = { error: "the server did not answer: " + e };
    } finally {
      submit.disabled = false;
    }
    $("create-error").textContent = "";
    if (!r.ok) { $("create-error").textContent = answer.error; return; }
    localStorage.setItem("belote-tokens-" + answer.room, JSON.stringify(answer.tokens));
    const seat = Object.keys(answer.tokens)[0];
    location.hash = `room=${answer.room}&seat=${seat}`;
  };
  const rooms = (await (await fetch("/api/rooms")).json()).rooms;
  const list = $("rooms");
  list.innerHTML = "";
  for (const room of rooms) {
    const li = document.createElement("li");
    const id = encodeURIComponent(room.id);
    const tokens = storedTokens(room.id);
    li.append(`${room.rules}, ${room.seats.join(" / ")}, scores ${room.scores.join(" - ")}${room.over ? " (over)" : ""}: `);
    for (const [s, t] of Object.entries(tokens)) {
      const invite = `${location.origin}/#room=${id}&seat=${s}&token=${encodeURIComponent(t)}`;
      li.append(link(`play seat ${s}`, `#room=${id}&seat=${s}`), " (",
        link("invite link", invite, `send this link to the person who takes seat ${s}`), ") ");
    }
    li.append(link("watch", `#room=${id}`));
    if (room.over) li.append(" ", link("replay", `#replay=${id}`));
    list.append(li);
  }
}

// ------------------------------------------------------------------ table
let socket = null;

let hintsWanted = false;
// the decision of the last view (its "decision"), and the last one answered: a second click
// before the next view sends nothing (the server refuses a repeated act too)
let decision = null, answered = null;
// the bots' cards one at a time: a view that adds several cards to the table draws them
// this many ms apart (the choice kept in this browser; 0: each view at once)
const PACE_KEY = "belote-pace", PACE_DEFAULT = 700;
function pace() {
  const ms = Number(localStorage.getItem(PACE_KEY) ?? PACE_DEFAULT);
  return Number.isFinite(ms) && ms >= 0 ? ms : PACE_DEFAULT;
}
let shown = null;  // the last view drawn
let pacing = false;  // cards being drawn one at a time: nothing can be clicked meanwhile
let views = Promise.resolve(), waitingViews = 0;  // views are drawn in turn
let tableNumber = 0;  // which table() the drawing belongs to

function table(roomId, seat) {
  show("table");
  $("hints").checked = hintsWanted;
  $("hints-box").hidden = seat === null;  // hints are a seat's
  $("hints").onchange = () => { hintsWanted = $("hints").checked; if (hintsWanted) askHints(); else clearHints(); };
  if (![...$("pace").options].some((o) => o.value === String(pace()))) $("pace").add(new Option(`${pace()} ms`, String(pace())));
  $("pace").value = String(pace());
  $("pace").onchange = () => localStorage.setItem(PACE_KEY, $("pace").value);
  const tokens = storedTokens(roomId);
  decision = null; answered = null; shown = null;
  const number = ++tableNumber;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  if (socket) socket.close();
  socket = new WebSocket(`${proto}://${location.host}/ws`);
  socket.onopen = () => {
    const join = { type: "join", room: roomId };
    if (seat !== null) { join.seat = Number(seat); join.token = tokens[seat]; }
    socket.send(JSON.stringify(join));
    $("status").textContent = seat === null ? "watching" : `seat ${seat}`;
  };
  let joined = false;  // no view yet: an error is the join's (no such room, a wrong token)
  socket.onmessage = async (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "error" && !joined) {  // back to the lobby, the link dropped from the address
      history.replaceState(null, "", location.pathname);
      await lobby();
      $("status").textContent = msg.message;
      return;
    }
    if (msg.type === "error") {  // the move was refused: the view again, clickable
      $("table-error").textContent = msg.message;
      answered = null;
      if (shown && !pacing) render(shown);
      return;
    }
    if (msg.type === "view") joined = true;
    if (msg.type === "hints") { if (!pacing) showHints(msg.values, msg.unit); return; }
    waitingViews++;
    views = views.then(() => present(msg.view, number))
      .catch((e) => { $("table-error").textContent = `the page failed to draw a view: ${e}`; })
      .finally(() => waitingViews--);
  };
  const mine = socket;
  socket.onclose = () => { if (socket === mine) $("status").textContent += " (disconnected: reload to join again)"; };
}

// the cards played between two views of one deal, one frame a card (the new view's own last
// card left to render): [{cards, leader, winner}], a finished trick's last frame with its
// winner, after the bids made meanwhile, one frame each ({bids: how many of the auction's});
// at the next deal, the last deal's last cards, then, while the new deal is bidding, its bids
// before the view's own last one ({bids, newDeal: true}); none where the views are not two
// such moments
function paceFrames(p, v) {
  if (!p || p.players !== v.players) return [];
  const frames = [], bids = [];
  const add = (cards, leader, from, winner) => {
    for (let k = Math.max(from, 1); k <= cards.length; k++) {
      frames.push({ cards: cards.slice(0, k), leader, winner: k === cards.length ? winner : -1 });
    }
  };
  const ended = v.deals.length === p.deals.length + 1 ? v.deals[v.deals.length - 1].last_trick : null;
  if (v.deal_index === p.deal_index && v.tricks >= p.tricks) {
    for (let k = p.auction.length + 1; k <= v.auction.length; k++) bids.push({ bids: k });
    if (v.tricks === p.tricks + 1) {  // p's trick finished, then the next one begun
      if (p.trick.length && p.trick_leader !== v.last_trick.leader) return [];
      add(v.last_trick.cards, v.last_trick.leader, p.trick.length + 1, v.last_trick.winner);
      add(v.trick, v.trick_leader, 1, -1);
    } else if (v.tricks === p.tricks && (!p.trick.length || p.trick_leader === v.trick_leader)) {
      add(v.trick, v.trick_leader, p.trick.length + 1, -1);
    }
    if (frames.length && !(v.tricks === p.tricks + 1 && !v.trick.length)) frames.pop();  // the view's own trick
    else if (!frames.length) bids.pop();  // the view's own last bid
    return bids.concat(frames);
  } else if (v.deal_index === p.deal_index + 1) {
    if (ended && p.hand_sizes.every((n) => n <= 1) && (!p.trick.length || p.trick_leader === ended.leader)) {
      add(ended.cards, ended.leader, p.trick.length + 1, ended.winner);  // the deal's last trick
    }
    if (v.phase === 0) {  // the new deal still bidding (the view's hand is the one it bids with): its bids
      for (let k = 1; k < v.auction.length; k++) frames.push({ bids: k, newDeal: true });  // but the last
    }
  }
  return frames;
}

// the moves of ``v``'s log that ``p``'s did not have (``log_count``: the moves logged so far);
// null where either view does not count them
function newMoves(p, v) {
  if (!p || p.log_count === undefined || v.log_count === undefined || v.log_count < p.log_count) return null;
  return v.log.slice(Math.max(0, v.log.length - (v.log_count - p.log_count)));
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// draw a view: the cards it adds one at a time (``pace``), then the whole view; a view behind
// others in the queue, or of another table(), is drawn at once or not at all
async function present(v, number) {
  if (number !== tableNumber) return;
  const frames = waitingViews > 1 || !pace() ? [] : paceFrames(shown, v);
  const shownBefore = shown;
  shown = v;
  const moves = frames.length || (shownBefore && v.deal_index === shownBefore.deal_index + 1) ? newMoves(shownBefore, v)
    : null;
  if (pace() && waitingViews <= 1 && moves && v.deal_index === shownBefore.deal_index + 1) {
    const end = moves.findIndex((e) => "deal_over" in e);  // a deal passed out: its last passes first
    if (end >= 0 && moves[end].deal_over === null) {
      const passes = moves.slice(0, end).filter((e) => e.move === "bid");
      frames.unshift(...passes.map((e, j) => ({ bids: shownBefore.auction.length + j + 1, passes: passes.slice(0, j + 1) })));
    }
  }
  if (frames.length) {
    pacing = true;
    try {
      const played = new Set(frames.flatMap((f) => (!f.newDeal && f.cards) || []));  // of the hand shown
      for (const svg of document.querySelectorAll("#hand svg.card")) {  // the card just played leaves the hand
        if (played.has(Number(svg.dataset.card))) svg.parentNode.remove();
        else svg.classList.remove("legal", "dim");  // none is playable until the view is drawn
      }
      clearHints();
      const sizes = shownBefore.hand_sizes.slice();  // the counts as drawn (frames need a view before)
      drawSeats(v, sizes, -1);
      $("hand").classList.add("waiting");
      $("actions").style.visibility = "hidden";  // its space kept: the hand does not move
      // the moves list follows the drawing: each frame shows the moves up to its own
      let upto = 0;  // how many of ``moves`` are listed
      const startNewDeal = moves ? moves.map((e) => "deal_over" in e).lastIndexOf(true) + 1 : 0;
      const listMoves = (f) => {
        if (!moves) return;
        let k = f.newDeal ? Math.max(upto, startNewDeal) : upto;
        const want = f.bids ? "bid" : "card";
        while (k < moves.length && moves[k].move !== want) k++;
        if (k < moves.length) upto = k + 1;
        fillList($("log"), logItems(v, shownBefore.log.concat(moves.slice(0, upto))));
        $("log").scrollTop = $("log").scrollHeight;
      };
      const closed = shownBefore.contract === null && v.contract !== null && v.deal_index === shownBefore.deal_index;
      for (const f of frames) {
        if (f.passes) {  // the passed-out deal's last passes
          fillList($("auction"), auctionItems(shownBefore, shownBefore.auction.length)
            .concat(f.passes.map((e) => ({ text: `${seatName(v, e.seat)}: ${e.label}` }))));
        } else if (f.newDeal || (closed && f.cards)) {  // the table as it stood at that move, nothing to click:
          // the new deal bidding (its hand), or the first cards after the auction closed (the contract, the
          // whole hands: a seat whose card is not drawn yet holds it and has not shown its declarations)
          const trick = f.cards || [];
          const held = v.hand_sizes.slice(), drawn = new Set();
          for (let j = 0; j < v.trick.length; j++) {
            const s = (v.trick_leader + j) % v.players;
            if (j < trick.length) drawn.add(s); else held[s]++;
          }
          const then = { ...v, legal: [], decision: null, to_act: -1, trick, hand_sizes: held,
                         declared: v.declared.map((d, s) => (drawn.has(s) ? d : [])) };
          if (f.bids) Object.assign(then, { auction: v.auction.slice(0, f.bids) });
          render(then);
          $("hand").classList.add("waiting");
          $("actions").style.visibility = "hidden";
        } else if (f.bids) {
          fillList($("auction"), auctionItems(v, f.bids));
          $("auction").scrollTop = $("auction").scrollHeight;
        } else {
          const caption = f.winner >= 0 ? `trick won by ${seatName(v, f.winner)}:` : "";
          drawTrick($("trick"), f.cards, f.leader, v.names, f.winner, caption);
          const s = (f.leader + f.cards.length - 1) % v.players;  // each card frame adds its last card
          sizes[s] = Math.max(0, sizes[s] - 1);
          drawSeats(v, sizes, -1);
        }
        listMoves(f);
        await sleep(f.winner >= 0 ? 2 * pace() : pace());
        if (number !== tableNumber) return;  // another table() or the lobby since: nothing of this view is drawn
      }
    } finally {
      $("hand").classList.remove("waiting");
      $("actions").style.visibility = "";
      pacing = false;
    }
  }
  $("table-error").textContent = v.failed || "";
  render(v);
}

function act(id) {
  if (pacing || decision === null || decision === answered) return;
  answered = decision;
  socket.send(JSON.stringify({ type: "act", action: id, decision }));
  for (const svg of document.querySelectorAll("#hand svg.card.legal")) svg.classList.remove("legal");  // sent:
  for (const b of document.querySelectorAll("#actions button")) b.disabled = true;  // nothing more to click
}
function askHints() { if (socket) socket.send(JSON.stringify({ type: "hints" })); }
function clearHints() { for (const e of document.querySelectorAll("#hand .hint")) e.remove(); }
function showHints(values, unit) {
  clearHints();
  for (const svg of document.querySelectorAll("#hand svg.card")) {
    const v = values[svg.dataset.card];
    if (v === undefined) continue;
    const tag = document.createElement("span");
    tag.className = "hint";
    tag.textContent = unit === "percent" ? v + "%" : (v > 0 ? "+" : "") + v;
    svg.parentNode.append(tag);
  }
}

// a seat's name in ``v``'s view, "(you)" after the viewer's own
function seatName(v, s) { return v.names[s] + (s === v.seat ? " (you)" : ""); }
// the line of seats: each seat's name and its cards in hand (``sizes``), ``toAct`` marked
function drawSeats(v, sizes, toAct) {
  $("others").replaceChildren(...sizes.map((n, s) => {
    const span = document.createElement("span");
    span.className = "seat" + (s === toAct ? " toact" : "");
    span.textContent = `${seatName(v, s)}: ${n} card${n === 1 ? "" : "s"}`;
    return span;
  }));
}
// the last 20 of the moves ``log`` as list items, the seats named as in ``v``
function logItems(v, log) {
  return log.slice(-20).map((e) => "deal_over" in e
    ? { text: `deal over: ${e.text || e.outcome}; points ${e.points ? e.points.join(" - ") : "none"}`, bold: true }
    : { text: `${seatName(v, e.seat)}: ${e.label}${"trick_won_by" in e ? " → trick to " + seatName(v, e.trick_won_by) : ""}` });
}
// the first ``upto`` bids of ``v``'s auction as list items
function auctionItems(v, upto) {
  return v.auction.slice(0, upto).map((b) => ({ text: `${seatName(v, b.seat)}: ${b.label}` }));
}

function render(v) {
  decision = v.decision;
  const me = v.seat;
  const names = v.names;
  const who = (s) => seatName(v, s);
  // a score's side: a team of two at four seats (yours named), else a seat
  const side = (i) => v.players === 4 ? `team ${i}${me !== null && v.sides[me] === i ? " (yours)" : ""}` : who(i);
  const handDone = v.hand_sizes.every((x) => x === 0) && v.last_trick;
  $("info").innerHTML = `<b>${v.contract ? "Contract: " + v.contract + ", " + who(v.taker) : "Bidding"}</b>`
    + ` &middot; dealer ${who(v.dealer)}`
    + (v.turned >= 0 ? ` &middot; turned card ${turnedText(v.turned, v.exchanged, who)}` : "")
    + (v.bottom >= 0 ? ` &middot; bottom card ${cardName(v.bottom)}` : "")
    + ` &middot; game scores ${v.scores.map((x, i) => side(i) + " " + x).join(", ")}`
    + ` &middot; card points won ${v.card_points.join(" - ")}`
    + (handDone ? ` (and the last trick's bonus to ${who(v.last_trick.winner)}: see the deal's result)` : "")
    + (v.step && v.step !== "cards" ? ` &middot; step: ${v.step}` : "")
    + declaredText(v, who);
  drawSeats(v, v.hand_sizes, v.to_act);
  drawTrick($("trick"), v.trick, v.trick_leader, names);
  // the last finished trick, always in sight: the bots may have played on since your card
  const last = $("last");
  const drawLast = (t, caption) => drawTrick(last, t.cards, t.leader, names, t.winner, caption);
  last.innerHTML = "";
  const lastEnd = v.log.findLast((e) => "deal_over" in e);
  if (v.last_trick) drawLast(v.last_trick, `last trick (${v.tricks}), won by ${who(v.last_trick.winner)}:`);
  else if (lastEnd && lastEnd.deal_over === null && v.phase !== 3) {  // until the new deal's first trick
    last.textContent = "the last deal was passed out (no contract): the cards were dealt again";
  } else if (v.deals.length && v.phase !== 3) {
    const d = v.deals[v.deals.length - 1];  // a new deal: the one before, as it ended
    const result = `deal ${v.deals.length}: ${d.text || d.outcome}; points ${d.points.join(" - ")}`;
    if (d.last_trick) drawLast(d.last_trick, `${result}. Its last trick, won by ${who(d.last_trick.winner)}:`);
    else last.textContent = result;
  }
  const legal = new Map(v.legal.map((a) => [a.id, a.label]));
  const hand = $("hand");
  hand.innerHTML = "";
  for (const c of v.hand) {
    const ok = legal.has(c);
    const svg = cardSvg(c, v.legal.some((a) => a.id < 32) ? ok : undefined);  // dimmed at card play only
    if (ok) svg.onclick = () => act(c);
    const slot = document.createElement("span");  // the card, and its hint below it
    slot.className = "slot";
    slot.append(svg);
    hand.append(slot);
  }
  const buttons = $("actions");
  buttons.innerHTML = "";
  for (const a of v.legal) {
    if (a.id < 32 && v.hand.includes(a.id)) continue;  // a card of the hand: clicked on the card
    const b = document.createElement("button");
    b.textContent = a.label;
    b.dataset.action = a.id;
    b.onclick = () => act(a.id);
    buttons.append(b);
  }
  if (v.legal.length) {
    const turn = document.createElement("b");
    turn.className = "yourturn";
    turn.textContent = v.legal.some((a) => a.id < 32 && v.hand.includes(a.id)) ? "Your turn: play a card " : "Your turn: ";
    buttons.prepend(turn);
  }
  const only = v.legal.length === 1 ? v.legal[0].label : "";  // a step asked of every seat, to hide who can act
  if (v.step === "exchange" && only === "keep") buttons.append(" (you hold no seven of trump to exchange for the turned card)");
  if (only === "decline declaration") buttons.append(" (you hold no combination to announce)");
  const labels = v.legal.map((a) => a.label);
  if (labels.includes("enough") || labels.includes("not enough")) {
    buttons.append(" (is the combination announced better than your best? enough: it is; not enough: yours is"
      + " better; equal: the same value, compared further)");
  }
  if (labels.includes("announce belote")) {
    buttons.append(" (announce it before playing your king or queen of trump: playing either without announcing"
      + " declines)");
  }
  if (v.legal.length === 0 && v.to_act >= 0) buttons.textContent = `waiting for ${who(v.to_act)}`;
  if (v.phase === 3) {
    const best = Math.max(...v.scores);
    const leaders = v.scores.map((x, i) => i).filter((i) => v.scores[i] === best);
    buttons.textContent = `game over: ${v.scores.map((x, i) => side(i) + " " + x).join(", ")}`
      + (leaders.length === 1 ? ` · ${side(leaders[0])} wins` : " · a tie");
    if (v.deals.length) {
      const d = v.deals[v.deals.length - 1];
      buttons.textContent += ` · last deal: ${d.text || d.outcome}`;
    }
  }
  // the lists as text nodes: a room's saved log is never markup
  fillList($("auction"), auctionItems(v, v.auction.length));
  fillList($("deals"), v.deals.map((d, i) => ({ text: `deal ${i + 1}: ${d.outcome}, ${d.points.join(" - ")}`,
                                               title: d.text })));
  fillList($("log"), logItems(v, v.log));
  for (const id of ["auction", "log"]) $(id).scrollTop = $(id).scrollHeight;  // the newest in sight
  if (hintsWanted && v.legal.some((a) => a.id < 32)) askHints();
}

// ------------------------------------------------------------------ replay viewer
// where the viewer's game comes from: a record's text (POST /api/replay) or a finished room
let replaySource = null;
// the source of the game the viewer shows (null: none)
let shownSource = null;

async function fetchReplay(source, query) {
  return source.room
    ? fetch(`/api/rooms/${encodeURIComponent(source.room)}/replay?${query}`)
    : fetch(`/api/replay?${query}`, { method: "POST", body: source.text });
}

async function openReplay(source, at = 0) {
  replaySource = source;
  const values = source.values || "0";
  const query = `values=${values}` + (source.deal !== undefined ? `&deal=${source.deal}` : "");
  $("v-busy").textContent = values === "expert" ? "the expert is searching every card of this deal..." : "";
  const r = await fetchReplay(source, query);
  const answer = await r.json();
  $("v-busy").textContent = "";
  const sameGame = shownSource && source.room === shownSource.room && source.text === shownSource.text;
  if (!r.ok) {
    if ($("viewer").hidden || !sameGame) { shownSource = null; await lobby(); $("replay-error").textContent = answer.error; }
    else $("v-busy").textContent = answer.error;  // the expert's values of the game shown: it stays
    return;
  }
  shownSource = source;
  viewer(answer, at);
}

function escapeText(x) {
  const d = document.createElement("div");
  d.textContent = String(x);
  return d.innerHTML;
}

function viewer(game, at = 0) {
  show("viewer");
  if (socket) { socket.close(); socket = null; }
  $("status").textContent = "replay";
  const frames = game.frames, step = $("v-step");
  // a duplicate match's game names who sat where (belote eval --games-dir)
  const plain = game.names.map((n, s) => game.match ? `${n} (${game.match.seats[s]})` : n);
  const names = plain.map(escapeText);  // for innerHTML; plain for text nodes
  $("v-match").innerHTML = game.match
    ? `duplicate match ${escapeText(game.match.a || "")} vs ${escapeText(game.match.b || "")}`
      + ("pair" in game.match ? `, pair ${game.match.pair}` : "") + ("set" in game.match ? `, set ${game.match.set}` : "")
      + ("copy" in game.match ? `, copy ${game.match.copy}` : "") : "";
  step.max = frames.length - 1;
  const draw = (k) => {
    k = Math.max(0, Math.min(frames.length - 1, k));
    step.value = k;
    const f = frames[k];
    $("v-pos").textContent = `${k + 1} / ${frames.length}`;
    $("v-info").innerHTML = `<b>deal ${f.deal + 1}</b> &middot; dealer ${names[f.dealer]}`
      + (f.contract ? ` &middot; contract ${f.contract} by ${names[f.taker]}` : "")
      + (f.turned >= 0 ? ` &middot; turned ${turnedText(f.turned, f.exchanged, (s) => names[s])}` : "")
      + (f.bottom >= 0 ? ` &middot; bottom ${cardName(f.bottom)}` : "")
      + ` &middot; card points won ${f.card_points.join(" - ")} &middot; scores ${f.scores.join(" - ")}`;
    const hands = $("v-hands");
    hands.innerHTML = "";
    f.hands.forEach((h, s) => {
      const row = document.createElement("div");
      row.className = "seatrow";
      row.innerHTML = names[s] + " ";
      for (const c of h) row.append(cardSvg(c));
      hands.append(row);
    });
    const box = $("v-trick");
    if (!f.trick.length && f.last_trick && k > 0 && frames[k - 1].trick.length) {  // this card ended the trick
      drawTrick(box, f.last_trick.cards, f.last_trick.leader, plain);
      const won = document.createElement("div");
      won.textContent = `trick won by ${plain[f.last_trick.winner]}`;
      box.append(won);
    } else drawTrick(box, f.trick, f.trick_leader, plain);
    const vals = f.values ? Object.entries(f.values).map(([c, x]) => cardName(Number(c)) + " "
      + (f.unit === "percent" ? x + "%" : (x > 0 ? "+" : "") + x)).join(", ") : "";
    $("v-move").innerHTML = (f.move ? `${names[f.move.seat]}: ${f.move.label}` : "the deal is dealt")
      + (vals ? ` <small>(${f.by || "hard"}: ${vals})</small>` : "")
      + (f.result ? `<br><b>deal over: ${f.result.text}</b>` : "")
      + (f.auction.length ? `<br>auction: ${f.auction.map((b) => names[b.seat] + " " + b.label).join(", ")}` : "");
    $("v-deals").innerHTML = frames.filter((x, i) => x.result && i <= k)
      .map((x) => `<li>${x.result.text}</li>`).join("");
    $("v-expert").onclick = () => openReplay({ ...replaySource, values: "expert", deal: f.deal }, k);
  };
  step.oninput = () => draw(Number(step.value));
  $("v-first").onclick = () => draw(0);
  $("v-prev").onclick = () => draw(Number(step.value) - 1);
  $("v-next").onclick = () => draw(Number(step.value) + 1);
  $("v-last").onclick = () => draw(frames.length - 1);
  draw(at);
}

// ------------------------------------------------------------------ routing
// why an address's room, seat and token are refused ("" when they are well formed)
function badLink(params) {
  if (params.has("room") && !ROOM_ID.test(params.get("room"))) return "its room is not a room id";
  if (params.has("seat") && !SEAT.test(params.get("seat"))) return "its seat is not a seat number";
  if (params.has("token") && !(params.has("seat") && TOKEN.test(params.get("token")))) return "its token is not a seat's token";
  return "";
}

async function route() {
  const params = new URLSearchParams(location.hash.slice(1));
  const bad = badLink(params);
  if (bad) {  // kept nowhere, shown nowhere but as text
    lobby();
    $("status").textContent = `this link is refused: ${bad}`;
    return;
  }
  if (params.has("room") && params.has("token")) {  // an invitation: keep its token, then drop it from the address
    const room = params.get("room"), seat = params.get("seat");
    const tokens = storedTokens(room);
    tokens[seat] = params.get("token");
    localStorage.setItem("belote-tokens-" + room, JSON.stringify(tokens));
    location.replace(`#room=${room}&seat=${seat}`);
    return;
  }
  if (params.has("room")) table(params.get("room"), params.has("seat") ? params.get("seat") : null);
  else if (params.has("replay")) {
    await openReplay({ room: params.get("replay") });
  } else lobby();
}
window.addEventListener("hashchange", route);
route();
