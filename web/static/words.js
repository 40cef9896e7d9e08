// Words, numbers and the server, for the pages of team game days (the
// team's page, the facilitator's console, the postmortem): the catalogue
// of the language chosen, format.js's numbers (the twin of the
// catalogue's Go formats), and the API, whose errors come written in the
// page's language.
import * as F from "./format.js";
import { esc } from "./chart.js";

export { esc, F };

// labels are the scenario's words for its controls, by name: its
// switches' ("switch.<id>") and those of the controls it renames.
export const W = { lang: "en", dir: "ltr", msgs: {}, en: {}, fmt: {}, meta: null, labels: {} };

export const $ = id => document.getElementById(id);

// t writes a message of the catalogue with its values; in right-to-left
// text each value is isolated by its first strong letter, as the console
// does, so that "09:16" or a name keeps its order inside an Urdu sentence.
export function t(key, vars) {
  const s = W.msgs[key] ?? W.en[key] ?? key;
  if (!vars) return s;
  if (W.dir === "rtl") vars = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, "\u2068" + v + "\u2069"]));
  return F.fill(s, vars);
}

export const num = (v, d) => (v == null || Number.isNaN(v) ? "–" : F.number(W.fmt, v, d));
export const pct = (v, d = 1) => F.percent(W.fmt, v, d);

// value writes a metric's value by its unit, as the console's tiles do.
export function value(unit, v, decimals) {
  switch (unit) {
    case "share": return pct(v, v !== 0 && Math.abs(v) < 0.01 ? 2 : 1);
    case "×": return F.burn(W.fmt, v);
    case "$/h": return F.moneyPerHour(W.fmt, v);
    case "$": return F.money(W.fmt, v);
    case "ms": return t("ui.unit.ms", { n: num(v, 0) });
    case "s": return t("ui.unit.s", { n: num(v, 0) });
    case "req/s": return t("ui.unit.rps", { n: num(v, 0) });
    case "min": return F.minutes(W.fmt, v);
  }
  return num(v, Math.min(decimals ?? 2, 2));
}

export function metricSpec(name) { return W.meta.metrics.find(m => m.name === name) || W.meta.outcomes.find(m => m.name === name); }

export function metricValue(name, v) {
  const m = metricSpec(name);
  if (!m) return num(v, 2);
  return m.kind === "bool" ? (v ? t("switch.on") : t("switch.off")) : value(m.unit, v, m.decimals);
}

export const label = name => t("metric." + name + ".label");
// ctlLabel names a control as the scenario calls it: a switch of its own
// by its label (its id without one), a control it renamed by its words,
// any other by the catalogue's.
export const ctlLabel = name => { const l = W.labels[name]; return l ? text(l) : name.startsWith("switch.") ? name.slice(7) : t("control." + name + ".label"); };
export const text = tx => (tx ? tx[W.lang] || tx.en || "" : "");

// api sends a request; an error carries the server's sentence.
export async function api(method, path, body, headers = {}) {
  const opts = { method, headers: Object.assign({ "Accept-Language": W.lang }, headers) };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  let res;
  try { res = await fetch(path, opts); } catch (e) { throw { status: 0, message: t("ui.error.network") }; }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw { status: res.status, message: data.error || t("ui.error.status", { n: res.status }), key: data.key, args: data.args };
  return data;
}

// say shows a message at the foot of the page; info is not an error.
export function say(msg, info) {
  const m = $("message");
  m.textContent = msg;
  m.hidden = !msg;
  m.classList.toggle("info", !!info);
}

export function oops(e) { say(e && e.message ? e.message : String(e)); }

// start loads the metadata and the language the page last used (else the
// browser's), fills the menu of languages, and calls onLang after each
// change of language.
export async function start(onLang) {
  W.meta = await api("GET", "/api/meta");
  let pref = W.meta.lang;
  try { pref = localStorage.getItem("oncall.lang") || pref; } catch (e) { /* storage off */ }
  const sel = $("lang");
  sel.addEventListener("change", async () => { await setLang(sel.value); onLang(); });
  $("message").addEventListener("click", () => say(""));
  await setLang(pref);
}

