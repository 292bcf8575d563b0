// Finished games listed; a replay steps through a game move by move.
import { $, el, tr } from "./core.js";
import { api } from "./api.js";
import { feltView } from "./felt.js";
import { currentView } from "./views.js";
import { learnMistakes } from "./mistakes.js";

export async function openHistory() {
  const answer = await api("/api/history");
  const node = $("history");
  if (!answer.ok) { node.replaceChildren(el("p", { class: "status bad", text: answer.data.error })); return; }
  const games = answer.data.games;
  if (!games.length) { node.replaceChildren(el("p", { text: tr("history_empty") })); return; }
  node.replaceChildren(el("h1", { text: answer.data.title }), el("table", { class: "course panel" },
    el("thead", {}, el("tr", {}, answer.data.columns.map((c) => el("th", { text: c })), el("th", {}))),
    el("tbody", {}, games.map((g) => el("tr", {}, g.cells.map((c, i) => el("td", { text: String(c),
      "data-label": answer.data.columns[i] })),
      el("td", {}, el("button", { type: "button", onclick: () => openReplay(g.id) }, tr("replay")),
        el("button", { type: "button", onclick: () => learnMistakes(g.id) }, tr("learn_mistakes"))))))));
}

let replayKey = null;  // the open replay's arrow keys (see bindHistory)

/** ← → (and Home / End) step through an open replay when the history view shows it. */
export function bindHistory() {
  document.addEventListener("keydown", (e) => {
    if (!replayKey || currentView() !== "history" || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    if (replayKey(e.key)) e.preventDefault();
  });
}

export async function openReplay(id) {
  const answer = await api(`/api/history/${id}`);
  const node = $("history");
  if (!answer.ok) { node.append(el("p", { class: "status bad", text: answer.data.error })); return; }
  const steps = answer.data.steps;
  const lastAt = steps.length - 1;
  let at = 0;
  // The buttons stay put (focus stays on them); each step's table is the game's table component.
  const where = el("p", { class: "keys", role: "status", "aria-live": "polite" });
  const body = el("div");
  const go = (to) => { at = Math.max(0, Math.min(lastAt, to)); draw(); };
  const first = el("button", { type: "button", onclick: () => go(0) }, tr("first"));
  const back = el("button", { type: "button", onclick: () => go(at - 1) }, tr("back"));
  const next = el("button", { type: "button", class: "primary", onclick: () => go(at + 1) }, tr("next"));
  const last = el("button", { type: "button", onclick: () => go(lastAt) }, tr("last"));
  const box = el("section", { class: "panel replay", "aria-label": tr("replay") }, where, body,
    el("div", { class: "buttons stepper" }, first, back, next, last), el("p", { class: "keys", text: tr("stepper_keys") }));
  function draw() {
    const step = steps[at];
    where.textContent = step.header;
    body.replaceChildren(...(step.action ? [el("p", { text: step.action })] : []),
      feltView(step.table, { label: tr("table") }).node,
      ...step.remarks.map((r) => el("p", { class: "good", text: r })));
    first.disabled = back.disabled = at === 0;
    next.disabled = last.disabled = at === lastAt;
  }
  const moves = { ArrowLeft: () => at - 1, ArrowRight: () => at + 1, Home: () => 0, End: () => lastAt };
  replayKey = (key) => {
    if (!moves[key] || !document.contains(box)) return false;
    go(moves[key]());
    return true;
  };
  draw();
  node.replaceChildren(el("button", { type: "button", onclick: openHistory }, tr("back")), box);
}
