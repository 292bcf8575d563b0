// Your habits across games (issue 29): the reasons that cost you the most points, from /api/insights
// (the data of `ddz insights --json`, worded by the server); each moment links to its game.
import { $, el, tr } from "./core.js";
import { api } from "./api.js";
import { openReplay } from "./history.js";
import { learnMistakes } from "./mistakes.js";
import { show } from "./views.js";

/** A moment of a habit: a flagged one opens "learn from your mistakes", a small cost the game's replay. */
async function openMoment(moment) {
  if (moment.flagged) { await learnMistakes(moment.game); return; }
  history.pushState(null, "", "/history");
  await show("history");
  await openReplay(moment.game);
}

export async function openInsights() {
  const node = $("insights");
  const answer = await api("/api/insights");
  if (!answer.ok) { node.replaceChildren(el("p", { class: "status bad", text: answer.data.error })); return; }
  const data = answer.data;
  const items = data.patterns.map((p) => el("li", { class: "panel habit", "data-code": p.code },
    el("h2", { text: p.name }),
    el("p", { text: p.text }),
    p.small_text ? el("p", { class: "keys", text: p.small_text }) : null,
    el("p", { class: "moments" }, `${tr("insights_moments")} `,
      p.moments.map((m) => el("button", { type: "button", class: "small", "data-game": String(m.game),
        onclick: () => openMoment(m) }, m.text)))));
  const parts = [el("h1", { text: data.title }), el("p", { text: data.summary })];
  if (items.length) parts.push(el("ol", { class: "habits" }, items));
  if (data.unanalysed) parts.push(el("p", { class: "keys", text: data.unanalysed }));
  node.replaceChildren(...parts);
}
