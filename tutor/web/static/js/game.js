// The coached game: the table in #view-play, drawn from the server's game object and events.
import { $, el, state, tr } from "./core.js";
import { api } from "./api.js";
import { comboView } from "./cards.js";
import { counterRow, kittyBox, seatBox } from "./felt.js";
import { attachSwipe, drawHand, raise, selectedText } from "./hand.js";
import { drawFinal } from "./final.js";

export async function openGame() {
  const params = new URLSearchParams(location.search);
  let answer;
  if (params.has("deal")) {
    const body = { resume_deal: params.get("deal") };
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
    raise(event.move ? event.move.cards : [], state.game ? state.game.hand : [], $("hand"));
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

export function setStatus(text, ok) {
  const node = $("status");
  node.textContent = text || tr("status_empty");
  node.className = "status" + (ok === true ? " ok" : ok === false ? " bad" : "");
}

function drawGame() {
  const game = state.game;
  $("final").hidden = true;
  if (!game) return;
  $("game-title").textContent = game.title;
  $("game-cell").textContent = game.game_cell;
  for (const seat of game.seats) seatBox($(`seat-${seat.seat}`), seat, game.waiting === "over");
  kittyBox($("kitty"), game.kitty);
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
  const answer = await api("/api/game/select", { rev: state.rev, cards: text });
  if (seq !== state.seq) return;  // a newer selection is on its way
  if (!answer.ok) { takeGame(answer); return; }
  for (const event of answer.data.events) if (event.type === "status") setStatus(event.text, event.ok);
}

export async function act(path, body) {
  state.seq += 1;
  const answer = await api(path, { rev: state.rev, ...(body || {}) });
  takeGame(answer);
  return answer;
}

export async function playCards(n) {
  const text = handText();
  if (!text) { setStatus(tr("status_empty"), false); return; }
  const answer = await api("/api/game/play", { rev: state.rev, cards: text, ...(n ? { n } : {}) });
  if (answer.ok && answer.data.events.some((e) => e.type === "options")) {
    state.rev = answer.data.rev;
    for (const event of answer.data.events) gameEvent(event);
    return;
  }
  takeGame(answer);
}

export async function newGame(body) {
  const answer = await api("/api/game/new", body);
  if (answer.ok) $("log").replaceChildren();
  takeGame(answer, body);
}

/** The table's fixed controls (index.html): swipe on the hand, bid and play buttons, "New deal". */
export function bindGame() {
  attachSwipe($("hand"), selectionChanged);
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
