// Puzzles: the daily one, random or themed ones; the rating and streak come with every answer.
import { $, el, state, tr } from "./core.js";
import { api } from "./api.js";
import { comboView, miniCards } from "./cards.js";
import { attachSwipe, drawHand, raise, selectedText } from "./hand.js";

export async function openPuzzles() {
  takePuzzle(await api("/api/puzzle"));
}

export function bindPuzzles() {
  $("puzzle-daily").addEventListener("click", async () => takePuzzle(await api("/api/puzzle/start", { kind: "daily" })));
  $("puzzle-random").addEventListener("click", async () => takePuzzle(await api("/api/puzzle/start",
    { kind: "random", theme: $("puzzle-theme").value || null })));
}

function takePuzzle(answer) {
  const data = answer.data;
  const node = $("puzzle");
  if (!answer.ok) {
    node.querySelector(".status") ? (node.querySelector(".status").textContent = data.error)
      : node.prepend(el("p", { class: "status bad", role: "status", text: data.error }));
    return;
  }
  state.puzzleRev = data.rev;
  state.puzzle = data.puzzle;
  $("puzzle-rating").textContent = data.rating;
  $("puzzle-streak").textContent = data.streak;
  const themes = $("puzzle-theme");
  if (!themes.options.length) {
    themes.append(el("option", { value: "", text: tr("any_theme") }), ...data.themes.map((t) => el("option", { value: t.id, text: t.name })));
  }
  node.replaceChildren();
  const p = data.puzzle;
  if (!p) return;
  state.selected.clear();
  node.append(el("h2", { text: `${p.daily ? tr("daily") + " · " : ""}${p.title}` }), el("p", { text: p.goal }));
  const pos = el("div", { class: "position" });
  for (const hand of p.hands) {
    pos.append(el("div", { class: "row" }, el("span", { class: "name" },
      `${hand.to_move ? "▶ " : ""}${hand.name}${hand.role === "landlord" ? " ♛" : ""}`), miniCards(hand.cards)));
  }
  if (p.table) pos.append(el("div", { class: "row" }, `${p.table_by}: `, comboView(p.table)));
  node.append(pos);
  const status = el("p", { class: "status", role: "status", "aria-live": "polite", id: "puzzle-status" });
  node.append(status);
  const mover = p.hands[p.to_move];
  const hand = el("div", { class: "hand", role: "group", id: "puzzle-hand" });
  node.append(hand);
  const cards = mover ? mover.cards : [];
  drawHand(hand, cards, !p.finished);
  attachSwipe(hand, () => {});
  const log = el("ol", { class: "log panel" });
  const options = el("div", { class: "options" });
  node.append(options);
  const send = async (path, body) => takePuzzleMove(await api(path, { rev: state.puzzleRev, ...(body || {}) }));
  const playIt = (n) => send("/api/puzzle/move", n ? { n } : { cards: selectedText(cards) });
  node.append(el("div", { class: "buttons controls" },
    el("button", { type: "button", class: "primary", disabled: p.finished, onclick: () => playIt() }, tr("play")),
    el("button", { type: "button", disabled: p.finished || !p.can_pass, onclick: () => send("/api/puzzle/pass") }, tr("pass")),
    el("button", { type: "button", disabled: p.finished, onclick: () => send("/api/puzzle/hint") }, tr("hint")),
    el("button", { type: "button", disabled: p.finished, onclick: () => send("/api/puzzle/solution") }, tr("solution"))));
  node.append(log);
  for (const event of data.events || []) puzzleEvent(event, status, log, options, playIt, cards, hand);
}

function takePuzzleMove(answer) {
  const events = answer.ok ? answer.data.events : [];
  if (answer.ok) {
    // a choice of readings keeps the position: draw the options without redrawing
    if (events.some((e) => e.type === "options")) {
      state.puzzleRev = answer.data.rev;
      const playIt = (n) => api("/api/puzzle/move", { rev: state.puzzleRev, n }).then(takePuzzleMove);
      for (const event of events) puzzleEvent(event, $("puzzle-status"), $("puzzle").querySelector(".log"),
        $("puzzle").querySelector(".options"), playIt, [], $("puzzle-hand"));
      return;
    }
  }
  takePuzzle(answer);
}

function puzzleEvent(event, status, log, options, playIt, cards, hand) {
  if (event.type === "status") { status.textContent = event.text; status.className = `status ${event.ok ? "ok" : "bad"}`; return; }
  if (event.type === "options") {
    options.replaceChildren(el("span", { text: tr("choose_reading") }),
      ...event.options.map((o) => el("button", { type: "button", onclick: () => playIt(o.n) }, `${o.n}) ${o.name}`)));
    return;
  }
  if (event.type === "hint" && event.move) raise(event.move.cards, cards, hand);
  const cls = event.type === "wrong" || event.type === "not_legal" ? "badline" : event.type === "correct" || (event.type === "over" && event.solved) ? "good" : "";
  log.append(el("li", { class: cls, text: event.text || "" }));
  for (const move of event.moves || []) log.append(el("li", {}, `${move.who}: `, move.move ? comboView(move.move) : move.text));
  if (event.streak) log.append(el("li", { text: event.streak }));
  if (event.type === "over" || event.type === "wrong" || event.type === "not_legal" || event.type === "correct") {
    status.textContent = event.text; status.className = `status ${cls === "good" ? "ok" : cls ? "bad" : ""}`;
  }
}
