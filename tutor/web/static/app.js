// The web table's script: selection and drawing only. Every rule, status line and remark comes
// from the server (tutor/web), which is a thin adapter over the same sessions as the terminal.
"use strict";

const S = {};            // the page's labels (web.* catalogue), in the learner's language
const state = { lang: "en", game: null, rev: 0, selected: new Set(), seq: 0, busy: 0,
                puzzle: null, puzzleRev: 0, lesson: null, lessonRev: 0, mistakesRev: 0, settings: null };
const $ = (id) => document.getElementById(id);
const RANK_FACE = { T: "10", X: "JOKER", D: "JOKER" };

function tr(key, values) {
  let text = S[key] || key;
  for (const [k, v] of Object.entries(values || {})) text = text.replace(`{${k}}`, v);
  return text;
}

function cardName(rank) {
  if (rank === "X") return tr("small_joker");
  if (rank === "D") return tr("big_joker");
  if (rank === "T") return "10";
  return rank;
}

function rankClasses(rank) {
  if (rank === "2") return ["two"];
  if (rank === "X") return ["joker", "small-joker"];
  if (rank === "D") return ["joker", "big-joker"];
  return [];
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function mini(rank) {
  return el("span", { class: ["mini", ...rankClasses(rank)].join(" "), title: cardName(rank),
                      "aria-label": cardName(rank) }, RANK_FACE[rank] === "JOKER" ? (rank === "D" ? "★J" : "☆J") : (RANK_FACE[rank] || rank));
}

function miniCards(cards) {
  return el("span", { class: "minis" }, (cards || []).map(mini));
}

function comboView(move) {
  if (!move) return el("span", { class: "pass", text: tr("pass") });
  return el("span", {}, miniCards(move.cards), el("span", { class: "combo-name", text: move.name }));
}

// ------------------------------------------------------------------ talking to the server
async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const sep = path.includes("?") ? "&" : "?";
  state.busy += 1;
  $("busy").hidden = false;
  $("busy").textContent = tr("waiting");
  document.body.setAttribute("aria-busy", "true");
  try {
    const response = await fetch(`${path}${sep}lang=${state.lang}`, options);
    const data = await response.json();
    return { ok: response.ok, status: response.status, data };
  } finally {
    state.busy -= 1;
    if (!state.busy) { $("busy").hidden = true; document.body.removeAttribute("aria-busy"); }
  }
}

async function loadStrings() {
  const { data } = await api("/api/strings");
  Object.assign(S, data.strings);
  document.documentElement.lang = state.lang;
  document.title = tr("title");
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = tr(node.dataset.t);
  for (const node of document.querySelectorAll("[data-bid]")) {
    const n = Number(node.dataset.bid);
    node.textContent = n ? tr("bid", { n }) : tr("pass");
  }
  $("keys").textContent = tr("keyboard_help");
}

// ------------------------------------------------------------------ views
const VIEWS = ["play", "learn", "puzzle", "history", "settings"];

