// Learn from your mistakes: each moment of a stored game is the table from your seat;
// the server judges every try and stores it.
import { $, el, state, tr } from "./core.js";
import { api } from "./api.js";
import { comboView, miniCards } from "./cards.js";
import { attachSwipe, drawHand, selectedText } from "./hand.js";
import { openHistory } from "./history.js";
import { currentView, show } from "./views.js";

export async function learnMistakes(id) {
  if (currentView() !== "history") { history.pushState(null, "", "/history"); await show("history"); }
  $("history").replaceChildren(el("p", { class: "status", role: "status", text: tr("mistakes_analysing") }));
  takeMistakes(await api("/api/mistakes/start", { game_id: id }));
}

async function mistakesAct(path, body) {
  takeMistakes(await api(path, { rev: state.mistakesRev, ...(body || {}) }));
}

function mistakesTable(table) {
  const box = el("div", { class: "position" }, el("div", { class: "row", text: table.game_cell }));
  for (const seat of [...table.seats.slice(1).reverse(), table.seats[0]]) {
    const last = seat.last && seat.last.kind === "play" ? comboView(seat.last)
      : seat.last ? el("span", { class: "pass", text: seat.last.text }) : null;
    box.append(el("div", { class: "row" }, el("span", { class: "name" },
      `${seat.to_move ? "▶ " : ""}${seat.name}${seat.role === "landlord" ? " ♛" : ""}`),
      seat.seat !== 0 ? el("span", { text: seat.count_text }) : null, last));
  }
  if (table.kitty) box.append(el("div", { class: "row" }, `${tr("kitty")}: `, miniCards(table.kitty)));
  return box;
}

function takeMistakes(answer) {
  const node = $("history");
  const data = answer.data;
  const status = $("mistakes-status");
  if (answer.status === 409 && data.rev !== undefined) {  // another tab moved on: draw its moment
    takeMistakes({ ok: true, status: 200, data: { ...data, events: [] } });
    $("mistakes-status").textContent = data.error;
    return;
  }
  if (!answer.ok) {
    if (status) { status.textContent = data.error; status.className = "status bad"; }
    else node.append(el("p", { class: "status bad", role: "status", text: data.error }));
    return;
  }
  state.mistakesRev = data.rev;
  const lines = (data.events || []).filter((e) => e.text && e.type !== "status");
  for (const e of data.events || []) {
    if (e.type === "status" && status) { status.textContent = e.text; status.className = `status ${e.ok ? "ok" : "bad"}`; }
  }
  if (!lines.length && (data.events || []).length) return;  // only the status line changed
  let log = $("mistakes-log");
  if (!log || !node.contains(log)) log = el("ol", { class: "log panel", id: "mistakes-log" });
  for (const e of lines) {
    log.append(el("li", { class: e.type === "judged" ? (e.accepted ? "good" : "badline") : "", text: e.text }));
  }
  const m = data.moment;
  const box = el("div", { class: "panel" }, el("h1", { text: tr("learn_mistakes") }));
  const said = el("p", { class: "status", role: "status", "aria-live": "polite", id: "mistakes-status" });
  if (lines.length) {
    const last = lines[lines.length - 1];
    said.textContent = last.text;
    said.className = `status ${last.type === "judged" ? (last.accepted ? "ok" : "bad") : ""}`;
  }
  state.moment = null;
  if (m && m.kind === "bid") {  // the auction: one button per choice (pass, 1, 2, 3), the hand shown
    const hand = el("div", { class: "hand", role: "group" });
    box.append(el("p", { class: "keys", text: m.text }), mistakesTable(m.table),
      ...m.auction.map((line) => el("p", { class: "row", text: line })), said, hand);
    drawHand(hand, m.table.hand, false);
    const bid = (choice) => mistakesAct("/api/mistakes/move", { cards: choice });
    // Keys as at the table's auction: 0 passes, 1–3 bid; H shows a better choice, N the next moment.
    state.moment = { node: hand, cards: [], canPass: false, changed: () => {}, play: () => {},
      pass: () => {}, show: () => mistakesAct("/api/mistakes/show"), skip: () => mistakesAct("/api/mistakes/skip"),
      bid: (n) => { const choice = n === 0 ? "pass" : String(n); if (m.bids.some((b) => b.bid === choice)) bid(choice); } };
    box.append(el("div", { class: "buttons controls" },
      ...m.bids.map((b) => el("button", { type: "button", onclick: () => bid(b.bid) }, b.label)),
      el("button", { type: "button", onclick: state.moment.show }, tr("show_better_bid")),
      el("button", { type: "button", onclick: state.moment.skip }, tr("skip_moment"))),
      el("p", { class: "keys", text: tr("mistakes_bid_keys") }));
  } else if (m) {
    state.selected.clear();
    const hand = el("div", { class: "hand", role: "group" });
    const text = () => selectedText(m.table.hand);
    box.append(el("p", { class: "keys", text: m.text }), mistakesTable(m.table), said, hand);
    drawHand(hand, m.table.hand, true);
    const changed = () => {
      if (text()) mistakesAct("/api/mistakes/select", { cards: text() });
      else { said.textContent = ""; said.className = "status"; }
    };
    attachSwipe(hand, changed);
    // The moment's actions, for the buttons and for the keys (keys.js reads state.moment).
    const moment = {
      node: hand, cards: m.table.hand, canPass: m.can_pass, changed,
      play: () => {
        if (text()) mistakesAct("/api/mistakes/move", { cards: text() });
        else { said.textContent = tr("status_empty"); said.className = "status bad"; }
      },
      pass: () => mistakesAct("/api/mistakes/pass"),
      show: () => mistakesAct("/api/mistakes/show"),
      skip: () => mistakesAct("/api/mistakes/skip"),
    };
    state.moment = moment;
    box.append(el("div", { class: "buttons controls" },
      el("button", { type: "button", class: "primary", onclick: moment.play }, tr("play")),
      el("button", { type: "button", disabled: !m.can_pass, onclick: moment.pass }, tr("pass")),
      el("button", { type: "button", onclick: moment.show }, tr("show_better")),
      el("button", { type: "button", onclick: moment.skip }, tr("skip_moment"))),
      el("p", { class: "keys", text: tr("mistakes_keys") }));
  } else box.append(said);
  // Nothing to replay: the one line is already the status above; a log repeating it would say it twice.
  const solo = !m && log.children.length === 1 && log.firstChild.textContent === said.textContent;
  node.replaceChildren(el("button", { type: "button", onclick: openHistory }, tr("back")), box, ...(solo ? [] : [log]));
}
