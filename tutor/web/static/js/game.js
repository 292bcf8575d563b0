// The coached game: the table in #view-play, drawn from the server's game object and events.
import { $, el, state, tr } from "./core.js";
import { api } from "./api.js";
import { chipLine, comboView, seatGroup } from "./cards.js";
import { counterRow, kittyBox, seatBox, seatBoxes, trickBox } from "./felt.js";
import { attachSwipe, drawHand, raise, selectedText } from "./hand.js";
import { drawFinal } from "./final.js";

export async function openGame() {
  const params = new URLSearchParams(location.search);
  let answer;
  if (params.has("deal")) {
    const body = { resume_deal: params.get("deal") };
    if (params.has("level")) body.level = params.get("level");
    answer = await api("/api/game/new", body, { thinking: true });
    history.replaceState(null, "", "/play");
    if (!answer.ok && answer.data.in_progress) {
      const current = await api("/api/game");
      if (current.ok && current.data.game) setGame(current.data);
      takeGame(answer, body);
      return;
    }
  } else {
    answer = firstState() || await api("/api/game");
    if (answer.ok && !answer.data.game) answer = await api("/api/game/new", {});
  }
  takeGame(answer);
}

/**
 * The table the server wrote into the page it served (tutor/web/app.py first_state), taken once: the first
 * draw needs no request. Later visits to the table (the nav, a resume) ask the server.
 */
function firstState() {
  const node = document.getElementById("ddz-first");
  if (!node) return null;
  node.remove();
  try {
    return { ok: true, status: 200, data: JSON.parse(node.textContent) };
  } catch (error) {
    return null;
  }
}

export function takeGame(answer, sent) {
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
    for (const event of data.events || []) if (event.type === "status") setStatus(event.text, event.ok, event.chips);
    return;
  }
  setGame(data);
  for (const event of data.events || []) gameEvent(event);
  if (state.game && state.game.final && (data.events || []).some((e) => e.type === "final")) {
    const heading = $("final-title");  // the game just ended: the final card lies on the table; focus it
    heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
  }
  awaitCoach();
}

/**
 * Club mode: the coach thinks on `ddz worker`s, so its verdicts (and the review) come after the move.
 * While the table waits for some, the page asks the cheap question (/api/game/coach: has one answered?
 * held by the server until a worker's answer lands, 15 s at most) and takes the table only when one has;
 * a wait the server could not hold is asked again a second later (a minute and a half of waiting at most).
 */
let coachPoll = null;
function awaitCoach() {
  if (coachPoll || !state.game || !state.game.coach_pending) return;
  let tries = 0;
  const take = () => queued(async () => {
    const answer = await api("/api/game");
    if (!answer.ok || !answer.data.game) return;
    const suggested = (game) => (game.bids ? game.bids.suggested : null);
    if (answer.data.rev !== state.rev || (answer.data.game.review && !state.game.review)
        || suggested(answer.data.game) !== suggested(state.game)) { takeGame(answer); return; }
    state.game.coach_pending = answer.data.game.coach_pending;
    state.game.coach_wait = answer.data.game.coach_wait;
    for (const event of answer.data.events || []) gameEvent(event);
    if (coachPoll) return;  // an action's table started its own wait meanwhile
    if (state.game.coach_pending && ++tries < 90) coachPoll = setTimeout(ask, state.game.coach_wait ? 0 : 1000);
  });
  const ask = async () => {
    coachPoll = null;
    const wait = state.game && state.game.coach_wait;
    if (!wait) return take();
    const asked = `/api/game/coach?key=${wait.key}&jobs=${wait.jobs.join(",")}&wait=1`;
    const answer = await fetch(`${asked}&lang=${state.lang}`).then((r) => r.json()).catch(() => null);
    if (state.game && state.game.coach_wait !== wait) return;  // the table moved on meanwhile
    if (answer && answer.ready) return take();
    if (++tries < 90) coachPoll = setTimeout(ask, answer && answer.held ? 0 : 1000);
  };
  coachPoll = setTimeout(ask, 300);
}

function setGame(data) {
  state.rev = data.rev;
  state.game = data.game;
  if (state.game) {
    state.suitSeed = `deal:${state.game.deal_seed}`;
    restoreLog(state.game);
  }
  state.selected.clear();
  $("options").hidden = true;
  drawGame();
  const final = state.game && state.game.final;
  if (final) {
    setStatus(final.status, final.won);
    return;
  }
  const opening = state.game && state.game.opening;
  setStatus(opening ? opening.text : "", null, opening ? opening.chips : []);
}