function currentView() {
  const name = location.pathname.replace(/^\//, "") || "play";
  return VIEWS.includes(name) ? name : "play";
}

async function show(view) {
  for (const name of VIEWS) $(`view-${name}`).hidden = name !== view;
  for (const link of document.querySelectorAll("[data-nav]")) {
    if (link.dataset.nav === view) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (view === "play") await openGame();
  if (view === "learn") await openCourse();
  if (view === "puzzle") await openPuzzles();
  if (view === "history") await openHistory();
  if (view === "settings") await openSettings();
}

// ------------------------------------------------------------------ the game
async function openGame() {
  const params = new URLSearchParams(location.search);
  let answer;
  if (params.has("deal")) {
    const body = { resume_deal: Number(params.get("deal")) };
    if (params.has("level")) body.level = params.get("level");
    answer = await api("/api/game/new", body);
    history.replaceState(null, "", "/play");
    if (!answer.ok && answer.data.in_progress) {
      const current = await api("/api/game");
      if (current.ok && current.data.game) setGame(current.data);
      takeGame(answer, body);
      return;
    }
  } else {
    answer = await api("/api/game");
    if (answer.ok && !answer.data.game) answer = await api("/api/game/new", {});
  }
  takeGame(answer);
}

function takeGame(answer, sent) {
  const data = answer.data;
  if (!answer.ok && data.in_progress && sent) {
    // a game is in progress: never dropped silently — continue it, or abandon it (a loss) for the new one
    const node = $("options");
    node.replaceChildren(el("span", { text: data.error }),
      el("button", { type: "button", onclick: () => newGame({ ...sent, abandon: true, rev: state.rev }) }, tr("abandon_start")),
      el("button", { type: "button", class: "primary", onclick: async () => { node.hidden = true; takeGame(await api("/api/game")); } }, tr("resume")));
    node.hidden = false;
    return;
  }
  if (!answer.ok) {
    if (answer.status === 409 && data.game !== undefined) {
      logLine({ type: "say", text: tr("stale"), tone: "warning" });
      setGame(data);
    }
    setStatus(data.error || tr("error"), false);
    for (const event of data.events || []) if (event.type === "status") setStatus(event.text, event.ok);
    return;
  }
  setGame(data);
  for (const event of data.events || []) gameEvent(event);
  if (state.game && state.game.final && (data.events || []).some((e) => e.type === "final")) {
    const heading = $("final-title");  // the game just ended: bring the final card into view and focus
    heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
    heading.scrollIntoView({ block: "start" });
  }
}

function setGame(data) {
  state.rev = data.rev;
  state.game = data.game;
  state.selected.clear();
  $("options").hidden = true;
  drawGame();
  const final = state.game && state.game.final;
  if (final) {
    setStatus(`${final.title} ${final.who}`, final.won);
    return;
  }
  const opening = state.game && state.game.opening;
  setStatus(opening ? opening.text : "", null);
}

function gameEvent(event) {
  if (event.type === "hint") {
    raise(event.move ? event.move.cards : []);
    setStatus(event.text, true);
  } else if (event.type === "status") {
    setStatus(event.text, event.ok);
  } else if (event.type === "options") {
    drawOptions(event.options);
  } else if (event.type === "final" || event.type === "review") {
    // drawn from the state
  } else {
    logLine(event);
  }
}

function logLine(event) {
  const item = el("li", { class: [event.type, event.tone || ""].join(" ") }, event.text);
  if (event.type === "played" && event.move) {
    item.textContent = "";
    item.append(`${(state.game && state.game.seats[event.seat].name) || ""}: `, comboView(event.move));
  }
  $("log").append(item);
  item.scrollIntoView({ block: "nearest" });
}

function setStatus(text, ok) {
  const node = $("status");
  node.textContent = text || tr("status_empty");
  node.className = "status" + (ok === true ? " ok" : ok === false ? " bad" : "");
}

function seatBox(seat, game) {
  const box = $(`seat-${seat.seat}`);
  box.replaceChildren();
  box.classList.toggle("turn", seat.to_move && game.waiting !== "over");
  const role = seat.role ? el("span", { class: `role ${seat.role}`,
    text: seat.role === "landlord" ? tr("landlord_mark") : tr("farmer_mark") }) : null;
  box.append(el("div", {}, el("span", { class: "name", text: seat.name }), role,
    seat.to_move && game.waiting !== "over" ? el("span", { class: "turnmark", text: ` ▶ ${tr("to_move")}` }) : null));
  if (seat.seat !== 0) box.append(el("div", { class: "count", text: seat.count_text }));
  const last = el("div", { class: "last" });
  if (seat.last) {
    if (seat.last.kind === "play") {
      last.append(comboView(seat.last));
      if (seat.last.to_beat) last.append(el("span", { class: "tobeat", text: "◀" }));
    } else last.append(el("span", { class: "pass", text: seat.last.text }));
  }
  box.append(last);
}

function drawGame() {
  const game = state.game;
  $("final").hidden = true;
  if (!game) return;
  $("game-title").textContent = game.title;
  $("game-cell").textContent = game.game_cell;
  for (const seat of game.seats) seatBox(seat, game);
  const kitty = $("kitty");
  kitty.replaceChildren(el("div", { text: tr("kitty") }),
    game.kitty ? miniCards(game.kitty) : el("div", { class: "facedown", text: "▮ ▮ ▮" }));
  const counter = $("counter");
  counter.hidden = !game.counter;
  counter.replaceChildren(...(game.counter ? [el("strong", { text: tr("card_counter") + ":" }),
    ...game.counter.map((c) => el("span", { class: c.n ? "" : "zero", "aria-label": `${cardName(c.rank)}: ${c.n}` },
      `${RANK_FACE[c.rank] === "JOKER" ? (c.rank === "D" ? "★J" : "☆J") : (RANK_FACE[c.rank] || c.rank)}:${c.n}`))] : []));
  drawHand($("hand"), game.hand, game.waiting === "play" && game.your_turn);
  const bidding = game.waiting === "bid";
  $("bid-buttons").hidden = !bidding;
  $("play-buttons").hidden = game.waiting !== "play";
  if (bidding) {
    for (const node of document.querySelectorAll("[data-bid]")) {
      node.disabled = !game.bids.legal.includes(Number(node.dataset.bid));
    }
  }
  $("btn-pass").disabled = !game.can_pass;
  $("btn-undo").disabled = !game.can_undo;
  if (game.final) drawFinal(game.final, game.review);
}

function drawHand(node, cards, active) {
  node.replaceChildren();
  node.setAttribute("aria-label", tr("your_hand"));
  // On a phone a long hand goes on two rows, so that each card shows a strip wide enough for a finger.
  const rows = window.innerWidth < 600 && (cards || []).length > 10 ? 2 : 1;
  const perRow = Math.ceil((cards || []).length / rows);
  let row = null;
  (cards || []).forEach((rank, i) => {
    if (i % perRow === 0) { row = el("div", { class: "hand-row" }); node.append(row); }
    const card = el("button", { type: "button", class: ["card", ...rankClasses(rank)].join(" "),
      "aria-pressed": state.selected.has(i) ? "true" : "false", "aria-label": cardName(rank), "data-i": i,
      "data-rank": rank, disabled: !active },
      el("span", { class: "rank", "aria-hidden": "true", text: RANK_FACE[rank] || rank }),
      el("span", { class: "mark", "aria-hidden": "true" }));
    row.append(card);
  });
}

function drawOptions(options) {
  const node = $("options");
  node.replaceChildren(el("span", { text: tr("choose_reading") }),
    ...options.map((o) => el("button", { type: "button", onclick: () => playCards(o.n) }, `${o.n}) ${o.name}`)));
  node.hidden = false;
}

function drawFinal(final, review) {
  const node = $("final");
  node.className = "final" + (final.won ? "" : " lost");
  node.replaceChildren(
    el("h2", { id: "final-title", text: `${final.won ? "★" : "✗"} ${final.title}` }),
    el("p", { text: final.who }),
    el("p", {}, el("strong", { text: `${final.multipliers_title}: ` }), final.multipliers.join(" · ")),
    el("p", { text: final.cost_line }),
    el("p", {}, el("strong", { text: `${final.score_title}: ` }),
      final.scores.map((s) => `${s.name} ${s.delta}`).join(" · "), final.not_scored ? ` ${final.not_scored}` : ""),
    el("p", { text: final.running_score }),
    el("div", { class: "hands" }, el("strong", { text: final.remaining_title }),
      final.hands.map((h) => el("div", {}, `${h.name}${h.role === "landlord" ? " ♛" : ""}: `,
        h.cards.length ? miniCards(h.cards) : "—"))),
    el("p", {}, `${final.kitty_title}: `, miniCards(final.kitty)),
    el("p", { text: final.deal_line }),
    review ? el("div", {}, el("h3", { text: review.title }), el("ul", {}, review.lines.map((l) => el("li", { text: l })))) : null,
    el("div", { class: "buttons" },
      el("button", { type: "button", class: "primary", onclick: () => newGame({ same: true }) }, tr("same_deal")),
      el("button", { type: "button", onclick: () => newGame({}) }, tr("new_deal")),
      final.game_id ? el("button", { type: "button", onclick: () => learnMistakes(final.game_id) }, tr("learn_mistakes")) : null));
  node.hidden = false;
}

function selectedText() {
  const cards = state.game ? state.game.hand : [];
  return [...state.selected].sort((a, b) => a - b).map((i) => cards[i]).join("");
}

function raise(ranks) {
  state.selected.clear();
  const cards = state.game ? state.game.hand : [];
  const used = new Set();
  for (const rank of ranks) {
    const i = cards.findIndex((r, j) => r === rank && !used.has(j));
    if (i >= 0) used.add(i);
  }
  for (const i of used) state.selected.add(i);
  refreshPressed($("hand"));
}

function refreshPressed(node) {
  for (const card of node.querySelectorAll(".card")) {
    card.setAttribute("aria-pressed", state.selected.has(Number(card.dataset.i)) ? "true" : "false");
  }
}

async function selectionChanged() {
  $("options").hidden = true;
  const text = selectedText();
  if (!text) { setStatus("", null); return; }
  const seq = ++state.seq;
  const answer = await api("/api/game/select", { rev: state.rev, cards: text });
  if (seq !== state.seq) return;  // a newer selection is on its way
  if (!answer.ok) { takeGame(answer); return; }
  for (const event of answer.data.events) if (event.type === "status") setStatus(event.text, event.ok);
}

async function act(path, body) {
  state.seq += 1;
  const answer = await api(path, { rev: state.rev, ...(body || {}) });
  takeGame(answer);
  return answer;
}

async function playCards(n) {
  const text = selectedText();
  if (!text) { setStatus(tr("status_empty"), false); return; }
  const answer = await api("/api/game/play", { rev: state.rev, cards: text, ...(n ? { n } : {}) });
  if (answer.ok && answer.data.events.some((e) => e.type === "options")) {
    state.rev = answer.data.rev;
    for (const event of answer.data.events) gameEvent(event);
    return;
  }
  takeGame(answer);
}

async function newGame(body) {
  const answer = await api("/api/game/new", body);
  if (answer.ok) $("log").replaceChildren();
  takeGame(answer, body);
}

// Tap to raise or lower; drag across cards to raise (or lower) the whole run.
function attachSwipe(node, onChange) {
  let drag = null;
  const indexAt = (x, y) => {
    const target = document.elementFromPoint(x, y);
    const card = target && target.closest ? target.closest(".card") : null;
    return card && node.contains(card) && !card.disabled ? Number(card.dataset.i) : null;
  };
  node.addEventListener("pointerdown", (e) => {
    const i = indexAt(e.clientX, e.clientY);
    if (i === null) return;
    e.preventDefault();
    drag = { start: i, last: i, raise: !state.selected.has(i), before: new Set(state.selected) };
    node.setPointerCapture(e.pointerId);
    apply();
  });
  const apply = () => {
    state.selected = new Set(drag.before);
    const [lo, hi] = [Math.min(drag.start, drag.last), Math.max(drag.start, drag.last)];
    for (let i = lo; i <= hi; i++) { if (drag.raise) state.selected.add(i); else state.selected.delete(i); }
    refreshPressed(node);
  };
  node.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const i = indexAt(e.clientX, e.clientY);
    if (i !== null && i !== drag.last) { drag.last = i; apply(); }
  });
  const end = () => { if (drag) { drag = null; onChange(); } };
  node.addEventListener("pointerup", end);
  node.addEventListener("pointercancel", end);
  node.addEventListener("click", (e) => {
    // keyboard activation (Enter/Space on a focused card) arrives as a click without a pointer
    if (e.detail !== 0) return;
    const card = e.target.closest(".card");
    if (!card) return;
    const i = Number(card.dataset.i);
    if (state.selected.has(i)) state.selected.delete(i); else state.selected.add(i);
    refreshPressed(node);
    onChange();
  });
}

