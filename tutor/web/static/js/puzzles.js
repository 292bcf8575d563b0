// Puzzles: the daily one, random or themed ones, the failed ones again (the replay queue); the rating
// and streak come with every answer. The position is drawn as a table; the solution and a wrong move's
// refutation are stepped through move by move. Every judgement is the server's (the puzzle session).
import { $, el, state, tr } from "./core.js";
import { api } from "./api.js";
import { comboView } from "./cards.js";
import { feltView, statusFeed } from "./felt.js";
import { attachSwipe, raise, selectedText } from "./hand.js";
import { lineStepper } from "./stepper.js";
import { currentView } from "./views.js";

let stepper = null;  // the line being stepped through, if any (the arrow keys move it)

export async function openPuzzles() {
  const answer = await api("/api/puzzle");
  takePuzzle(answer);
  if (answer.ok && !answer.data.puzzle) await openLibrary();  // nothing open: the library, not an empty page
}

async function startPuzzle(kind, id) {
  takePuzzle(await api("/api/puzzle/start", { kind, theme: $("puzzle-theme").value || null, ...(id ? { id } : {}) }));
}

/**
 * The library: every puzzle with its themes, difficulty and the learner's result, filtered by the
 * theme chosen in the bar, a difficulty and a result; shown a page at a time (a phone lists 20).
 */
async function openLibrary() {
  const answer = await api("/api/puzzle/library");
  const node = $("puzzle");
  if (!answer.ok) { node.replaceChildren(el("p", { class: "status bad", role: "status", text: answer.data.error })); return; }
  stepper = null;
  const data = answer.data;
  const themeName = new Map(data.themes.map((t) => [t.id, t.name]));
  const pick = (id, label, values) => el("label", { class: "pick" }, el("span", { text: label }),
    el("select", { id }, values.map(([v, text]) => el("option", { value: v, text }))));
  const band = pick("library-band", tr("difficulty"), [["", tr("any_difficulty")],
    ...["easy", "medium", "hard"].map((b) => [b, tr(`difficulty_${b}`)])]);
  const result = pick("library-result", tr("result"), [["", tr("any_result")],
    ...["new", "solved", "again"].map((r) => [r, tr(`library_${r}`)])]);
  const list = el("ul", { class: "library" });
  const more = el("button", { type: "button", class: "small" }, tr("more"));
  let shown = 0;
  const rows = () => data.puzzles.filter((p) => (!$("puzzle-theme").value || p.themes.includes($("puzzle-theme").value))
    && (!$("library-band").value || p.difficulty === $("library-band").value)
    && (!$("library-result").value || p.status === $("library-result").value));
  const draw = (reset) => {
    const found = rows();
    if (reset) { list.replaceChildren(); shown = 0; }
    for (const p of found.slice(shown, shown + 20)) {
      list.append(el("li", { class: `library-row ${p.status}` },
        el("span", { class: "library-name", text: p.name }, p.mine ? el("span", { class: "mine", text: tr("library_mine") }) : null),
        el("span", { class: `band ${p.difficulty}`, text: `${p.difficulty_text} · ${p.rating}` }),
        el("span", { class: "library-status", text: p.status_text }),
        el("span", { class: "library-themes", text: p.themes.map((t) => themeName.get(t) || t).join(", ") }),
        el("button", { type: "button", class: "small", "aria-label": `${tr("open_puzzle")}: ${p.name}`,
          onclick: () => startPuzzle("pick", p.id) }, tr("open_puzzle"))));
    }
    shown = Math.min(found.length, shown + 20);
    more.hidden = shown >= found.length;
    count.textContent = tr("library_shown", { shown, total: found.length });
  };
  const count = el("p", { class: "keys", role: "status" });
  more.addEventListener("click", () => draw(false));
  for (const select of [band.querySelector("select"), result.querySelector("select")]) select.addEventListener("change", () => draw(true));
  $("puzzle-theme").onchange = () => { if (list.isConnected) draw(true); };
  node.replaceChildren(el("section", { class: "panel library-panel", "aria-labelledby": "library-title" },
    el("h2", { id: "library-title", text: tr("library_title") }), el("p", { text: data.summary }),
    el("div", { class: "bar" }, band, result), count, list, more));
  draw(true);
}

