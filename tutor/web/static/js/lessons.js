// The course (progress and stars) and a lesson's steps and tasks, as the lesson session tells them.
import { $, el, state, tr } from "./core.js";
import { api } from "./api.js";
import { miniCards } from "./cards.js";
import { feltView, statusFeed } from "./felt.js";
import { attachSwipe, drawHand, refreshPressed, selectedText } from "./hand.js";

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

/**
 * A lesson is played on one screen: each step replaces the one before (the table first, the step's text
 * as a caption under it, opened in full on a tap), and the verdict on the last answer stays on top of the
 * step that follows it. ``stage`` is the current step's box inside #lesson.
 */
function stage() {
  const node = $("lesson");
  return node.querySelector(".lesson-stage") || node.appendChild(el("div", { class: "lesson-stage" }));
}

function takeLesson(answer) {
  const node = $("lesson");
  if (!answer.ok) { stage().append(el("p", { class: "status bad", role: "status", text: answer.data.error })); return; }
  state.lessonRev = answer.data.rev;
  const batch = { feedback: [] };
  for (const event of answer.data.events) lessonEvent(stage(), event, batch);
  node.querySelector(".lesson-end")?.scrollIntoView({ block: "nearest" });
}

const lessonSelect = statusFeed("/api/lesson/select", () => state.lessonRev);

async function lessonAct(path, body) {
  lessonSelect.cancel();
  takeLesson(await api(path, { rev: state.lessonRev, ...(body || {}) }));
}

/** The step's text under its table: its first lines, the rest a tap away (a drawer that opens in place). */
function caption(text) {
  const body = el("p", { class: "caption-text", text });
  const box = el("div", { class: "step-caption" }, body);
  requestAnimationFrame(() => {
    if (body.scrollHeight <= body.clientHeight + 1) return;
    const more = el("button", { type: "button", class: "small", "aria-expanded": "false", onclick: () => {
      const open = !box.classList.contains("open");
      box.classList.toggle("open", open);
      more.setAttribute("aria-expanded", open ? "true" : "false");
      more.textContent = tr(open ? "phone_less" : "status_more");
    } }, tr("status_more"));
    box.append(more);
  });
  return box;
}

/**
 * The hand laid out again once its table is on the page: built off the page it guessed the screen's width,
 * and a phone on its side gives the table only the left column (app.css), where 17 cards need two rows.
 */
function fitHand(hand, cards, active) {
  drawHand(hand, cards || [], active);
}

function lessonEvent(node, event, batch = { feedback: [] }) {
  const clearTask = () => node.querySelectorAll(".task-live").forEach((n) => n.classList.remove("task-live"));
  if (event.type === "started") {
    $("lesson").insertBefore(el("div", { class: "lesson-head" }, el("h1", { text: event.title }),
      ...(event.summary ? [el("p", { class: "lesson-summary", text: event.summary })] : [])), node);
  } else if (event.type === "step") {
    clearTask();
    node.replaceChildren(...batch.feedback);  // a new step: the old one goes, the verdict just given stays
    node.append(el("p", { class: "keys step-header", text: event.header }));
    const step = el("div", { class: "step" });
    state.selected.clear();  // a new step's table starts with no card raised (the last step's were its own)
    state.suitSeed = `lesson:${event.header}`;
    const shown = event.felt ? feltView(event.felt, { label: tr("lesson_table") }) : null;
    if (shown) step.append(shown.node);
    if (event.text) step.append(caption(event.text));
    if (!event.has_task) step.append(el("div", { class: "buttons task-controls" },
      el("button", { type: "button", class: "primary", onclick: () => lessonAct("/api/lesson/next") }, tr("next_step"))));
    node.append(step);
    if (shown) fitHand(shown.hand, event.felt.hand, false);
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
    if (table) fitHand(table.hand, event.felt.hand, event.active);
  } else if (event.type === "status") {
    const status = node.querySelector(".task-controls .status");
    if (status) { status.textContent = event.text; status.className = `status ${event.ok ? "ok" : "bad"}`; }
  } else if (event.type === "answered") {
    // a wrong answer was not played: lower its cards for the next try
    const hand = node.querySelector(".task-controls .hand");
    if (!event.ok && hand) { state.selected.clear(); refreshPressed(hand); }
    // The session's lines, in its order; the panel says right or wrong by a mark as well as colour.
    node.querySelectorAll(".answered").forEach((n) => n.remove());  // one verdict at a time: the newest
    const panel = el("div", { class: `panel lines answered ${event.ok ? "ok" : "bad"}` },
      el("p", { class: event.ok ? "good" : "badline", text: event.lines[0] }),
      event.lines.slice(1).map((line) => el("p", { text: line })));
    batch.feedback.push(panel);
    node.prepend(panel);
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
