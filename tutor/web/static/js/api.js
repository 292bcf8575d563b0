// Talking to the server: every request goes through api(), which shows the "waiting" note and
// answers {ok, status, data} (the server's errors are JSON with one "error" line, in the learner's
// language). A server that cannot be reached, or an answer that is not JSON, becomes such a line too,
// worded from the strings the server wrote into the page when it was served.
import { $, S, state, tr } from "./core.js";

/**
 * ``thinking``: the answer waits for the bots to move (a bid, a play, a pass, a new deal): the table's
 * small "thinking" note shows in the middle of the felt, where their cards will appear, never over
 * the controls. Every request marks the body aria-busy (what tests and assistive tech wait on).
 */
export async function api(path, body, { thinking = false } = {}) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json", ...clubHeaders() }, body: JSON.stringify(body) };
  const sep = path.includes("?") ? "&" : "?";
  state.busy += 1;
  if (thinking) { state.thinking += 1; $("thinking").hidden = false; }
  document.body.setAttribute("aria-busy", "true");
  try {
    let response;
    for (let attempt = 0; ; attempt += 1) {
      try {
        response = await fetch(`${path}${sep}lang=${state.lang}`, options);
      } catch (error) {
        busyNote(false);
        return { ok: false, status: 0, data: { error: tr("network_error") } };
      }
      // 503: the server (or its database) is busy and did nothing; it says when to come back (Retry-After).
      // The tap is kept: the same request again after that wait, doubled each time, with jitter so that a
      // class's pages do not all come back in the same second, and a one-line note meanwhile.
      if (response.status !== 503 || attempt >= BUSY_RETRIES) break;
      busyNote(true);
      await new Promise((resolve) => setTimeout(resolve, retryDelay(response, attempt)));
    }
    busyNote(false);
    if (response.status === 401 && clubHeaders()["x-ddz-csrf"]) location.assign("/signin");  // club: signed out
    let data;
    try {
      data = await response.json();
    } catch (error) {
      return { ok: false, status: response.status, data: { error: tr("bad_answer", { status: response.status }) } };
    }
    if (!data || typeof data !== "object") data = { error: tr("bad_answer", { status: response.status }) };
    return { ok: response.ok, status: response.status, data };
  } finally {
    state.busy -= 1;
    if (thinking) { state.thinking -= 1; $("thinking").hidden = state.thinking > 0 ? false : true; }
    if (!state.busy) document.body.removeAttribute("aria-busy");
  }
}

/** How many times a 503 is tried again (about a minute in all, with the server's Retry-After of 2 s). */
const BUSY_RETRIES = 5;

/** Milliseconds before trying a 503 again: Retry-After (seconds; 1 without it) doubled per try, ×0.5–1.5, ≤ 30 s. */
function retryDelay(response, attempt) {
  const after = Number(response.headers.get("retry-after"));
  const seconds = Number.isFinite(after) && after >= 0 ? after : 1;
  return Math.min(30, seconds * 2 ** attempt) * (0.5 + Math.random()) * 1000;
}

/** The one-line "busy, trying again" note (made on first use: a page that is never refused has none). */
function busyNote(shown) {
  let note = document.getElementById("busy-note");
  if (!note && !shown) return;
  if (!note) {
    note = document.createElement("p");
    note.id = "busy-note";
    note.className = "busy-note";
    note.setAttribute("role", "status");
    document.body.append(note);
  }
  note.textContent = tr("busy_note");
  note.hidden = !shown;
}

/** Club mode (tutor/web/auth.py): every state-changing request carries the CSRF token the server wrote into the page. */
function clubHeaders() {
  const token = document.querySelector('meta[name="ddz-csrf"]')?.content;
  return token ? { "x-ddz-csrf": token } : {};
}

/** Take a strings payload ({lang, strings}) and label the static page ([data-t], [data-bid], [data-label]). */
export function useStrings(payload) {
  Object.assign(S, payload.strings);
  state.lang = payload.lang;
  document.documentElement.lang = state.lang;
  document.title = tr("title");
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = tr(node.dataset.t);
  for (const node of document.querySelectorAll("[data-bid]")) {
    const n = Number(node.dataset.bid);
    node.textContent = n ? tr("bid", { n }) : tr("pass");
  }
  for (const node of document.querySelectorAll("[data-label]")) node.setAttribute("aria-label", tr(node.dataset.label));
  $("keys").textContent = tr("keyboard_help");
  for (const node of document.querySelectorAll("[data-label]")) {
    if (node.dataset.t) node.title = tr(node.dataset.label);
  }
}

/** The words the server wrote into the page (so the page can speak before, and without, any request). */
export function embeddedStrings() {
  const node = document.getElementById("ddz-strings");
  try {
    return node ? JSON.parse(node.textContent) : null;
  } catch (error) {
    return null;
  }
}

/** The labels in ``state.lang`` (after a language change), fetched from the server. */
export async function loadStrings() {
  const answer = await api("/api/strings");
  if (answer.ok) useStrings(answer.data);
}