/**
 * The bar's cue that it scrolls (app.css: a "›" at its right edge): marked while entries lie beyond its right edge.
 * A phone on its side has one row for the bar; at 640 px the Russian entries run past it, and a scrollbar hidden
 * (it took a row of its own) left «Библиотека» out of sight with nothing to say so.
 */
function markBarMore() {
  const bar = document.querySelector("#view-puzzle > .bar");
  const more = bar.scrollLeft + bar.clientWidth < bar.scrollWidth - 1;
  if (more) bar.dataset.more = "right";
  else delete bar.dataset.more;
}

/**
 * The theme's menu and the streaks behind one button on a small phone (app.css shows the button there and makes
 * #puzzle-extra its panel; elsewhere they stand in the bar and the button is hidden). On its side they lay past the
 * bar's scrolling end, out of sight; the button stays at the bar's right edge. Escape, or a tap outside, closes it.
 */
function bindExtra() {
  const more = $("puzzle-more"), extra = $("puzzle-extra");
  const open = () => more.getAttribute("aria-expanded") === "true";
  const show = (on) => more.setAttribute("aria-expanded", on ? "true" : "false");
  more.addEventListener("click", () => show(!open()));
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !open()) return;
    show(false);
    if (extra.contains(document.activeElement)) more.focus();
  });
  document.addEventListener("pointerdown", (e) => {
    if (open() && !more.contains(e.target) && !extra.contains(e.target)) show(false);
  });
  // the title's row keeps room for the rating where the rating stands on it (app.css, a small phone)
  const rating = $("puzzle-rating");
  new ResizeObserver(() => {
    document.getElementById("view-puzzle").style.setProperty("--rating-w", `${Math.ceil(rating.getBoundingClientRect().width)}px`);
  }).observe(rating);
}

export function bindPuzzles() {
  const bar = document.querySelector("#view-puzzle > .bar");
  bar.addEventListener("scroll", markBarMore, { passive: true });
  new ResizeObserver(markBarMore).observe(bar);
  bindExtra();
  $("puzzle-daily").addEventListener("click", () => startPuzzle("daily"));
  $("puzzle-random").addEventListener("click", () => startPuzzle("random"));
  $("puzzle-streak-run").addEventListener("click", () => startPuzzle("streak"));
  $("puzzle-replay").addEventListener("click", () => startPuzzle("replay"));
  $("puzzle-library").addEventListener("click", openLibrary);
  document.addEventListener("keydown", (e) => {
    if (!stepper || !document.contains(stepper) || currentView() !== "puzzle") return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea" || stepper.contains(e.target)) return;
    if (stepper.step(e.key)) e.preventDefault();
  });
}

function drawBar(data) {
  $("puzzle-rating").textContent = data.rating;
  $("puzzle-streak").textContent = data.streak;
  $("puzzle-best-streak").textContent = data.streak_run ? data.streak_run.best : "";
  const replay = $("puzzle-replay");
  replay.hidden = !data.to_replay;
  replay.textContent = tr("replay_failed", { n: data.to_replay });
  const themes = $("puzzle-theme");
  if (!themes.options.length) {
    themes.append(el("option", { value: "", text: tr("any_theme") }), ...data.themes.map((t) => el("option", { value: t.id, text: t.name })));
  }
  requestAnimationFrame(markBarMore);  // its entries may have changed (the replay button, the rating's words)
}