function gameEvent(event) {
  if (event.type === "hint") {
    raise(event.move ? event.move.cards : [], state.game ? state.game.hand : [], $("hand"));
    setStatus(event.text, true, event.chips);
  } else if (event.type === "status") {
    setStatus(event.text, event.ok, event.chips);
  } else if (event.type === "options") {
    drawOptions(event.options);
  } else if (event.type === "final" || event.type === "review") {
    // drawn from the state
  } else {
    logLine(event);
  }
}

/** The log's key in the browser's storage: the lines of the game on the table survive a reload. */
const LOG_KEY = "ddz-log";

function logKey(game) {
  return game ? `${game.deal_seed}:${game.scored ? "s" : "r"}` : "";
}

function storedLog() {
  try {
    return JSON.parse(localStorage.getItem(LOG_KEY) || "null") || { key: "", lines: [] };
  } catch (error) {
    return { key: "", lines: [] };
  }
}

function storeLog(log) {
  try { localStorage.setItem(LOG_KEY, JSON.stringify({ key: log.key, lines: log.lines.slice(-300) })); } catch (error) { /* private mode: the log lives as long as the page */ }
}

/** After a reload (or a game taken up again): the log of this game, as it was, once. */
function restoreLog(game) {
  const log = storedLog();
  const key = logKey(game);
  if ($("log").dataset.key === key) return;
  $("log").dataset.key = key;
  $("log").replaceChildren();
  if (log.key !== key) { storeLog({ key, lines: [] }); return; }
  for (const line of log.lines) $("log").append(logItem(line));
}

function logItem(event) {
  const item = el("li", { class: [event.type, event.tone || ""].join(" ") }, event.text);
  if (event.type === "played" && event.move) {
    item.textContent = "";
    item.append(`${(state.game && state.game.seats[event.seat].name) || ""}: `, comboView(event.move, { from: event.seat }));
  }
  return item;
}

function logLine(event) {
  const line = { type: event.type, tone: event.tone || "", text: event.text || "", seat: event.seat, move: event.move || null };
  const log = storedLog();
  const key = logKey(state.game);
  storeLog({ key, lines: log.key === key ? [...log.lines, line] : [line] });
  $("log").dataset.key = key;
  $("log").append(logItem(line));
  $("log-toggle").dataset.count = String($("log").children.length);
  if (!$("talk").hidden) $("log").lastElementChild.scrollIntoView({ block: "nearest" });
}

/** The log is a drawer over the table: it never pushes the table off the screen. */
function toggleLog(open) {
  const talk = $("talk");
  talk.hidden = !open;
  $("log-toggle").setAttribute("aria-expanded", open ? "true" : "false");
  if (open) { $("log-close").focus(); $("log").lastElementChild?.scrollIntoView({ block: "nearest" }); }
  else $("log-toggle").focus();
}

export function setStatus(text, ok, chips = []) {
  const node = $("status");
  chipLine(node, text || tr("status_empty"), chips);
  node.className = "status" + (ok === true ? " ok" : ok === false ? " bad" : "");
  clampStatus();
}

/**
 * On a short screen the CSS shows a long status line (a bidding estimate runs to seven lines in Russian)
 * in its first lines, so the hand and the buttons stay on the screen; "Show all" opens the rest. A screen
 * reader hears the whole line either way (the clamp only hides it from the eye).
 */
function clampStatus() {
  const node = $("status"), more = $("status-more");
  node.classList.remove("open", "clamped");
  more.hidden = !(node.clientHeight && node.scrollHeight > node.clientHeight + 1);
  node.classList.toggle("clamped", !more.hidden);
}