// words loads a language's catalogue: the console's, and the words of
// team game days, which the console's page does not load.
async function words(lang) {
  const [p, team] = await Promise.all([api("GET", "/api/i18n/" + lang), api("GET", "/api/i18n/" + lang + "/team")]);
  p.messages = Object.assign({}, p.messages, team.messages);
  return p;
}

export async function setLang(lang) {
  const known = W.meta.languages.map(l => l.code);
  if (!known.includes(lang)) lang = known.includes(W.meta.lang) ? W.meta.lang : "en";
  const p = await words(lang);
  if (!W.en.__loaded) {
    W.en = lang === "en" ? p.messages : (await words("en")).messages;
    W.en.__loaded = "1";
  }
  W.lang = lang; W.msgs = p.messages; W.fmt = p.format || {}; W.dir = p.dir || "ltr";
  document.documentElement.lang = lang;
  document.documentElement.dir = W.dir;
  try { localStorage.setItem("oncall.lang", lang); } catch (e) { /* storage off */ }
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  const sel = $("lang");
  sel.textContent = "";
  for (const l of W.meta.languages) sel.add(new Option(l.name, l.code, false, l.code === lang));
}

// role names a role in the page's language.
export const role = r => t("ui.team.role." + r);

// what says what an entry of a team's log, or a moment of a postmortem,
// is: the same words as the postmortem's Markdown (team.Moment.What).
export function what(m, names = {}) {
  const who = id => names[id] || "";
  switch (m.kind) {
    case "decision": {
      let s = ctlLabel(m.control);
      const v = m.value_text ? text(m.value_text) : valueOf(m.control, m.value);
      if (v) s += " = " + v;
      if (m.late > 0) s += " " + t("ui.team.pm.late", { n: F.minutes(W.fmt, m.late) });
      return s;
    }
    case "status": return t("ui.team.pm.what_status", { state: t("ui.team.state." + m.state), text: m.text });
    case "note": return t("ui.team.pm.what_note", { text: m.text });
    case "message": return t("ui.team.pm.what_message", { text: m.text });
    case "inject": return t("ui.team.pm.what_inject", { title: text(m.title) || m.inject });
    case "role": return t("ui.team.pm.what_role", { member: m.member_name || who(m.member), role: role(m.assigned || m.role) });
    case "join": return t("ui.team.pm.what_join", { member: m.member_name || m.name, role: role(m.assigned || m.role) });
    case "leave": return t("ui.team.pm.what_leave", { member: m.member_name || m.name || who(m.member) });
    case "start": return t("ui.team.pm.what_start");
    case "pause": return t("ui.team.pm.what_pause");
    case "speed": return t("ui.team.pm.what_speed", { n: num(m.speed, 0) });
    case "step": return t("ui.team.pm.what_step");
    case "page": return t("ui.team.pm.what_page");
    case "resolve": return t("ui.team.pm.what_resolve");
    case "rollback_done": return t("ui.team.pm.what_rollback");
    case "deploy": return t("ui.team.pm.what_deploy", { build: m.build });
    case "say": return text(m.title);
  }
  return m.kind;
}

// valueOf writes a control's value as the console does, for a moment of a
// postmortem (whose decisions carry the value, not its text).
function valueOf(control, v = 0) {
  const c = control.startsWith("switch.") ? { kind: "bool" } : W.meta.controls.find(x => x.name === control);
  if (!c || c.kind === "action") return "";
  if (c.kind === "bool") return v === 1 ? t("switch.on") : t("switch.off");
  if (c.unit === "share") return pct(v, 0);
  if (c.unit === "s") return num(v, 0) + " s";
  return num(v, Number.isInteger(v) ? 0 : 2);
}