const KEY_RANK = { t: "T", "0": "T", j: "J", q: "Q", k: "K", a: "A", x: "X", d: "D", b: "X", r: "D" };

function typedCard(key, cards) {
  const rank = KEY_RANK[key.toLowerCase()] || ("3456789".includes(key) ? key : key === "2" ? "2" : null);
  if (!rank) return false;
  const i = cards.findIndex((r, j) => r === rank && !state.selected.has(j));
  if (i >= 0) state.selected.add(i);
  return true;
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = (e.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea") return;
  const view = currentView();
  if (view === "play" && state.game) {
    const game = state.game;
    if (game.waiting === "bid" && "0123".includes(e.key)) { act("/api/game/bid", { bid: Number(e.key) }); return; }
    if (game.waiting !== "play") return;
    if (e.key === "Enter" && !(e.target.closest && e.target.closest("button:not(.card)"))) {
      e.preventDefault(); playCards(); return;
    }
    const key = e.key.toLowerCase();
    if (key === "p") { act("/api/game/pass"); return; }
    if (key === "h") { act("/api/game/hint"); return; }
    if (key === "u") { act("/api/game/undo"); return; }
    if (e.key === "Escape") { state.selected.clear(); refreshPressed($("hand")); selectionChanged(); return; }
    if (e.key === "Backspace") {
      const last = Math.max(-1, ...state.selected);
      if (last >= 0) state.selected.delete(last);
      refreshPressed($("hand")); selectionChanged(); return;
    }
    if (key === "1") return;  // the 1 of "10"
    if (typedCard(e.key, game.hand)) { refreshPressed($("hand")); selectionChanged(); }
  }
}

// ------------------------------------------------------------------ puzzles
async function openPuzzles() {
  takePuzzle(await api("/api/puzzle"));
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
  const playIt = (n) => send("/api/puzzle/move", n ? { n } : {
    cards: [...state.selected].sort((a, b) => a - b).map((i) => cards[i]).join("") });
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
  if (event.type === "hint" && event.move) {
    state.selected.clear();
    const used = new Set();
    for (const rank of event.move.cards) {
      const i = cards.findIndex((r, j) => r === rank && !used.has(j));
      if (i >= 0) used.add(i);
    }
    for (const i of used) state.selected.add(i);
    refreshPressed(hand);
  }
  const cls = event.type === "wrong" || event.type === "not_legal" ? "badline" : event.type === "correct" || (event.type === "over" && event.solved) ? "good" : "";
  log.append(el("li", { class: cls, text: event.text || "" }));
  for (const move of event.moves || []) log.append(el("li", {}, `${move.who}: `, move.move ? comboView(move.move) : move.text));
  if (event.streak) log.append(el("li", { text: event.streak }));
  if (event.type === "over" || event.type === "wrong" || event.type === "not_legal" || event.type === "correct") {
    status.textContent = event.text; status.className = `status ${cls === "good" ? "ok" : cls ? "bad" : ""}`;
  }
}

// ------------------------------------------------------------------ lessons
async function openCourse() {
  const answer = await api("/api/lessons");
  drawCourse(answer.data);
}

function drawCourse(data) {
  state.lessonRev = data.rev;
  const node = $("course");
  const stars = (n) => (n === null ? tr("not_done") : "★".repeat(n) + "☆".repeat(3 - n));
  node.replaceChildren(el("h1", { text: tr("course") }), el("p", { text: data.progress }), el("table", { class: "course panel" },
    el("tbody", {}, data.course.map((row) => el("tr", {},
      el("td", { text: String(row.number) }), el("td", { text: row.title }),
      el("td", { class: "stars", "aria-label": row.stars === null ? tr("not_done") : tr("stars", { n: row.stars }), text: stars(row.stars) }),
      el("td", {}, el("button", { type: "button", "aria-label": `${tr("start_lesson")}: ${row.title}`,
        onclick: () => startLesson(row.id) }, tr("start_lesson"))))))));
  node.hidden = false;
  $("lesson").hidden = true;
}

async function startLesson(id) {
  const answer = await api("/api/lesson/start", { id });
  $("course").hidden = true;
  const node = $("lesson");
  node.replaceChildren(el("button", { type: "button", onclick: openCourse }, tr("back_to_course")));
  node.hidden = false;
  takeLesson(answer);
}

function positionView(position) {
  const box = el("div", { class: "position" });
  for (const seat of position.seats) {
    box.append(el("div", { class: "row" }, el("span", { class: "name" },
      `${seat.name}${seat.role === "landlord" ? " ♛" : ""}`),
      seat.cards ? miniCards(seat.cards) : (seat.count !== null && seat.count !== undefined ? `${seat.count} ▮` : "")));
  }
  if (position.kitty) box.append(el("div", { class: "row" }, `${tr("kitty")}: `, miniCards(position.kitty)));
  for (const line of position.lines) box.append(el("div", { class: "row", text: line }));
  if (position.table) box.append(el("div", { class: "row" }, `${position.table_by}: `, comboView(position.table)));
  return box;
}

function takeLesson(answer) {
  const node = $("lesson");
  if (!answer.ok) { node.append(el("p", { class: "status bad", role: "status", text: answer.data.error })); return; }
  state.lessonRev = answer.data.rev;
  for (const event of answer.data.events) lessonEvent(node, event);
  node.querySelector(".lesson-end")?.scrollIntoView({ block: "nearest" });
}

async function lessonAct(path, body) {
  takeLesson(await api(path, { rev: state.lessonRev, ...(body || {}) }));
}

function lessonEvent(node, event) {
  const clearTask = () => node.querySelectorAll(".task-live").forEach((n) => n.classList.remove("task-live"));
  if (event.type === "started") {
    node.append(el("h1", { text: event.title }), event.summary ? el("p", { text: event.summary }) : null);
  } else if (event.type === "step") {
    clearTask();
    node.querySelectorAll(".task-controls").forEach((n) => n.remove());
    const step = el("div", { class: "panel step" }, el("p", { class: "keys", text: event.header }), el("p", { text: event.text }));
    if (event.position) step.append(positionView(event.position));
    if (!event.has_task) step.append(el("div", { class: "buttons task-controls" },
      el("button", { type: "button", class: "primary", onclick: () => lessonAct("/api/lesson/next") }, tr("next_step"))));
    node.append(step);
  } else if (event.type === "task") {
    node.querySelectorAll(".task-controls").forEach((n) => n.remove());
    const box = el("div", { class: "panel task-controls" });
    if (event.position) box.append(positionView(event.position));
    if (event.bid_status) box.append(el("p", { text: event.bid_status }));
    if (event.cards) box.append(el("p", {}, miniCards(event.cards)));
    box.append(el("p", { class: "prompt", text: event.prompt }));
    const status = el("p", { class: "status", role: "status", "aria-live": "polite" });
    if (event.hand) {
      state.selected.clear();
      const hand = el("div", { class: "hand", role: "group" });
      drawHand(hand, event.hand, true);
      attachSwipe(hand, () => {});
      box.append(hand);
      const text = () => [...state.selected].sort((a, b) => a - b).map((i) => event.hand[i]).join("");
      box.append(el("div", { class: "buttons" },
        el("button", { type: "button", class: "primary", onclick: () => lessonAct("/api/lesson/answer", { answer: text() || "pass" }) }, tr("play")),
        el("button", { type: "button", onclick: () => lessonAct("/api/lesson/answer", { answer: "pass" }) }, tr("pass"))));
    } else if (event.options) {
      box.append(el("div", { class: "buttons" }, event.options.map((o) =>
        el("button", { type: "button", onclick: () => lessonAct("/api/lesson/answer", { answer: o.answer }) }, o.label))));
    } else {
      const input = el("input", { type: "text", inputmode: "numeric", "aria-label": event.prompt, size: 8 });
      box.append(el("form", { onsubmit: (e) => { e.preventDefault(); lessonAct("/api/lesson/answer", { answer: input.value }); } },
        input, el("button", { type: "submit", class: "primary" }, tr("answer"))));
    }
    box.append(el("div", { class: "buttons" },
      el("button", { type: "button", onclick: () => lessonAct("/api/lesson/hint") }, tr("hint")),
      el("button", { type: "button", onclick: () => lessonAct("/api/lesson/restart") }, tr("restart_step"))));
    box.append(status);
    node.append(box);
  } else if (event.type === "status") {
    const status = node.querySelector(".task-controls .status");
    if (status) { status.textContent = event.text; status.className = `status ${event.ok ? "ok" : "bad"}`; }
  } else if (event.type === "answered") {
    node.append(el("div", { class: "panel lines" }, event.lines.map((line, i) =>
      el("p", { class: i === 0 ? (event.ok ? "good" : "badline") : "", text: line }))));
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

// ------------------------------------------------------------------ history & replay
async function openHistory() {
  const answer = await api("/api/history");
  const node = $("history");
  if (!answer.ok) { node.replaceChildren(el("p", { class: "status bad", text: answer.data.error })); return; }
  const games = answer.data.games;
  if (!games.length) { node.replaceChildren(el("p", { text: tr("history_empty") })); return; }
  node.replaceChildren(el("h1", { text: answer.data.title }), el("table", { class: "course panel" },
    el("thead", {}, el("tr", {}, answer.data.columns.map((c) => el("th", { text: c })), el("th", {}))),
    el("tbody", {}, games.map((g) => el("tr", {}, g.cells.map((c) => el("td", { text: String(c) })),
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
      step.action ? el("p", { text: step.action }) : null,
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

// ------------------------------------------------------------------ learn from your mistakes
// Each moment of a stored game is the table from your seat; the server judges every try and stores it.
async function learnMistakes(id) {
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
  if (m) {
    state.selected.clear();
    const hand = el("div", { class: "hand", role: "group" });
    const text = () => [...state.selected].sort((a, b) => a - b).map((i) => m.table.hand[i]).join("");
    box.append(el("p", { class: "keys", text: m.text }), mistakesTable(m.table), said, hand);
    drawHand(hand, m.table.hand, true);
    attachSwipe(hand, () => { if (text()) mistakesAct("/api/mistakes/select", { cards: text() }); });
    box.append(el("div", { class: "buttons controls" },
      el("button", { type: "button", class: "primary", onclick: () => {
        if (text()) mistakesAct("/api/mistakes/move", { cards: text() });
        else { said.textContent = tr("status_empty"); said.className = "status bad"; } } }, tr("play")),
      el("button", { type: "button", disabled: !m.can_pass, onclick: () => mistakesAct("/api/mistakes/pass") }, tr("pass")),
      el("button", { type: "button", onclick: () => mistakesAct("/api/mistakes/show") }, tr("show_better")),
      el("button", { type: "button", onclick: () => mistakesAct("/api/mistakes/skip") }, tr("skip_moment"))));
  } else box.append(said);
  node.replaceChildren(el("button", { type: "button", onclick: openHistory }, tr("back")), box, log);
}

// ------------------------------------------------------------------ settings
async function openSettings() {
  const { data } = await api("/api/settings");
  const s = data.settings;
  const form = $("settings");
  const save = async (change) => {
    const answer = await api("/api/settings", change);
    if (change.lang) { state.lang = change.lang; await loadStrings(); openSettings(); }
    note.textContent = answer.ok ? tr("saved") : answer.data.error;
  };
  const select = (key, values, labels) => el("select", { id: `set-${key}`, onchange: (e) => save({ [key]: e.target.value }) },
    values.map((v, i) => el("option", { value: v, selected: v === s[key], text: labels[i] })));
  const check = (key) => el("input", { type: "checkbox", id: `set-${key}`, checked: s[key],
    onchange: (e) => save({ [key]: e.target.checked }) });
  const note = el("p", { role: "status" });
  form.replaceChildren(
    el("label", {}, el("span", { text: tr("language") }), select("lang", data.languages, ["English", "Русский"])),
    el("label", {}, el("span", { text: tr("level") }), select("level", data.levels, data.levels.map((l) => tr(`level_${l}`)))),
    el("label", {}, check("coach"), el("span", { text: tr("coach_on") })),
    el("label", {}, check("counter"), el("span", { text: tr("counter_on") })),
    note);
}

// ------------------------------------------------------------------ start
async function boot() {
  const { data } = await api("/api/settings");
  state.lang = data.settings.lang;
  await loadStrings();
  attachSwipe($("hand"), selectionChanged);
  document.addEventListener("keydown", onKey);
  for (const link of document.querySelectorAll("[data-nav]")) {
    link.addEventListener("click", (e) => {
      e.preventDefault();
      history.pushState(null, "", link.getAttribute("href"));
      show(currentView());
    });
  }
  window.addEventListener("popstate", () => show(currentView()));
  for (const node of document.querySelectorAll("[data-bid]")) {
    node.addEventListener("click", () => act("/api/game/bid", { bid: Number(node.dataset.bid) }));
  }
  $("btn-play").addEventListener("click", () => playCards());
  $("btn-pass").addEventListener("click", () => act("/api/game/pass"));
  $("btn-hint").addEventListener("click", () => act("/api/game/hint"));
  $("btn-undo").addEventListener("click", () => act("/api/game/undo"));
  $("new-game").addEventListener("click", () => newGame({}));
  $("puzzle-daily").addEventListener("click", async () => takePuzzle(await api("/api/puzzle/start", { kind: "daily" })));
  $("puzzle-random").addEventListener("click", async () => takePuzzle(await api("/api/puzzle/start",
    { kind: "random", theme: $("puzzle-theme").value || null })));
  await show(currentView());
  document.body.dataset.readyAt = String(Math.round(performance.now()));
  document.body.dataset.ready = "true";
}

boot();