function drawGame() {
  const game = state.game;
  $("final").hidden = true;
  if (!game) return;
  $("game-title").textContent = game.title;
  // The wildcard game: the deal's wild rank, public from the start (RULES §12.3), by the game cell.
  $("game-cell").textContent = game.game_cell + (game.wild_rank ? ` · ${tr("wild_rank").replace("{rank}", game.wild_rank)}` : "");
  const onTable = game.table ? game.table_seat : null;  // that seat's last play is drawn in the middle only
  const count = game.seats.length;  // two or three opponents: a box each, laid out by the felt's seats-N (app.css)
  seatBoxes($("felt"), count);
  for (const seat of game.seats) seatBox($(`seat-${seat.seat}`), seat, game.waiting === "over", game.hand, seat.seat === onTable, count);
  kittyBox($("kitty"), game.kitty, game.kitty_size);
  trickBox($("trick"), game.table, game.table_seat, game.hand, game.table ? game.seats[game.table_seat].name : "", count);
  drawLevels(game.level);
  counterRow($("counter"), game.counter);
  $("counter-toggle").setAttribute("aria-pressed", game.counter_on ? "true" : "false");
  drawHand($("hand"), game.hand, game.waiting === "play" && game.your_turn);
  const bidding = game.waiting === "bid";
  const robbing = bidding && game.bids.auction === "rob";  // rob the landlord: Call / Rob / Pass (RULES §12.1)
  $("bid-buttons").hidden = !bidding || robbing;
  $("rob-buttons").hidden = !robbing;
  $("play-buttons").hidden = game.waiting !== "play";
  if (bidding) {
    for (const node of document.querySelectorAll("[data-bid], [data-rob]")) {
      node.disabled = !game.bids.legal.includes(Number(node.dataset.bid ?? node.dataset.rob));
    }
  }
  $("btn-open").hidden = !game.can_open;  // the open hand, before the landlord's first play (RULES §12.2)
  $("btn-pass").disabled = !game.can_pass;
  $("btn-play").disabled = $("btn-hint").disabled = !game.your_turn;
  $("btn-undo").disabled = !game.can_undo;
  if (game.final) drawFinal(game.final, game.review);
}

function drawOptions(options) {
  const node = $("options");
  node.replaceChildren(el("span", { text: tr("choose_reading") }),
    ...options.map((o) => el("button", { type: "button", onclick: () => playCards(o.n) }, `${o.n}) ${o.name}`)));
  node.hidden = false;
}

export function handText() {
  return selectedText(state.game ? state.game.hand : []);
}

export async function selectionChanged() {
  $("options").hidden = true;
  const text = handText();
  if (!text) { setStatus("", null); return; }
  const seq = ++state.seq;
  const answer = await sendGame("/api/game/select", { cards: text });
  if (seq !== state.seq || resynced(answer)) return;  // a newer selection is on its way
  if (!answer.ok) { takeGame(answer); return; }
  for (const event of answer.data.events) if (event.type === "status") setStatus(event.text, event.ok, event.chips);
}

/**
 * Where the game stands, without its revision: the deal, whose turn, every seat's cards and last action,
 * the trick. Two answers with the same position are the same table whatever their revisions say.
 */
export function position(game) {
  if (!game) return "";
  return JSON.stringify([game.deal_seed, game.scored, game.waiting, game.hand, game.kitty, game.table, game.table_seat,
    game.seats.map((s) => [s.count, s.role, s.to_move, s.last && [s.last.kind, s.last.cards, s.last.bid]])]);
}

/**
 * One request of the table, sent on the table's current revision. A server restarted (or reached again
 * after a lost connection) counts its revisions anew: the page then asks for the table before the
 * action, and an action refused as "out of date" on the very table the page shows is sent again on
 * the server's revision — no tap is lost and no "another tab" line appears. A table that really moved
 * on (another tab, or this tap's own play that reached the server before the connection dropped) is
 * drawn as it stands and the tap is not repeated.
 */
async function sendGame(path, body, options = {}) {
  if (state.lost) {
    const now = await api("/api/game");
    if (!now.ok) return now;
    state.lost = false;
    if (now.data.rev !== state.rev) {
      if (position(now.data.game) !== position(state.game)) return { ...now, resynced: true };
      state.rev = now.data.rev;
    }
  }
  let answer = await api(path, { ...(body || {}), rev: state.rev }, options);
  if (answer.status === 409 && answer.data.game !== undefined && answer.data.rev !== state.rev
      && position(answer.data.game) === position(state.game)) {
    state.rev = answer.data.rev;
    answer = await api(path, { ...(body || {}), rev: state.rev }, options);
  }
  if (answer.status === 0) state.lost = true;  // the connection dropped: ask for the table before the next action
  return answer;
}

/** A table the server drew afresh after a lost connection: shown as it stands, without a stale-tab line. */
function resynced(answer) {
  if (!answer.resynced) return false;
  setGame(answer.data);
  return true;
}

/**
 * The table's actions, one after another: an action waits for the one before it to be answered and
 * then sends the revision that answer gave, so a quick second tap is never "another tab".
 */
let queue = Promise.resolve();

function queued(work) {
  const run = queue.then(work, work);
  queue = run.catch(() => {});
  return run;
}

/** Bids, passes, undos and the bots' answers to them. */
export function act(path, body) {
  state.seq += 1;
  const thinking = path !== "/api/game/hint" && path !== "/api/game/undo";
  return queued(async () => {
    const answer = await sendGame(path, body, { thinking });
    if (!resynced(answer)) takeGame(answer);
    return answer;
  });
}

