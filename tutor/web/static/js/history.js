// Finished games listed; a replay steps through a game move by move.
import { $, el, tr } from "./core.js";
import { api } from "./api.js";
import { positionView } from "./position.js";
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

async function openReplay(id) {
  const answer = await api(`/api/history/${id}`);
  const node = $("history");
  if (!answer.ok) { node.append(el("p", { class: "status bad", text: answer.data.error })); return; }
  const steps = answer.data.steps;
  let at = 0;
  const box = el("div", { class: "panel" });
  const draw = () => {
    const step = steps[at];
    box.replaceChildren(el("p", { class: "keys", text: step.header }),
      ...(step.action ? [el("p", { text: step.action })] : []),
      positionView(step.position),
      ...step.remarks.map((r) => el("p", { class: "good", text: r })),
      el("div", { class: "buttons" },
        el("button", { type: "button", onclick: () => { at = 0; draw(); } }, tr("first")),
        el("button", { type: "button", disabled: at === 0, onclick: () => { at -= 1; draw(); } }, tr("back")),
        el("button", { type: "button", class: "primary", disabled: at === steps.length - 1, onclick: () => { at += 1; draw(); } }, tr("next")),
        el("button", { type: "button", onclick: () => { at = steps.length - 1; draw(); } }, tr("last"))));
  };
  draw();
  node.replaceChildren(el("button", { type: "button", onclick: openHistory }, tr("back")), box);
}
