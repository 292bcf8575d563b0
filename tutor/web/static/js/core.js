// Shared by every module: the page's labels, its small state and two DOM helpers.
// Selection and drawing only live in the page; every rule and line comes from the server.

/** The page's labels (web.* catalogue), in the learner's language. */
export const S = {};

/** What the page remembers between requests: revisions, the raised cards, the current objects. */
export const state = { lang: "en", game: null, rev: 0, lost: false, selected: new Set(), seq: 0, busy: 0, thinking: 0,
                       puzzle: null, puzzleRev: 0, lesson: null, lessonRev: 0, mistakesRev: 0, settings: null,
                       moment: null, suitSeed: "" };

export const $ = (id) => document.getElementById(id);

/** Which form of a {n|one|few|many} choice a whole number takes (the server's rule: tutor/i18n plural_index). */
function pluralIndex(n) {
  const form = new Intl.PluralRules(state.lang).select(n);
  return { one: 0, few: 1, many: 2, other: state.lang === "ru" ? 2 : 1 }[form] ?? 1;
}

/** A label with its {placeholders} filled in and its {n|form|form} plurals chosen (the key itself when the catalogue lacks it). */
export function tr(key, values) {
  let text = (S[key] || key).replace(/\{(\w+)\|([^{}]*)\}/g, (whole, name, forms) => {
    const list = forms.split("|");
    const n = (values || {})[name];
    return Number.isInteger(n) ? list[Math.min(pluralIndex(n), list.length - 1)] : list[list.length - 1];
  });
  for (const [k, v] of Object.entries(values || {})) text = text.replace(`{${k}}`, v);
  return text;
}

/** A DOM node: attributes (on* are listeners, false/null skipped) and children (nested arrays flattened). */
export function el(tag, attrs, ...children) {
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