export function playCards(n) {
  const text = handText();
  if (!text) { setStatus(tr("status_empty"), false); return Promise.resolve(); }
  state.seq += 1;
  return queued(async () => {
    const answer = await sendGame("/api/game/play", { cards: text, ...(n ? { n } : {}) }, { thinking: true });
    if (resynced(answer)) return;
    if (answer.ok && answer.data.events.some((e) => e.type === "options")) {
      state.rev = answer.data.rev;
      for (const event of answer.data.events) gameEvent(event);
      return;
    }
    takeGame(answer);
  });
}

/** A new deal at the level picked at the table (the current game's level unless changed). */
export function newGame(body) {
  const level = $("level-pick").value || (state.game && state.game.level);
  const sent = { ...(level && !body.same ? { level } : {}), ...body };
  return queued(async () => {
    const answer = await api("/api/game/new", sent, { thinking: true });
    if (answer.ok) { storeLog({ key: "", lines: [] }); $("log").dataset.key = ""; }  // a new game: a new log
    takeGame(answer, sent);
  });
}

/** The level picker at the table: the level of the next deal (the game on the table keeps its own). */
function drawLevels(level) {
  const pick = $("level-pick");
  if (!pick.options.length) {
    for (const name of ["easy", "medium", "hard"]) pick.append(el("option", { value: name, text: tr(`level_${name}`) }));
  }
  if (!pick.dataset.touched) pick.value = level;
}

/** The table's fixed controls (index.html): swipe on the hand, bid and play buttons, "New deal". */
export function bindGame() {
  attachSwipe($("hand"), selectionChanged);
  // A phone turned (or a window resized): the hand laid out again for its new width (its rows and strips are
  // measured, hand.js), the raised cards kept; once per frame however many resize events come.
  let relaid = 0;
  window.addEventListener("resize", () => {
    if (relaid) return;
    relaid = requestAnimationFrame(() => {
      relaid = 0;
      const game = state.game;
      if (game && !$("view-play").hidden) drawHand($("hand"), game.hand, game.waiting === "play" && game.your_turn);
    });
  });
  for (const node of document.querySelectorAll("[data-bid]")) {
    node.addEventListener("click", () => act("/api/game/bid", { bid: Number(node.dataset.bid) }));
  }
  $("btn-play").addEventListener("click", () => playCards());
  $("btn-pass").addEventListener("click", () => act("/api/game/pass"));
  $("btn-hint").addEventListener("click", () => act("/api/game/hint"));
  $("btn-undo").addEventListener("click", () => act("/api/game/undo"));
  for (const node of document.querySelectorAll("[data-rob]")) {
    node.addEventListener("click", () => act("/api/game/bid", { bid: Number(node.dataset.rob) }));
  }
  $("btn-open").addEventListener("click", () => act("/api/game/open"));
  $("new-game").addEventListener("click", () => newGame({}));
  $("level-pick").addEventListener("change", () => { $("level-pick").dataset.touched = "1"; });
  $("log-toggle").addEventListener("click", () => toggleLog($("talk").hidden));
  $("log-close").addEventListener("click", () => toggleLog(false));
  $("status-more").addEventListener("click", () => {
    $("status").classList.replace("clamped", "open");
    $("status-more").hidden = true;
    $("status").focus();  // the button goes away: the keyboard stays on the line it opened
  });
  $("talk").addEventListener("keydown", (e) => { if (e.key === "Escape") { e.stopPropagation(); toggleLog(false); } });
  $("counter-toggle").addEventListener("click", toggleCounter);
}

/**
 * The card counter switched on the table: the same setting as in Settings (and the terminal's
 * "counter"), stored at once; the table is redrawn from the server, the raised cards stay raised.
 */
export async function toggleCounter() {
  const on = $("counter-toggle").getAttribute("aria-pressed") !== "true";
  const saved = await api("/api/settings", { counter: on });
  if (!saved.ok) { setStatus(saved.data.error, false); return; }
  const answer = await api("/api/game");
  if (!answer.ok || !answer.data.game) { $("counter-toggle").setAttribute("aria-pressed", on ? "true" : "false"); return; }
  if (answer.data.rev !== state.rev) { takeGame(answer); return; }  // another tab moved on: redraw it all
  state.game = answer.data.game;
  counterRow($("counter"), state.game.counter);
  $("counter-toggle").setAttribute("aria-pressed", state.game.counter_on ? "true" : "false");
}
