// The course (progress and stars) and a lesson's steps and tasks, as the lesson session tells them.
import { $, el, state, tr } from "./core.js";
import { api } from "./api.js";
import { miniCards } from "./cards.js";
import { feltView, statusFeed } from "./felt.js";
import { attachSwipe, refreshPressed, selectedText } from "./hand.js";

export async function openCourse() {
  const answer = await api("/api/lessons");
  drawCourse(answer.data);
}

function drawCourse(data) {
  state.lessonRev = data.rev;
  const node = $("course");
  const stars = (n) => (n === null ? tr("not_done") : "★".repeat(n) + "☆".repeat(3 - n));
  const review = data.review_due ? [el("button", { type: "button", onclick: () => startLesson("review") },
    tr("review_due", { n: data.review_due }))] : [];
  node.replaceChildren(el("h1", { text: tr("course") }), el("p", { text: data.progress }), ...review, el("table", { class: "course panel" },
    el("tbody", {}, data.course.map((row) => el("tr", {},
      el("td", { text: String(row.number) }), el("td", { text: row.title }),
      el("td", { class: "stars", "aria-label": row.stars === null ? tr("not_done") : tr("stars", { n: row.stars }), text: stars(row.stars) }),
      el("td", {}, el("button", { type: "button", "aria-label": `${tr("start_lesson")}: ${row.title}`,
        onclick: () => startLesson(row.id) }, tr("start_lesson"))))))));
  node.hidden = false;
  $("lesson").hidden = true;
}

export async function startLesson(id) {
  const answer = await api("/api/lesson/start", { id });
  $("course").hidden = true;
  const node = $("lesson");
  node.replaceChildren(el("button", { type: "button", onclick: openCourse }, tr("back_to_course")));
  node.hidden = false;
  takeLesson(answer);
}

function takeLesson(answer) {
  const node = $("lesson");
  if (!answer.ok) { node.append(el("p", { class: "status bad", role: "status", text: answer.data.error })); return; }
  state.lessonRev = answer.data.rev;
  for (const event of answer.data.events) lessonEvent(node, event);
  node.querySelector(".lesson-end")?.scrollIntoView({ block: "nearest" });
}

const lessonSelect = statusFeed("/api/lesson/select", () => state.lessonRev);

async function lessonAct(path, body) {
  lessonSelect.cancel();
  takeLesson(await api(path, { rev: state.lessonRev, ...(body || {}) }));
}

function lessonEvent(node, event) {
  const clearTask = () => node.querySelectorAll(".task-live").forEach((n) => n.classList.remove("task-live"));
  if (event.type === "started") {
    node.append(el("h1", { text: event.title }), ...(event.summary ? [el("p", { text: event.summary })] : []));
  } else if (event.type === "step") {
    clearTask();
    node.querySelectorAll(".task-controls").forEach((n) => n.remove());
    const step = el("div", { class: "panel step" }, el("p", { class: "keys", text: event.header }), el("p", { text: event.text }));
    state.selected.clear();  // a new step's table starts with no card raised (the last step's were its own)
    state.suitSeed = `lesson:${event.header}`;
    if (event.felt) step.append(feltView(event.felt, { label: tr("lesson_table") }).node);
    if (!event.has_task) step.append(el("div", { class: "buttons task-controls" },
      el("button", { type: "button", class: "primary", onclick: () => lessonAct("/api/lesson/next") }, tr("next_step"))));
    node.append(step);
  } else if (event.type === "task") {
    node.querySelectorAll(".task-controls").forEach((n) => n.remove());
    const box = el("div", { class: "panel task-controls" });
    box.append(el("p", { class: "prompt", text: event.prompt }));
    if (event.bid_status) box.append(el("p", { text: event.bid_status }));
    if (event.cards) box.append(el("p", { class: "to-name" }, miniCards(event.cards)));
    state.selected.clear();
    // The position as a table (the coached game's component); a play or line task is answered by
    // raising cards of the hand fanned at the bottom, as in a game.
    const table = event.felt ? feltView(event.felt, { active: event.active, label: tr("lesson_table") }) : null;
    const status = table ? table.status : el("p", { class: "status", role: "status", "aria-live": "polite" });
    if (table) box.append(table.node);
    else box.append(status);
    if (event.active) {
      const cards = event.felt.hand;
      // each change of the raised cards: the status line («Pair · playable» or why not), from the server
      attachSwipe(table.hand, () => lessonSelect(selectedText(cards), status));
      table.node.append(el("div", { class: "buttons controls" },
        el("button", { type: "button", class: "primary", onclick: () => lessonAct("/api/lesson/answer", { answer: selectedText(cards) || "pass" }) }, tr("play")),
        el("button", { type: "button", onclick: () => lessonAct("/api/lesson/answer", { answer: "pass" }) }, tr("pass"))));
    } else if (event.options) {
      box.append(el("div", { class: "buttons options-answer", role: "group", "aria-label": event.prompt }, event.options.map((o) =>
        el("button", { type: "button", onclick: () => lessonAct("/api/lesson/answer", { answer: o.answer }) }, o.label))));
    } else {
      const input = el("input", { type: "text", inputmode: "numeric", "aria-label": event.prompt, size: 8 });
      box.append(el("form", { onsubmit: (e) => { e.preventDefault(); lessonAct("/api/lesson/answer", { answer: input.value }); } },
        input, el("button", { type: "submit", class: "primary" }, tr("answer"))));
    }
    box.append(el("div", { class: "buttons" },
      el("button", { type: "button", onclick: () => lessonAct("/api/lesson/hint") }, tr("hint")),
      el("button", { type: "button", onclick: () => lessonAct("/api/lesson/restart") }, tr("restart_step"))));
    node.append(box);
  } else if (event.type === "status") {
    const status = node.querySelector(".task-controls .status");
    if (status) { status.textContent = event.text; status.className = `status ${event.ok ? "ok" : "bad"}`; }
  } else if (event.type === "answered") {
    // a wrong answer was not played: lower its cards for the next try
    const hand = node.querySelector(".task-controls .hand");
    if (!event.ok && hand) { state.selected.clear(); refreshPressed(hand); }
    // The session's lines, in its order; the panel says right or wrong by a mark as well as colour.
    node.append(el("div", { class: `panel lines answered ${event.ok ? "ok" : "bad"}` },
      el("p", { class: event.ok ? "good" : "badline", text: event.lines[0] }),
      event.lines.slice(1).map((line) => el("p", { text: line }))));
  } else if (event.type === "hint" || event.type === "say") {
    node.append(el("p", { class: "panel", text: event.text }));
  } else if (event.type === "done") {
    node.querySelectorAll(".task-controls").forEach((n) => n.remove());
    node.append(el("div", { class: "panel lesson-end" }, el("p", { class: "good", role: "status", text: event.text }),
      el("p", { class: "stars", text: "★".repeat(event.stars) + "☆".repeat(3 - event.stars) }),
      event.next ? el("button", { type: "button", class: "primary", onclick: () => startLesson(event.next) }, tr("next_lesson")) : null,
      el("button", { type: "button", onclick: openCourse }, tr("back_to_course"))));
  }
}
