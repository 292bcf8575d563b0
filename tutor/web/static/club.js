// Club mode (ddz serve --db …): sign in, sign out, the learner's assignments, the teacher's class page.
// Every request is JSON with the page's CSRF token (tutor/web/auth.py); the server's answers are one line.
const csrf = document.querySelector('meta[name="ddz-csrf"]')?.content || "";

// A 503 (a class signing in at once, the database busy) did nothing: the same request again after the server's
// Retry-After, doubled each time, with jitter (as js/api.js does for the table), its one line shown meanwhile.
async function post(path, body, onBusy = () => {}) {
  let response;
  for (let attempt = 0; ; attempt += 1) {
    try {
      response = await fetch(path, { method: "POST", body: JSON.stringify(body || {}),
        headers: { "content-type": "application/json", "x-ddz-csrf": csrf } });
    } catch (error) {
      return { ok: false, data: { error: String(error) } };
    }
    if (response.status !== 503 || attempt >= 5) break;
    const after = Number(response.headers.get("retry-after"));
    onBusy(await response.json().then((data) => data.error).catch(() => ""));
    const seconds = Math.min(30, (Number.isFinite(after) && after >= 0 ? after : 1) * 2 ** attempt);
    await new Promise((resolve) => setTimeout(resolve, seconds * (0.5 + Math.random()) * 1000));
  }
  let data = {};
  try { data = await response.json(); } catch (error) { data = { error: `HTTP ${response.status}` }; }
  return { ok: response.ok, data };
}

function bindSignIn(form) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const line = document.getElementById("signin-error");
    line.textContent = "";
    const answer = await post(`/api/club/signin${location.search}`, {
      name: form.querySelector("#name").value, password: form.querySelector("#password").value },
    (busy) => { line.textContent = busy; });
    if (answer.ok) location.assign(answer.data.next || "/");
    else line.textContent = answer.data.error;
  });
}

async function openAssigned(button) {
  const { show } = await import("./app.js");
  const lesson = button.dataset.assignedLesson;
  button.closest("details")?.removeAttribute("open");
  if (lesson) {
    history.pushState(null, "", "/learn");
    await show("learn");
    const { startLesson } = await import("./app.js");
    await startLesson(lesson);
    return;
  }
  history.pushState(null, "", "/puzzle");
  await show("puzzle");
  const pick = document.getElementById("puzzle-theme");
  pick.value = button.dataset.assignedTheme;
  document.getElementById("puzzle-random").click();
}

function bindClass(form) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const [kind, ...rest] = document.getElementById("assign-what").value.split(":");
    const learner = document.getElementById("assign-to").value;
    const toClass = learner.startsWith("class:") ? learner.slice(6) : null;  // a teacher's class, whole
    const answer = await post(`/api/club/assign${location.search}`,
      { kind, ref: rest.join(":"), learner: learner && !toClass ? Number(learner) : null, class: toClass });
    const line = document.getElementById("assign-status");
    line.textContent = answer.ok ? answer.data.text : answer.data.error;
    line.className = `status ${answer.ok ? "ok" : "bad"}`;
    if (answer.ok) setTimeout(() => location.reload(), 600);
  });
  for (const button of document.querySelectorAll("[data-unassign]")) {
    button.addEventListener("click", async () => {
      const answer = await post(`/api/club/unassign${location.search}`, { id: Number(button.dataset.unassign) });
      if (answer.ok) button.closest("li").remove();
    });
  }
}

/** A password given by someone else: the learner chooses their own (tutor/web/club.py, password_page). */
function bindPassword(form) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const line = document.getElementById("password-error");
    line.textContent = "";
    const answer = await post(`/api/club/password${location.search}`, {
      password: form.querySelector("#new-password").value, again: form.querySelector("#new-again").value });
    if (answer.ok) location.assign(answer.data.next || "/");
    else line.textContent = answer.data.error;
  });
}

const signin = document.getElementById("signin");
if (signin) bindSignIn(signin);
const chosen = document.getElementById("password-form");
if (chosen) bindPassword(chosen);
const assign = document.getElementById("assign");
if (assign) bindClass(assign);
for (const button of document.querySelectorAll("[data-assigned-lesson], [data-assigned-theme]")) {
  button.addEventListener("click", () => openAssigned(button));
}
document.getElementById("sign-out")?.addEventListener("click", async () => {
  await post("/api/club/signout");
  location.assign("/signin");
});