function takePuzzle(answer) {
  const data = answer.data;
  const node = $("puzzle");
  if (!answer.ok) {
    const status = node.querySelector(".status");
    if (status) { status.textContent = data.error; status.className = "status bad"; }
    else node.prepend(el("p", { class: "status bad", role: "status", text: data.error }));
    return;
  }
  state.puzzleRev = data.rev;
  const before = state.puzzle;
  state.puzzle = data.puzzle;
  drawBar(data);
  node.replaceChildren();
  stepper = null;
  const p = data.puzzle;
  if (!p) return;
  state.selected.clear();
  state.suitSeed = `puzzle:${p.id}`;
  const run = data.streak_run && data.streak_run.run;  // a streak: its line heads the puzzle, no hints
  if (run) node.append(el("p", { class: "streak-run", role: "status", text: run.text }));
  node.append(el("h2", { text: `${p.daily ? tr("daily") + " · " : ""}${p.title}` }), el("p", { text: p.goal }),
    ...(p.themes_line ? [el("p", { class: "keys", text: p.themes_line })] : []));  // (append() would write "null")
  const table = feltView(p.felt, { active: !p.finished, label: tr("puzzle_table") });
  table.status.id = "puzzle-status";
  table.hand.id = "puzzle-hand";
  const cards = p.felt.hand;
  // each change of the raised cards: the status line («Pair · playable» or why not), from the server
  attachSwipe(table.hand, () => lookAt(selectedText(cards), table.status));
  const options = el("div", { class: "options" });
  const send = async (path, body) => takePuzzleMove(await api(path, { rev: state.puzzleRev, ...(body || {}) }));
  const playIt = (n) => send("/api/puzzle/move", n ? { n } : { cards: selectedText(cards) });
  table.node.append(options, el("div", { class: "buttons controls" },
    el("button", { type: "button", class: "primary", disabled: p.finished, onclick: () => playIt() }, tr("play")),
    el("button", { type: "button", disabled: p.finished || !p.can_pass, onclick: () => send("/api/puzzle/pass") }, tr("pass")),
    el("button", { type: "button", disabled: p.finished || Boolean(run), onclick: () => send("/api/puzzle/hint") }, tr("hint")),
    el("button", { type: "button", disabled: p.finished, onclick: () => send("/api/puzzle/solution") }, tr("solution"))));
  node.append(table.node);
  // on its side the log scrolls inside itself (app.css): reachable by the keyboard, named for a screen reader
  const log = el("ol", { class: "log panel", tabindex: "0", "aria-label": tr("puzzle_log") });
  node.append(log);
  for (const event of data.events || []) puzzleEvent(event, table.status, log, options, playIt, cards, table.hand);
  if (stepper) { node.insertBefore(stepper, log); }
  // A team puzzle: on the partner's turn the hand at the bottom is the partner's — said, never silent.
  if (before && before.id === p.id && before.hand_owner !== p.hand_owner && !p.finished) {
    table.status.textContent = p.hand_switch;
    table.status.className = "status switch";
    log.append(el("li", { class: "switch", text: p.hand_switch }));
  }
}

const lookAt = statusFeed("/api/puzzle/select", () => state.puzzleRev);

function takePuzzleMove(answer) {
  lookAt.cancel();
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
  const cls = event.type === "wrong" || event.type === "not_legal" || event.type === "streak_over" ? "badline"
    : event.type === "correct" || (event.type === "over" && event.solved) ? "good" : "";
  log.append(el("li", { class: cls, text: event.text || "" }));
  if (event.line) stepper = lineStepper(event.line_title, event.line);  // stepped through, not listed
  else for (const move of event.moves || []) log.append(el("li", {}, `${move.who}: `, move.move ? comboView(move.move) : move.text));
  if (event.rating_change) log.append(el("li", { text: event.rating_change }));
  if (event.streak) log.append(el("li", { text: event.streak }));
  if (["over", "wrong", "not_legal", "correct", "streak_over", "unclear"].includes(event.type)) {
    status.textContent = event.text; status.className = `status ${cls === "good" ? "ok" : cls ? "bad" : ""}`;
  }
}


