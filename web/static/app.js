// The console's script: it asks the server for rows and draws them. The
// server holds nothing the page cannot rebuild: a shift is its scenario,
// seed and decisions, kept in the link and in local storage.
import { lineChart, esc, span, minuteAt, showCursor } from "./chart.js";
import * as F from "./format.js";
import { initWhatIf, drawWhatIf, branchSeries, branchLegend, outcomeText } from "./whatif.js";
import { initAlertRules, drawAlertRules, alertBands, alertLegend, openMetricsLink } from "./alertrules.js";
import { drawLogs, usesDependency, depCharts, rolloutLive, DEP_TILES } from "./logs.js";
import { exhaustion } from "./projection.js";
import { fit, fitAll } from "./fit.js";
import { initAccount, resultText, scoreLines, shownPoints } from "./account.js";

const $ = id => document.getElementById(id);
const S = { meta: null, lang: "en", msgs: {}, en: {}, fmt: {}, shift: null, running: false, timer: 0, loopId: 0, drawn: 0, model: null, span: null, cursor: null, charts: [], sent: {} };

// ---- words and numbers ----------------------------------------------------

function t(key, vars) {
  const s = S.msgs[key] ?? S.en[key] ?? key;
  if (!vars) return s;
  if (S.dir === "rtl") {
    // In right-to-left text each value is isolated by its first strong
    // letter (FSI … PDI): "4.00 $/h" or "09:16" keeps its order inside an
    // Urdu sentence, and "10 منٹ" reads as Urdu writes it, the number
    // first, on the right.
    vars = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, "\u2068" + v + "\u2069"]));
  }
  return F.fill(s, vars);
}

// tn writes a plural message (catalogue keys "key#one", "key#few", ...)
// for the count n, written in the language's digits as {n}.
const tn = (key, n, vars = {}) => t(F.pluralKey(S.msgs, S.lang, key, n), { ...vars, n: num(n, 0) });

// Numbers are written by format.js, the twin of the catalogue's Go formats.
const num = (v, d) => (v == null || Number.isNaN(v) ? "–" : F.number(S.fmt, v, d));
const pct = (v, d = 1) => F.percent(S.fmt, v, d);

// value formats a metric's value by its unit.
function value(unit, v, decimals) {
  switch (unit) {
    case "share": return pct(v, v !== 0 && Math.abs(v) < 0.01 ? 2 : 1);
    case "×": return F.burn(S.fmt, v);
    case "$/h": return F.moneyPerHour(S.fmt, v);
    case "$": return F.money(S.fmt, v);
    case "ms": return t("ui.unit.ms", { n: num(v, 0) });
    case "s": return t("ui.unit.s", { n: num(v, 0) });
    case "req/s": return t("ui.unit.rps", { n: num(v, 0) });
    case "queries/s": return t("unit.queries_per_s", { n: num(v, 0) });
    case "min": return F.minutes(S.fmt, v);
    case "instances": case "requests": return num(v, 0);
  }
  return num(v, Math.min(decimals ?? 2, 2));
}

// axis formats a chart's axis label: short, the unit is in the caption,
// with axisDecimals(unit) decimals (of a share, of its percentage), so
// that the ticks fall on values it writes exactly.
function axis(unit, v) {
  switch (unit) {
    case "share": return pct(v, 0);
    case "×": return F.burn(S.fmt, v).replace(/\s*×/, "");
    case "$/h": return num(v, 2);
  }
  return num(v, 0);
}
const axisDecimals = unit => ({ "×": 1, "$/h": 2 })[unit] ?? 0;

function metricSpec(name) { return S.meta.metrics.find(m => m.name === name) || S.meta.outcomes.find(m => m.name === name) || pageMetric(name); }

// pageMetric is a figure the page's rows carry beside the trace's columns:
// p50_ms, the median latency (engine.P50MS), written as p99_ms is.
function pageMetric(name) {
  if (name !== "p50_ms") return undefined;
  return Object.assign({}, S.meta.metrics.find(m => m.name === "p99_ms"), { name });
}
function metricValue(name, v) { const m = metricSpec(name); return m.kind === "bool" ? (v ? t("switch.on") : t("switch.off")) : value(m.unit, v, m.decimals); }

const label = name => name === "p50_ms" ? t("ui.chart.p50") : t("metric." + name + ".label");
// ctlLabel names a control as the shift's scenario calls it: a switch of
// its own by its label, a control it renamed by its words, any other by
// the catalogue's.
const ctlLabel = name => { const l = S.shift && S.shift.labels && S.shift.labels[name]; return l ? text(l) : t("control." + name + ".label"); };
const text = tx => (tx ? tx[S.lang] || tx.en || "" : "");

// ---- the server ------------------------------------------------------------

async function api(method, path, body) {
  // The server writes its errors in the language named here.
  const opts = { method, headers: { "Accept-Language": S.lang } };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  let res;
  try { res = await fetch(path, opts); } catch (e) { throw { status: 0, message: t("ui.error.network") }; }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw { status: res.status, message: data.error || t("ui.error.status", { n: res.status }) };
  return data;
}

// serial runs the calls of one shift one after the other, so that the order
// of decisions and steps is the order the player made them. busy counts
// those not yet ended, for window.oncall.idle().
let chain = Promise.resolve(), busy = 0;
function serial(fn) { busy++; const p = chain.then(fn).finally(() => busy--); chain = p.catch(() => {}); return p; }

// plain are decisions as the server takes them back: without the texts it
// wrote for them.
const plain = ds => ds.map(({ minute, control, value }) => ({ minute, control, value }));

// shiftBody is what rebuilds the shift: its decisions as the server wrote
// them for the link (d), or as a list before it has written any.
function shiftBody(minute) {
  const sh = S.shift;
  const b = { scenario: sh.scenario, seed: sh.seed, noise: sh.noise, minute, autopilot: sh.autopilot || undefined };
  if (sh.d) b.d = sh.d; else b.decisions = plain(sh.decisions || []);
  return b;
}

// withSession calls fn with the session's id; when the session is gone (a
// restart, an idle expiry) it rebuilds it from the decisions and retries.
async function withSession(fn) {
  try { return await fn(S.shift.id); } catch (e) {
    if (e.status !== 404) throw e;
    await rebuild(S.shift.rows.length);
    return await fn(S.shift.id);
  }
}

async function rebuild(minute) {
  const st = await api("POST", "/api/sessions", shiftBody(minute));
  adopt(st);
}

// adopt takes a shift as the server sends it: its rows, the lines of its
// timeline and the values of its decisions in every language, the tiles'
// levels and the charts' bounds.
function adopt(st) {
  const sh = S.shift;
  Object.assign(sh, {
    id: st.id, start: st.start, duration: st.duration, initial: st.initial, rows: st.rows, done: st.done, outcome: st.outcome || null,
    decisions: st.decisions, d: st.d, times: st.times, levels: st.levels, lines: st.lines, texts: {},
    switches: st.switches || [], labels: st.labels || {},
  });
  addTexts(st.texts);
  S.drawn = 0; S.sent = {};
  $("timeline").textContent = "";
}

function addTexts(list) { for (const x of list) S.shift.texts[x.minute] = x; }

// ---- messages --------------------------------------------------------------

function say(msg, info) { const m = $("message"); m.textContent = msg; m.hidden = !msg; m.classList.toggle("info", !!info); }
function oops(e) { say(e && e.message ? e.message : String(e)); }

// ---- language --------------------------------------------------------------

async function setLang(lang) {
  const known = S.meta.languages.map(l => l.code);
  if (!known.includes(lang)) lang = known.includes(S.meta.lang) ? S.meta.lang : "en";
  const p = await api("GET", "/api/i18n/" + lang);
  if (!S.en.__loaded) {
    S.en = lang === "en" ? p.messages : (await api("GET", "/api/i18n/en")).messages;
    S.en.__loaded = "1";
  }
  S.lang = lang; S.msgs = p.messages; S.fmt = p.format || {}; S.dir = p.dir || "ltr";
  document.documentElement.lang = lang;
  document.documentElement.dir = p.dir || "ltr";
  try { localStorage.setItem("oncall.lang", lang); } catch (e) { /* private mode */ }
  translate();
}

function translate() {
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  $("foot").textContent = t("model.disclaimer");
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  const sel = $("lang");
  sel.textContent = "";
  for (const l of S.meta.languages) sel.add(new Option(l.name, l.code, false, l.code === S.lang));
  fillScenarios();
  fillPilots();
  if (S.shift) { drawControls(); S.drawn = 0; $("timeline").textContent = ""; draw(); }
  if (!$("model").hidden) loadModel().catch(oops);
  if (!$("results").hidden && S.gameday) showResults(S.gameday).catch(oops);
  updateLink();
}

// ---- start -----------------------------------------------------------------

function randomSeed() { return crypto.getRandomValues(new Uint32Array(1))[0]; }

function fillScenarios() {
  const sel = $("scenario"), cur = sel.value;
  sel.textContent = "";
  for (const s of S.meta.scenarios) sel.add(new Option(text(s.title), s.id));
  if (cur) sel.value = cur;
  brief();
}

function brief() {
  const s = S.meta.scenarios.find(x => x.id === $("scenario").value);
  if (s) $("briefing").innerHTML = `<h3>${esc(text(s.title))}</h3><p>${esc(text(s.briefing))}</p>`;
}

function fillPilots() {
  $("pilotbox").hidden = !S.meta.autopilot;
  const sel = $("pilot"), cur = sel.value;
  sel.textContent = "";
  sel.add(new Option(t("ui.pilot.none"), ""));
  for (const p of S.meta.policies) sel.add(new Option(policyTitle(p), p));
  sel.add(new Option(t("ui.pilot.pasted"), "__pasted"));
  sel.value = cur || "";
}

// showView shows one view of the page, from its top.
function showView(name) {
  const was = ["start", "shift", "model", "results"].find(v => !$(v).hidden);
  for (const v of ["start", "shift", "model", "results"]) $(v).hidden = v !== name;
  if (was !== name) scrollTo(0, 0);
}

function showStart() {
  stop();
  keep();
  showView("start");
  $("seed").value = randomSeed();
  const saved = loadSaved();
  $("resume").hidden = !saved;
  const gd = S.gd;
  $("gdjoin").hidden = !gd;
  $("gdbox").hidden = !!gd;
  for (const id of ["scenario", "seed", "newseed", "noise"]) $(id).disabled = !!gd;
  if (gd) {
    $("scenario").value = gd.scenario; $("seed").value = gd.seed; $("noise").checked = gd.noise; brief();
    const s = S.meta.scenarios.find(x => x.id === gd.scenario);
    $("gdtext").textContent = t("ui.gameday.join", { title: s ? text(s.title) : gd.scenario, seed: gd.seed });
    try { $("gdname").value = localStorage.getItem("oncall.name") || ""; } catch (e) { /* storage off */ }
  }
  updateLink();
}

// fillStart puts a link's shift into the start form, a pasted policy into
// the editor, for the player to start or not. A pasted policy's link keeps
// its decisions, its takeover and its minute aside (S.linked): started as
// the link left it, the shift opens where the link's did, decision for
// decision, as a link without a pasted policy opens by itself.
function fillStart(sh, m) {
  if (S.meta.scenarios.some(x => x.id === sh.scenario)) { $("scenario").value = sh.scenario; brief(); }
  if (Number.isInteger(sh.seed) && sh.seed >= 0) $("seed").value = sh.seed;
  $("noise").checked = sh.noise;
  const a = sh.autopilot;
  if (a && a.source !== undefined) { $("pilot").value = "__pasted"; $("pilotsrc").value = a.source; $("pastebox").hidden = false; }
  else if (a && [...$("pilot").options].some(o => o.value === a.policy)) $("pilot").value = a.policy;
  S.linked = a && a.source !== undefined ? { scenario: sh.scenario, seed: sh.seed, noise: sh.noise, source: a.source, until: a.until, d: sh.d, m } : null;
  updateLink();
}

async function startShift(ev) {
  ev.preventDefault();
  say("");
  if (S.gd) {
    const name = $("gdname").value.trim();
    if (!name) { say(t("ui.gameday.noname")); $("gdname").focus(); return; }
    // A name another participant has sent is met once with a warning:
    // pressing Start again plays on, to be listed as "Alex (2)".
    if (name !== sentName() && S.warned !== name) {
      try {
        const g = await api("GET", "/api/gamedays/" + encodeURIComponent(S.gameday));
        if (g.results.some(r => r.name === name)) { S.warned = name; say(t("ui.gameday.taken", { name: isolated(name) })); $("gdname").focus(); return; }
      } catch (e) { /* the server says more when the result is sent */ }
    }
    try { localStorage.setItem("oncall.name", name); } catch (e) { /* storage off */ }
  }
  const seed = $("seed").value.trim();
  if (!/^\d{1,10}$/.test(seed) || +seed > 4294967295) { say(t("ui.error.seed")); $("seed").focus(); return; }
  let autopilot;
  const p = $("pilot").value;
  if (p === "__pasted") autopilot = { source: $("pilotsrc").value, until: -1 };
  else if (p) autopilot = { policy: p, until: -1 };
  const l = S.linked;
  if (!S.gd && l && autopilot && autopilot.source === l.source && $("scenario").value === l.scenario && +seed === l.seed && $("noise").checked === l.noise) {
    S.linked = null;
    return await open({ scenario: l.scenario, seed: l.seed, noise: l.noise, d: l.d, decisions: [], autopilot: { source: l.source, until: l.until } }, l.m);
  }
  // A new shift opens on its first minute computed, minute 0: the tiles,
  // the charts and their axes have a real minute to show from the start.
  // joined: this shift's result goes to the game day, by this click alone.
  await open({ scenario: $("scenario").value, seed: +seed, noise: $("noise").checked, decisions: [], autopilot, joined: !!S.gd }, 1);
}

// open builds a shift on the server to minute m and shows it.
async function open(sh, m) {
  stop();
  $("diagnostics").hidden = true;
  S.shift = Object.assign({ rows: [], decisions: [] }, sh);
  try {
    await serial(() => rebuild(m));
  } catch (e) {
    if (sh.autopilot && e.status === 422) { showView("start"); $("diagnostics").textContent = e.message; $("diagnostics").hidden = false; }
    oops(e);
    if (!$("shift").hidden || !S.shift.id) { S.shift = null; showView("start"); }
    return;
  }
  showView("shift");
  drawControls();
  draw();
  save();
  $("main").focus({ preventScroll: true });
  if (S.shift.done) await serial(finish);
}

// ---- running ---------------------------------------------------------------

function speed() { return +$("speed").value || 1; }

function play() {
  if (!S.shift || S.shift.done) return;
  S.running = true;
  $("playbtn").textContent = t("ui.run.pause");
  $("playbtn").setAttribute("aria-pressed", "true");
  loop();
}

function stop() {
  S.running = false;
  clearTimeout(S.timer);
  const b = $("playbtn");
  b.textContent = t("ui.run.play");
  b.setAttribute("aria-pressed", "false");
}

// loop advances the clock while the shift runs. Each start of the loop
// takes a new number, so that a loop left waiting on the server when the
// speed changes ends instead of running beside the new one.
async function loop(id = ++S.loopId) {
  if (!S.running || id !== S.loopId) return;
  const sp = speed(), per = Math.max(1, Math.round(sp / 20));
  const began = performance.now();
  try { await serial(() => advance(per)); } catch (e) { oops(e); stop(); return; }
  if (S.running && id === S.loopId && !S.shift.done) S.timer = setTimeout(() => loop(id), Math.max(0, (1000 * per) / sp - (performance.now() - began)));
}

async function advance(n) {
  const sh = S.shift;
  if (!sh || sh.done) return;
  n = Math.min(n, sh.duration - sh.rows.length);
  // With "Pause when paged" the server stops at the minute the page fires,
  // whatever the number of minutes asked: at an hour a second the clock
  // stops on the page, not two minutes after it.
  const pause = $("autopause").checked ? "?pause=page" : "";
  const ans = await withSession(id => api("POST", `/api/sessions/${id}/step${pause}`, { minutes: n }));
  if (ans.rows.length && ans.rows[0].minute !== sh.rows.length) { await rebuild(ans.minute); }
  else { sh.rows.push(...ans.rows); addTexts(ans.texts); }
  sh.done = ans.done;
  sh.outcome = ans.outcome || null;
  say("");
  const paged = ans.rows.some(r => r.events.some(e => e.kind === "page"));
  if (paged && $("autopause").checked) stop();
  if (sh.done) stop();
  draw();
  save();
  if (sh.done) await finish();
}

// finish asks for the debrief of a finished shift and, on a game day,
// sends the decisions for the results page (the server replays them).
async function finish() {
  const sh = S.shift;
  const body = shiftBody(sh.rows.length);
  delete body.minute;
  try {
    sh.debrief = await api("POST", "/api/debrief", body);
    const ser = sh.debrief.series;
    if (ser) sh.reference = ser.requests.map((_, i) => Object.fromEntries(Object.keys(ser).map(k => [k, ser[k][i]])));
  } catch (e) { oops(e); }
  if (S.gameday && sh.joined && !sh.sent) {
    try {
      // The first result this browser sends may not take the name of
      // another participant's: the server lists it as "Alex (2)". A
      // second try sends under the name the first was given, and replaces it.
      const was = sentName(), name = was || localStorage.getItem("oncall.name") || "?";
      const g = await api("POST", `/api/gamedays/${encodeURIComponent(S.gameday)}/results`, { name, once: !was, decisions: plain(sh.decisions), autopilot: sh.autopilot || undefined });
      const mine = was || g.results.at(-1).name;
      try { localStorage.setItem("oncall.sent." + S.gameday, mine); } catch (e) { /* storage off */ }
      sh.sent = true;
      say(mine !== name ? t("ui.gameday.renamed", { name: isolated(mine), asked: isolated(name) }) : t("ui.gameday.sent"), true);
    } catch (e) { oops(e); }
  }
  draw();
}

async function decideCtl(name, v) {
  say("");
  try {
    const d = await serial(() => withSession(id => api("POST", `/api/sessions/${id}/decide`, { control: name, value: v })));
    S.shift.decisions.push(d);
    S.shift.d = d.d;
    save();
    drawPending();
  } catch (e) { oops(e); }
}

async function takeover() {
  const sh = S.shift;
  if (!sh || !sh.autopilot || sh.autopilot.until >= 0) return;
  try {
    const ans = await serial(() => withSession(id => api("POST", `/api/sessions/${id}/takeover`, {})));
    sh.autopilot.until = ans.until;
    save();
    drawControls();
    draw();
  } catch (e) { oops(e); }
}

// ---- storage and link ------------------------------------------------------

// copyLink copies the share link. The clipboard API needs a secure context
// (HTTPS or this computer), which the LAN address of oncall play --addr
// 0.0.0.0 is not: there the link is selected and copied the old way, and
// when even that is refused the link stays shown and selected, with a
// message that says to copy it by hand.
async function copyLink() {
  const box = $("share"), link = box.value;
  try { await navigator.clipboard.writeText(link); say(t("ui.share.copied"), true); return; } catch (e) { /* not a secure context: below */ }
  box.classList.add("shown");
  box.focus(); box.select(); box.setSelectionRange(0, link.length);
  let done = false;
  try { done = document.execCommand("copy"); } catch (e) { done = false; }
  if (done) { box.classList.remove("shown"); say(t("ui.share.copied"), true); } else say(t("ui.share.select"), true);
}


function linkParams() {
  const q = new URLSearchParams();
  const sh = S.shift;
  if (sh) {
    q.set("scenario", sh.scenario); q.set("seed", sh.seed);
    if (!sh.noise) q.set("noise", "false");
    // A pasted policy travels in the link as text, so that the link replays it too.
    if (sh.autopilot) { q.set(sh.autopilot.policy ? "pilot" : "src", sh.autopilot.policy || sh.autopilot.source); if (sh.autopilot.until >= 0) q.set("until", sh.autopilot.until); }
    // The decisions as the server writes them for a link, and reads them back.
    if (sh.d) q.set("d", sh.d);
    q.set("m", sh.rows.length);
  } else if (!$("model").hidden) {
    q.set("view", "model");
    // The values in force travel with the link: the scenario and its seed.
    if (S.modelFor) { q.set("scenario", S.modelFor.scenario); if (S.modelFor.seed !== undefined) q.set("seed", S.modelFor.seed); if (S.modelFor.hidden) q.set("draws", "hidden"); }
  }
  else if (!$("results").hidden) q.set("view", "results");
  else if (!$("start").hidden && !S.gameday) startParams(q);
  if (S.gameday) q.set("gameday", S.gameday);
  q.set("lang", S.lang);
  return q;
}

// startParams puts the start page's choice in its link: the scenario, the
// seed in the seed box when it is one, and the noise when it is off. The
// link opens the start page so chosen (startFromLink), for its reader to
// read the briefing and start.
function startParams(q) {
  q.set("view", "start");
  if ($("scenario").value) q.set("scenario", $("scenario").value);
  const seed = $("seed").value.trim();
  if (/^\d{1,10}$/.test(seed) && +seed <= 4294967295) q.set("seed", seed);
  if (!$("noise").checked) q.set("noise", "false");
}

// startFromLink opens the start page with the choice its link carries.
function startFromLink(q) {
  showStart();
  if (S.gd) return; // a game day's start page plays the game day's shift
  const sc = q.get("scenario"), seed = q.get("seed") || "";
  if (S.meta.scenarios.some(x => x.id === sc)) { $("scenario").value = sc; brief(); }
  if (/^\d{1,10}$/.test(seed) && +seed <= 4294967295) $("seed").value = seed;
  $("noise").checked = q.get("noise") !== "false";
  updateLink();
}

function updateLink() {
  const q = linkParams();
  const url = location.origin + location.pathname + "?" + q.toString();
  $("share").value = url;
  // On the start page the seed shown is the one in the seed box.
  $("seedshow").textContent = S.shift ? S.shift.seed : ($("seed").value.trim() || "–");
  // Each view is an entry of the browser's history: a new view pushes
  // one, and the minutes of a shift, a new language or a new seed only
  // rewrite the entry of the view shown.
  const view = viewName();
  if (S.histView && view !== S.histView) history.pushState({ view }, "", "?" + q.toString());
  else history.replaceState({ view }, "", "?" + q.toString());
  S.histView = view;
}

function viewName() {
  if (S.shift) return S.shift.done ? "debrief" : "shift";
  return ["model", "results"].find(v => !$(v).hidden) || "start";
}

// keep puts the shift being played aside when another view opens: Back
// brings it back as it was, its session still open, its clock where it
// stopped.
function keep() {
  if (S.shift) S.kept = S.shift;
  S.shift = null;
}

// openLink opens the shift a link names, as boot() and Back or Forward
// reach it.
async function openLink(q) {
  const until = q.has("until") ? +q.get("until") : -1;
  const a = q.get("pilot") ? { policy: q.get("pilot"), until } : q.get("src") ? { source: q.get("src"), until } : undefined;
  const sh = { scenario: q.get("scenario"), seed: +q.get("seed"), noise: q.get("noise") !== "false", d: q.get("d") || "", autopilot: a };
  // A link opens its shift by itself only when it plays no pasted
  // policy and sends nothing to a game day, or when it is the page's
  // own shift (a reload). Any other, which another site may have
  // written, fills the form: the player starts it, and joins the game
  // day, by a click.
  const own = ownShift(sh, S.gameday);
  if (own) return await open(Object.assign(sh, { joined: own.joined, sent: own.sent }), Math.max(1, +(q.get("m") || 0)));
  if (!S.gameday && !q.has("src")) return await open(sh, Math.max(1, +(q.get("m") || 0)));
  showStart();
  if (!S.gameday) fillStart(sh, Math.max(1, +(q.get("m") || 0)));
}

// onHistory shows the view of a history entry that Back or Forward reached.
async function onHistory(e) {
  const q = new URLSearchParams(location.search), view = (e.state && e.state.view) || "";
  S.histView = view || null;
  try {
    if (q.get("lang") && q.get("lang") !== S.lang) await setLang(q.get("lang"));
    if (q.get("view") === "model") return await showModel(modelTarget(q));
    if (q.get("gameday") && q.get("view") === "results") return await showResults(q.get("gameday"));
    if (q.get("view") === "start") return startFromLink(q);
    const k = S.kept;
    if (q.get("scenario") && k && k.scenario === q.get("scenario") && String(k.seed) === q.get("seed")) {
      stop();
      S.shift = k; S.kept = null;
      showView("shift");
      drawControls(); S.drawn = 0; $("timeline").textContent = ""; draw();
      if (view === "debrief") $("end").scrollIntoView();
      updateLink();
      return;
    }
    if (q.get("scenario")) return await openLink(q);
    showStart();
  } catch (err) { oops(err); }
}

function save() {
  updateLink();
  const sh = S.shift;
  if (!sh) return;
  try {
    localStorage.setItem("oncall.shift", JSON.stringify({ scenario: sh.scenario, seed: sh.seed, noise: sh.noise, d: sh.d, autopilot: sh.autopilot, minute: sh.rows.length, done: sh.done, gameday: S.gameday, joined: sh.joined, sent: sh.sent }));
  } catch (e) { /* storage full or off: the link still holds the shift */ }
}

function loadSaved(finished) {
  try { const s = JSON.parse(localStorage.getItem("oncall.shift")); return s && (finished || !s.done) ? s : null; } catch (e) { return null; }
}

// ownShift is the shift of local storage when a link names it, the page's
// own (a reload, a resume), whose game-day result the player joined.
function ownShift(sh, gameday) {
  const s = loadSaved(true), a = sh.autopilot, b = s && s.autopilot;
  const same = s && s.scenario === sh.scenario && String(s.seed) === String(sh.seed) && !!s.noise === !!sh.noise && (s.d || "") === sh.d &&
    (s.gameday || "") === (gameday || "") && (a ? !!b && (b.policy || "") === (a.policy || "") && (b.source || "") === (a.source || "") && b.until === a.until : !b);
  return same ? s : null;
}

// ---- drawing ---------------------------------------------------------------

// The dashboard: the six tiles a person on call reads first, shown large,
// then the others. db_util and db_errors sit side by side: together they
// say whether the database is the trouble.
// TILE_LABELS are the key tiles' own short names, where the metric's name
// would wrap in a tile a sixth of the dashboard wide: the charts and the
// tables say the whole name.
const TILE_LABELS = { burn_1h: "ui.tile.burn_1h", budget_left: "ui.tile.budget_left", serving: "ui.tile.serving" };
const KEY_TILES = ["error_rate", "burn_1h", "budget_left", "p99_ms", "serving", "cost_per_hour"];
const MORE_TILES = ["requests", "capacity", "utilization", "booting", "shed_traffic", "new_build",
  "db_util", "db_errors", "hit_rate", "cache_age_s", "recommendations", "cost"];

// level is a tile's colour by the levels the server sends with the shift.
function level(name, v) {
  const l = S.shift.levels[name];
  if (!l) return "";
  const past = b => b !== undefined && (l.below ? (l.strict ? v < b : v <= b) : (l.strict ? v > b : v >= b));
  return past(l.bad) ? "bad" : past(l.warn) ? "warn" : "";
}

// clockAt is the time of day at minute m of the shift, as the server wrote it.
function clockAt(m) { return S.shift.times[Math.min(Math.max(m, 0), S.shift.times.length - 1)]; }

function tilesHTML(names, cls) {
  return names.map(n => `<div class="tile ${cls}" id="tile-${n}"><dt></dt><dd><bdi id="val-${n}">–</bdi></dd></div>`).join("");
}

function draw() {
  const sh = S.shift;
  if (!sh) return;
  const last = sh.rows[sh.rows.length - 1];
  // The clock and the count agree: at 08:05 of a shift that began at 08:00,
  // 5 minutes have gone by; at the end the clock reads the end of the shift.
  const at = sh.done ? sh.duration : last ? last.minute : 0;
  $("clock").textContent = clockAt(at);
  $("progress").textContent = t("ui.run.progress", { m: num(at, 0), n: num(sh.duration, 0) });
  $("playbtn").disabled = sh.done; $("step1").disabled = sh.done;
  if (!$("tiles").children.length) {
    $("tiles").innerHTML = tilesHTML(KEY_TILES, "key");
    $("moretiles").innerHTML = tilesHTML(MORE_TILES, "");
    $("deptiles").innerHTML = tilesHTML(DEP_TILES, "");
  }
  $("deptiles").hidden = !usesDependency(sh.rows);
  for (const n of KEY_TILES.concat(MORE_TILES, DEP_TILES)) {
    const el = $("tile-" + n);
    el.querySelector("dt").innerHTML = isoRuns(TILE_LABELS[n] ? t(TILE_LABELS[n]) : label(n));
    $("val-" + n).innerHTML = isoRuns(last ? metricValue(n, last[n]) : "–");
    el.className = "tile " + (KEY_TILES.includes(n) ? "key " : "") + (last ? level(n, last[n]) : "");
  }
  fitTiles(last);
  drawPage(last);
  drawCharts();
  drawProjection();
  drawTimeline();
  drawLogs(sh, { t, num, esc });
  drawPending();
  drawPilot();
  drawEnd();
}

// fitTiles makes each tile's value and second line fit its tile, as
// laid out in the page's language and width (fit.js); the page calls it
// again, with the budget's projection, when the window or its fonts change.
function fitTiles(last) {
  fitAll(KEY_TILES.concat(MORE_TILES, DEP_TILES).map(n => $("val-" + n).parentNode));
  drawP50(last);
}

// drawP50 writes the last minute's median latency under the p99 tile, a
// dd after its value, as the budget tile writes its projection: with the
// figure's name, or as p50 where that does not fit.
function drawP50(last) {
  const box = $("tile-p99_ms");
  if (!box) return;
  let el = $("val2-p50_ms");
  if (!el) { el = document.createElement("dd"); el.id = "val2-p50_ms"; el.className = "proj"; box.append(el); }
  el.hidden = !(last && last.p50_ms != null);
  if (el.hidden) return;
  const v = iso(metricValue("p50_ms", last.p50_ms));
  fit(el, [`${isoRuns(label("p50_ms"))} ${v}`, `<bdi dir="ltr">p50</bdi> ${v}`]);
}

// drawProjection writes when the error budget runs out at the current
// burn (projection.js) under the budget tile and under the budget chart.
function drawProjection() {
  const sh = S.shift, p = sh.rows.length ? exhaustion(sh.rows) : null;
  // The chart says it in a sentence, the tile in a few words on one line:
  // when and in how long, or in how long alone where both do not fit.
  let msg = "", short = "", shorter = "";
  if (p && p.spent) { msg = t("ui.budget.spent"); short = t("ui.budget.tile.spent"); }
  else if (p && p.minute !== null && p.minute <= sh.duration) {
    msg = tn("ui.budget.runs_out", p.in, { time: clockAt(p.minute) });
    short = t("ui.budget.tile.runs_out", { time: clockAt(p.minute), in: F.minutes(S.fmt, p.in) });
    shorter = t("ui.budget.tile.runs_out_in", { in: F.minutes(S.fmt, p.in) });
  } else if (p) { msg = t("ui.budget.holds"); short = t("ui.budget.tile.holds"); }
  const chart = $("chart-" + chartDefs().findIndex(d => d.key === "ui.chart.budget"));
  for (const [box, id] of [[$("tile-budget_left"), "budget-proj"], [chart, "chart-budget-proj"]]) {
    if (!box) continue;
    let el = $(id);
    // In the tile a dd after the value (a tile is a dt and its dds), under the chart a paragraph.
    if (!el) { el = document.createElement(box.classList.contains("tile") ? "dd" : "p"); el.id = id; el.className = "proj"; box.append(el); }
    const tile = el.tagName === "DD";
    el.hidden = !msg;
    if (!tile) el.innerHTML = isoRuns(msg);
    else if (msg) { el.title = msg; fit(el, [short, shorter].filter(Boolean).map(isoRuns)); }
  }
}

// iso isolates a value inside a line: in right-to-left text its Latin runs
// ("4.00 $/h", "1 h", "09:16") keep their order left to right, while a
// unit the language writes in its own letters stays in the text's
// direction: "10 منٹ" reads number first, on the right, as Urdu writes it.
function iso(s) { return `<bdi>${isoRuns(s)}</bdi>`; }
const LTR_RUN = /[0-9A-Za-z$][0-9A-Za-z$.,:%×\/ ]*[0-9A-Za-z$%×]|[0-9A-Za-z$]/g;
function isoRuns(s) {
  if (S.dir !== "rtl") return esc(s);
  s = String(s);
  let out = "", at = 0;
  for (const m of s.matchAll(LTR_RUN)) {
    out += esc(s.slice(at, m.index)) + `<bdi dir="ltr">${esc(m[0])}</bdi>`;
    at = m.index + m[0].length;
  }
  return out + esc(s.slice(at));
}

// tHTML fills a message with pieces of HTML: the message is escaped, the
// pieces are not (they are built escaped).
function tHTML(key, vars) {
  const s = S.msgs[key] ?? S.en[key] ?? key;
  return esc(s).replace(/\{([A-Za-z0-9_]+)\}/g, (m, k) => (k in vars ? vars[k] : m));
}

// pageValues are the page rule's bounds that hold at the last row, each
// with its value: the rule in force is the server's (a scenario may set
// its own), and so are its bounds. The comparison sign is left out of the
// isolated runs, so that right-to-left text mirrors it.
function pageValues(last) {
  const ops = { ">=": (a, b) => a >= b, ">": (a, b) => a > b, "<=": (a, b) => a <= b, "<": (a, b) => a < b };
  const held = S.shift.lines.filter(b => b.why === "page" && last[b.metric] !== undefined && ops[b.op] && ops[b.op](last[b.metric], b.value));
  // The shortest burn window first: it falls first once the errors stop.
  held.sort((a, b) => windowOf(a.metric) - windowOf(b.metric));
  return held.map(b => {
    const m = metricSpec(b.metric);
    return `<span class="pv">` + tHTML("ui.page.value", { metric: isoRuns(label(b.metric)), value: iso(value(m.unit, last[b.metric], m.decimals)), op: esc(b.op.replace(">=", "≥").replace("<=", "≤")), bound: iso(value(m.unit, b.value, m.decimals)) }) + "</span>";
  });
}

// windowOf is the minutes a burn window spans, for the order of the page's
// values; other metrics come after the windows.
function windowOf(metric) { return { burn_5m: 5, burn_30m: 30, burn_1h: 60, burn_6h: 360 }[metric] ?? 1e9; }

function drawPage(last) {
  const a = $("alert");
  const paging = last && last.paging;
  const was = document.body.classList.contains("paging");
  document.body.classList.toggle("paging", !!paging);
  if (paging) {
    a.className = "alert";
    const vals = pageValues(last);
    const html = `<span class="big">${esc(t("ui.page.title"))}</span> <span class="why">${tHTML("ui.page.text", { values: vals.join(" · ") || "–" })} ${vals.length ? esc(t("ui.page.clears")) : ""}</span>`;
    if (a.innerHTML !== html) a.innerHTML = html;
    a.dataset.state = "page";
    a.hidden = false;
    document.title = "🔔 " + t("ui.page.title") + " · " + t("ui.title");
  } else if (last && S.shift.rows.some(r => r.paging)) {
    if (a.dataset.state !== "resolved") { a.className = "alert resolved"; a.textContent = t("ui.page.resolved"); a.dataset.state = "resolved"; }
    a.hidden = false;
    document.title = t("ui.title");
  } else { a.hidden = true; a.dataset.state = ""; document.title = t("ui.title"); }
  // During the page, Roll back is the first control, where the eye and the
  // Tab key reach it first.
  if (!!paging !== was) orderControls(!!paging);
}

function orderControls(paging) {
  const box = $("controls"), rb = $("ctlrow-rollback");
  if (!rb) return;
  if (paging) box.prepend(rb); else box.append(rb);
  rb.classList.toggle("urgent", paging);
}

const COLORS = ["#0b57d0", "#b3261e", "#0a7d5a", "#8a4fbf", "#c25e00"];

function chartDefs() {
  return [
    { key: "ui.chart.traffic", unit: "req/s", lines: ["requests", "capacity"] },
    { key: "ui.chart.p99", unit: "ms", lines: ["p99_ms", "p50_ms"] },
    { key: "ui.chart.burn", unit: "×", lines: ["burn_5m", "burn_1h", "burn_30m", "burn_6h"] },
    { key: "ui.chart.budget", unit: "share", lines: ["budget_left"] },
    { key: "ui.chart.cache", unit: "share", lines: ["hit_rate", "db_util", "db_errors"], max: 1 },
    { key: "ui.chart.fleet", unit: "instances", lines: ["serving", "booting", "min_instances"], least: 4 },
    { key: "ui.chart.cost", unit: "$/h", lines: ["cost_per_hour"] },
    // Shown third (app.css), beside the latency: the errors the burn rates
    // come from. Its place in this list keeps the others' ids.
    { key: "ui.chart.errors", unit: "share", lines: ["error_rate"] },
  ].concat(S.shift && usesDependency(S.shift.rows) ? depCharts() : []);
}

// eventLine is the server's line for the i-th event of a row.
function eventLine(r, i) { const x = S.shift.texts[r.minute]; return x && x.events ? text(x.events[i]) : ""; }

const MARKS = { page: "ui.mark.page", resolve: "ui.mark.resolve", deploy: "ui.mark.deploy", flush_cache: "ui.mark.flush_cache", rollback_done: "ui.mark.rollback_done" };

// markOf is how an event shows on the charts: its class and a short label,
// or null for the events the charts leave to the timeline (the
// autoscaler's launches and removals).
function markOf(r, e, i) {
  switch (e.kind) {
    case "page": case "resolve": case "deploy": case "flush_cache": case "rollback_done":
      return { cls: e.kind === "page" ? "page" : "scenario", label: t(MARKS[e.kind]) };
    case "action": return { cls: e.by === "player" ? "player" : "rule", label: ctlLabel(e.name) };
    case "set_control": return { cls: "scenario", label: ctlLabel(e.name) };
    case "set_constant": return { cls: "scenario", label: t("constant." + e.name + ".label") };
    case "say": { const s = eventLine(r, i); return { cls: "scenario", label: [...s].length > 18 ? [...s].slice(0, 17).join("") + "…" : s }; }
  }
  return null;
}

// marks lists the events of the rows as the charts mark them: one mark a
// minute, labelled by its first event, the page first.
function marks(rows, from, to) {
  const out = [];
  for (let m = Math.max(0, from); m < Math.min(rows.length, to + 1); m++) {
    const r = rows[m], all = [];
    r.events.forEach((e, i) => { const k = markOf(r, e, i); if (k) all.push(Object.assign(k, { line: eventLine(r, i) })); });
    if (!all.length) continue;
    all.sort((a, b) => (b.cls === "page") - (a.cls === "page"));
    out.push({ minute: m, cls: all[0].cls, label: all[0].label, title: r.time + " " + all.map(k => k.line).join(" · ") });
  }
  return out;
}

// SPANS are the windows the charts offer: the last hour, two hours, or the
// whole shift. Two hours is the default: the page rule's longest short
// window (1 h) with an hour of context before it.
const SPANS = [[60, "ui.charts.h1"], [120, "ui.charts.h2"], [0, "ui.charts.whole"]];

function chartSpan() {
  const sh = S.shift;
  const w = S.span ?? (sh.done ? 0 : 120);
  return span(sh.rows.length, sh.duration, w);
}

// drawSpans marks the span shown; its buttons are made once, so that a
// click never lands on one that a new minute has just replaced.
function drawSpans() {
  const sh = S.shift, w = S.span ?? (sh.done ? 0 : 120), box = $("spans");
  if (!box.children.length) box.innerHTML = SPANS.map(([n]) => `<button type="button" data-span="${n}"></button>`).join("");
  SPANS.forEach(([n, k], i) => { const b = box.children[i]; b.textContent = t(k); b.setAttribute("aria-pressed", n === w); });
}

function drawCharts() {
  const sh = S.shift, box = $("charts");
  const ref = sh.reference;
  const defs = chartDefs();
  if (box.children.length !== defs.length) box.innerHTML = defs.map((d, i) => `<figure class="chart" id="chart-${i}" data-i="${i}"><figcaption></figcaption><div class="plot" tabindex="0"></div><div class="tip" role="status" aria-live="polite" hidden></div><div class="legend"></div></figure>`).join("");
  drawSpans();
  const [from, to] = chartSpan();
  const mk = marks(sh.rows, from, to);
  S.charts = defs.map((d, i) => {
    const series = [], legend = [];
    d.lines.forEach((name, j) => {
      series.push({ name, k: j, label: label(name), values: sh.rows.map(r => r[name]), color: COLORS[j] });
      legend.push(`<span><i class="k${j}"></i>${isoRuns(label(name))} <b class="now" data-k="${j}"></b></span>`);
      if (ref && ref[0] && ref[0][name] !== undefined) series.push({ name, k: j, label: label(name) + " (" + t("ui.debrief.refline") + ")", values: ref.map(r => r[name]), color: COLORS[j], ref: true });
      const branch = branchSeries(name, j, COLORS[j], label(name));
      if (branch) series.push(branch);
    });
    if (ref) legend.push(`<span><i class="refkey"></i>${esc(t("ui.debrief.refline"))}</span>`);
    legend.push(branchLegend());
    legend.push(alertLegend());
    // The bounds the server sends for the metrics of this chart: the page
    // rule's, the slow p99.
    const bounds = sh.lines.filter(b => d.lines.includes(b.metric));
    const svg = lineChart({
      series, times: sh.times, from, to, now: sh.rows.length, max: d.max, least: d.least, scale: d.unit === "share" ? 100 : 1,
      marks: mk, bands: alertBands(), thresholds: bounds.map(b => ({ value: b.value, title: label(b.metric) + " " + b.op + " " + value(d.unit, b.value), label: axis(d.unit, b.value) })),
      fmtY: v => axis(d.unit, v), decimals: axisDecimals(d.unit), label: t(d.key),
    });
    const fig = $("chart-" + i);
    fig.querySelector("figcaption").innerHTML = isoRuns(t(d.key));
    const plot = fig.querySelector(".plot");
    plot.innerHTML = svg;
    plot.setAttribute("aria-label", t(d.key) + ". " + t("ui.charts.cursor"));
    fig.querySelector(".legend").innerHTML = legend.join("");
    const c = { def: d, series, fig, plot, from, to };
    legendAt(c, sh.rows.length - 1);
    return c;
  });
  if (S.cursor) cursorAll(S.cursor.m, S.cursor.i);
}

// legendAt writes each line's value at minute m in the chart's legend:
// the last minute's, or the cursor's while one is shown.
function legendAt(c, m) {
  const r = S.shift.rows[m];
  for (const b of c.fig.querySelectorAll(".legend b.now")) {
    const s = c.series.find(x => !x.ref && !x.whatif && x.k === +b.dataset.k);
    b.innerHTML = r && s && s.values[m] != null ? iso(metricValue(s.name, s.values[m])) : "";
  }
}

// cursorAll is the crosshair shared by every chart: the same minute on
// each, its values in each legend, the tip on the chart pointed at (i).
function cursorAll(m, i) {
  for (const c of S.charts) {
    if (+c.fig.dataset.i === i) cursor(c, m);
    else if (m == null) { showCursor(c.plot.querySelector("svg"), null); c.fig.querySelector(".tip").hidden = true; }
    else { const k = Math.min(Math.max(m, 0), S.shift.rows.length - 1); showCursor(c.plot.querySelector("svg"), k >= c.from && k <= c.to ? k : null); }
    legendAt(c, m == null ? S.shift.rows.length - 1 : Math.min(Math.max(m, 0), S.shift.rows.length - 1));
  }
}

// cursor shows the values of minute m on a chart, beside a line across it.
function cursor(c, m) {
  const sh = S.shift, svg = c.plot.querySelector("svg"), tip = c.fig.querySelector(".tip");
  if (m == null || !sh.rows.length) { showCursor(svg, null); tip.hidden = true; return; }
  m = Math.min(Math.max(m, c.from, 0), Math.min(c.to, sh.rows.length - 1));
  S.cursor = { i: +c.fig.dataset.i, m };
  showCursor(svg, m);
  const items = c.series.filter(s => s.values[m] != null).map(s => `<li><i class="${s.ref ? "refkey" : "k" + s.k}"></i>${isoRuns(s.label)} ${iso(metricValue(s.name, s.values[m]))}</li>`);
  const r = sh.rows[m], ev = r.events.map((e, i) => eventLine(r, i)).filter(Boolean);
  tip.innerHTML = `<b>${iso(clockAt(m))}</b><ul>${items.join("")}</ul>` + (ev.length ? `<p>${ev.map(esc).join("<br>")}</p>` : "");
  tip.hidden = false;
}

function drawTimeline() {
  const sh = S.shift, ol = $("timeline");
  for (; S.drawn < sh.rows.length; S.drawn++) {
    const r = sh.rows[S.drawn], x = sh.texts[r.minute] || {};
    const items = r.events.map((e, i) => [e.kind === "page" ? "page" : e.kind === "action" ? (e.by === "player" ? "player" : "rule") : "", eventLine(r, i)]);
    (x.fired || []).forEach(f => items.push(["rule", text(f)]));
    for (const [cls, msg] of items) {
      const li = document.createElement("li");
      li.className = cls;
      li.innerHTML = `<time>${esc(r.time)}</time><span>${isoRuns(msg)}</span>`;
      ol.prepend(li);
    }
  }
}

// A control in the units of the dashboard: a share as a percentage on a
// slider, a count or seconds in a stepper, each with its range shown.
function ctlUnit(c) { return c.unit === "share" ? "%" : c.unit === "s" ? "s" : ""; }
function toShown(c, v) { return ctlUnit(c) === "%" ? Math.round(v * 1000) / 10 : v; }
function fromShown(c, v) { return ctlUnit(c) === "%" ? Math.round(v * 10) / 1000 : v; }
function shownText(c, v) {
  const u = ctlUnit(c);
  return u === "%" ? pct(v, 0) : u === "s" ? t("ui.unit.s", { n: num(v, 0) }) : num(v, 0);
}

// ACTIONS are the actions' buttons: their words and their keys.
const ACTIONS = {
  rollback: { text: "ui.controls.rollback", key: "R" },
  warmup: { text: "ui.controls.warmup" },
  pause_rollout: { text: "ui.controls.pause_rollout", key: "P" },
  resume_rollout: { text: "ui.controls.resume_rollout", key: "U" },
};

// controlsOf are the controls of the shift: the model's, then the switches
// of its scenario's own (a switch, named "switch.<id>", with its help).
function controlsOf(sh) {
  return S.meta.controls.concat(((sh && sh.switches) || []).map(w => ({ name: w.name, kind: "bool", help: w.help, own: true })));
}

// ctlValue is a control's value in a row: a switch of the scenario's in
// the row's switches.
function ctlValue(r, name) { return name.startsWith("switch.") ? (r.switches || {})[name.slice(7)] : r[name]; }

function controlHTML(c, dis) {
  const id = "ctl-" + c.name, lab = `<label for="${id}">${esc(ctlLabel(c.name))}</label>`;
  const helpText = c.own ? text(c.help) || t("ui.controls.switch_help") : t("control." + c.name + ".help");
  const help = `<p class="help" id="help-${c.name}">${esc(helpText)}</p><p class="pending" id="pend-${c.name}" aria-live="polite"></p>`;
  const desc = `aria-describedby="help-${c.name} pend-${c.name}"`;
  if (c.kind === "action") {
    const rb = c.name === "rollback", a = ACTIONS[c.name] || ACTIONS.warmup;
    return `<div class="ctl" id="ctlrow-${c.name}"><span class="name">${esc(ctlLabel(c.name))}</span><button type="button" id="${id}" class="${rb ? "danger" : ""}" data-ctl="${c.name}" ${desc}${a.key ? ` aria-keyshortcuts="${a.key}"` : ""}${dis}>${esc(t(a.text))}</button>${help}</div>`;
  }
  if (c.kind === "bool") {
    const key = c.name === "breaker" ? ' aria-keyshortcuts="B"' : "";
    return `<div class="ctl" id="ctlrow-${c.name}">${lab}<input type="checkbox" role="switch" class="switch" id="${id}" data-ctl="${c.name}" ${desc}${key}${dis}>${help}</div>`;
  }
  const pctCtl = ctlUnit(c) === "%";
  const lo = toShown(c, c.min), hi = toShown(c, c.max);
  const step = pctCtl ? 5 : c.name === "ttl_s" ? 15 : 1;
  const range = `<span class="range" aria-hidden="true"><bdi>${esc(shownText(c, c.min))}</bdi>–<bdi>${esc(shownText(c, c.max))}</bdi></span>`;
  const input = pctCtl
    ? `<input type="range" id="${id}" min="${lo}" max="${hi}" step="${step}" ${desc}${dis}><output id="out-${c.name}" for="${id}"></output>`
    : `<button type="button" class="stepb" data-step="-${step}" data-for="${c.name}" aria-label="−${step}"${dis}>−</button><input type="number" id="${id}" min="${lo}" max="${hi}" step="${c.kind === "int" ? 1 : "any"}" inputmode="numeric" ${desc}${dis}><button type="button" class="stepb" data-step="${step}" data-for="${c.name}" aria-label="+${step}"${dis}>+</button>`;
  return `<div class="ctl num" id="ctlrow-${c.name}">${lab}<form class="set" data-ctl="${c.name}" novalidate>${input}<button type="submit" class="apply"${dis}>${esc(t("ui.controls.set"))}</button></form>${range}${help}</div>`;
}

function drawControls() {
  const box = $("controls"), sh = S.shift;
  const locked = sh && sh.autopilot && sh.autopilot.until < 0;
  box.innerHTML = controlsOf(sh).map(c => controlHTML(c, locked ? " disabled" : "")).join("");
  orderControls(document.body.classList.contains("paging"));
  syncControls(true);
}

// syncControls shows the controls in force, except in a field being edited.
function syncControls(all) {
  const sh = S.shift;
  if (!sh) return;
  const last = sh.rows[sh.rows.length - 1];
  // The rollout's buttons work while a rollout serves part of the traffic.
  const live = rolloutLive(sh.rows), locked = sh.autopilot && sh.autopilot.until < 0;
  for (const n of ["pause_rollout", "resume_rollout"]) { const b = $("ctl-" + n); if (b) b.disabled = !!locked || sh.done || !live; }
  for (const c of controlsOf(sh)) {
    if (c.kind === "action") continue;
    const el = $("ctl-" + c.name);
    const v = last ? ctlValue(last, c.name) : sh.initial[c.name];
    if (c.kind === "bool") { el.checked = !!v; continue; }
    const row = $("ctlrow-" + c.name);
    if (all || (!row.contains(document.activeElement) && !row.classList.contains("edited"))) { el.value = toShown(c, v); row.classList.remove("edited"); }
    showOutput(c);
  }
}

// showOutput writes a slider's value beside it, in the page's language.
function showOutput(c) {
  const out = $("out-" + c.name);
  if (out) out.innerHTML = iso(shownText(c, fromShown(c, +$("ctl-" + c.name).value)));
}

function drawPending() {
  const sh = S.shift;
  if (!sh) return;
  syncControls(false);
  const now = sh.rows.length;
  for (const c of controlsOf(sh)) {
    const p = $("pend-" + c.name);
    const d = sh.decisions.filter(x => x.minute === now && x.control === c.name).pop();
    p.textContent = d && !sh.done ? t(c.kind === "action" ? "ui.controls.pending_action" : "ui.controls.pending", { value: text(d.text), time: clockAt(now) }) : "";
  }
}

// scenarioTitle is a scenario's title in the page's language: a
// scenario's reference policy goes by its scenario's name.
function scenarioTitle(id) { const s = S.meta.scenarios.find(x => x.id === id); return s ? text(s.title) : id; }

// policyTitle names a policy of the autopilot for a person: a scenario's
// reference policy by the scenario's title, an example by the first words
// of its file.
function policyTitle(name) {
  const s = S.meta.scenarios.find(x => x.id === name);
  if (s) return t("ui.pilot.reference", { title: text(s.title) });
  return (S.meta.policy_titles || {})[name] || name;
}

function drawPilot() {
  const sh = S.shift, a = sh.autopilot;
  $("pilotbar").hidden = !a;
  if (!a) return;
  $("pilotname").textContent = a.until < 0 ? t("ui.pilot.on", { name: a.policy ? policyTitle(a.policy) : t("ui.pilot.pasted") }) : t("ui.pilot.off", { time: clockAt(a.until) });
  $("takeover").hidden = a.until >= 0 || sh.done;
}

function drawEnd() {
  const sh = S.shift;
  $("end").hidden = !sh.done;
  if (!sh.done || !sh.outcome) return;
  const q = new URLSearchParams({ scenario: sh.scenario, seed: sh.seed, noise: sh.noise ? "true" : "false", minute: sh.rows.length, d: sh.d || "" });
  if (sh.autopilot) { q.set(sh.autopilot.policy ? "policy" : "source", sh.autopilot.policy || sh.autopilot.source); q.set("until", sh.autopilot.until); }
  $("csv").href = "/api/trace?" + q + "&format=csv";
  $("json").href = "/api/trace?" + q + "&format=json";
  $("csv").setAttribute("download", `oncall-${sh.scenario}-${sh.seed}.csv`);
  $("json").setAttribute("download", `oncall-${sh.scenario}-${sh.seed}.json`);
  openMetricsLink($("openmetrics"), q, sh);
  drawDebrief();
  drawWhatIf($("whatif"));
  drawAlertRules($("alertrules"));
  drawHappened();
  // Label and value side by side, in columns of pairs: a table as wide as
  // the page put them 1,300 px apart.
  $("outcome").innerHTML = S.meta.outcomes.map(o =>
    `<div><dt>${esc(t("outcome." + o.name + ".label"))}</dt><dd>${iso(outcomeText(o, sh.outcome[o.name]))}</dd></div>`).join("");
}

// drawHappened lists what the scenario did and when the page fired and
// resolved: the story the debrief's moments are set against.
function drawHappened() {
  const sh = S.shift, items = [], quiet = (sh.debrief && sh.debrief.quiet) || [];
  for (const r of sh.rows) {
    r.events.forEach((e, i) => {
      if (["deploy", "flush_cache", "say", "set_constant", "set_control", "page", "resolve", "rollback_done"].includes(e.kind)) items.push(`<li><time>${esc(r.time)}</time> ${isoRuns(eventLine(r, i))}</li>`);
    });
    // What the scenario did quietly, told now that the shift is over.
    for (const q of quiet) if (q.minute === r.minute) items.push(`<li class="quiet"><time>${esc(r.time)}</time> <b>${esc(t("ui.debrief.quiet"))}</b> ${isoRuns(text(q.text))}</li>`);
  }
  $("happened").innerHTML = items.length ? `<h4>${esc(t("ui.debrief.happened"))}</h4><ul class="happened">${items.join("")}</ul>` : "";
}

function drawDebrief() {
  const sh = S.shift, d = sh.debrief, box = $("debrief");
  if (!d) { box.textContent = ""; return; }
  const out = [];
  if (d.criteria.length) {
    // The rows' points, in tenths, add up to the score as shown.
    const shown = shownPoints(d.criteria.map(c => c.points), Math.round(d.score * 10) / 10);
    out.push(`<p class="score" data-score="${Math.round(d.score * 10) / 10}">${esc(t("ui.debrief.score", { score: num(d.score, 1), max: num(d.max, 0) }))}</p>` + scoreLines(d));
    out.push(`<table class="outcome"><thead><tr><th scope="col">${esc(t("ui.debrief.criterion"))}</th><th scope="col">${esc(t("ui.debrief.bound"))}</th><th scope="col">${esc(t("ui.debrief.you"))}</th><th scope="col">${esc(t("ui.debrief.reference"))}</th><th scope="col">${esc(t("ui.debrief.result"))}</th></tr></thead><tbody>`);
    for (const [i, c] of d.criteria.entries()) {
      const o = metricSpec(c.metric);
      // A figure and its unit stay on one line ("95,0 %").
      const f = v => value(o.unit, v, o.decimals).replace(/ /g, "\u00a0");
      out.push(`<tr><th scope="row">${esc(t("outcome." + c.metric + ".label"))}</th><td class="num" data-label="${esc(t("ui.debrief.bound"))}">${esc(t(c.op === "at_least" ? "ui.debrief.at_least" : "ui.debrief.at_most", { bound: f(c.limit) }))}</td>` +
        `<td class="num" data-label="${esc(t("ui.debrief.you"))}">${iso(f(c.value))}</td><td class="num" data-label="${esc(t("ui.debrief.reference"))}">${iso(d.reference ? f(c.reference) : "–")}</td>` +
        `<td class="${!c.pass ? "failc" : c.weight - c.points > 0.005 ? "held" : "pass"}" data-label="${esc(t("ui.debrief.result"))}" data-points="${shown[i]}">${isoRuns(resultText(c, shown[i]))}</td></tr>`);
    }
    out.push("</tbody></table>");
    out.push(`<p>${esc(t("ui.debrief.scoring"))}</p>`);
  } else out.push(`<p>${esc(t("ui.debrief.nocriteria"))}</p>`);
  out.push(`<p>${esc(d.reference ? t("ui.debrief.refnote", { name: scenarioTitle(d.reference) }) : t("ui.debrief.noreference"))}</p>`);
  out.push(`<h4>${esc(t("ui.debrief.moments"))}</h4>`);
  out.push(`<p class="signal">${esc(d.signal.minute < 0 ? t("ui.debrief.nosignal") : t("ui.debrief.signal", { time: clockAt(d.signal.minute), metric: t("metric." + d.signal.metric + ".label") }))}</p><ol class="moments">`);
  for (const m of d.moments) {
    const val = m.kind === "burn" ? F.burn(S.fmt, m.value) : m.kind === "cost" ? F.moneyPerHour(S.fmt, m.value) : F.minutes(S.fmt, m.value);
    const key = m.kind === "burn" ? "ui.debrief.moment_burn" : m.kind === "cost" ? "ui.debrief.moment_cost" : "ui.debrief.moment_page";
    const list = ds => ds.map(x => clockAt(x.minute) + " " + decisionText(x)).join(", ");
    out.push(`<li><b>${esc(t(key, { value: val, time: clockAt(m.minute), end: clockAt(m.end) }))}</b><br>` +
      esc(m.player.length ? t("ui.debrief.did", { list: list(m.player) }) : t("ui.debrief.didnothing")) + "<br>" +
      esc(d.reference ? (m.reference.length ? t("ui.debrief.refdid", { list: list(m.reference) }) : t("ui.debrief.refnothing")) : "") + "</li>");
  }
  out.push("</ol>");
  box.innerHTML = out.join("");
}

function decisionText(d) {
  return ctlLabel(d.control) + (d.text ? " → " + text(d.text) : "");
}

// ---- game days -------------------------------------------------------------

// sentName is the name this browser's result went under on this game day.
function sentName() { try { return localStorage.getItem("oncall.sent." + S.gameday) || ""; } catch (e) { return ""; } }

// exact writes a score as it is, to its hundredths: 4.6, 4.65, 5.
function exact(v) { return num(v, Math.abs(v * 10 - Math.round(v * 10)) < 1e-9 ? (Number.isInteger(v) ? 0 : 1) : 2); }

async function createGameDay() {
  say("");
  const seed = $("seed").value.trim();
  if (!/^\d{1,10}$/.test(seed) || +seed > 4294967295) { say(t("ui.error.seed")); return; }
  try {
    const g = await api("POST", "/api/gamedays", { scenario: $("scenario").value, seed: +seed, noise: $("noise").checked });
    const base = location.origin + location.pathname + "?gameday=" + g.id;
    $("gdlink").value = base + "&lang=" + S.lang;
    $("gdresults").href = base + "&view=results&lang=" + S.lang;
    $("gdlinks").hidden = false;
    $("gdlink").focus(); $("gdlink").select();
  } catch (e) { oops(e); }
}

async function showResults(id) {
  stop();
  keep(); S.gameday = id;
  showView("results");
  clearTimeout(S.gdTimer);
  const g = await api("GET", "/api/gamedays/" + encodeURIComponent(id));
  const s = S.meta.scenarios.find(x => x.id === g.scenario);
  $("gdinfo").textContent = t("ui.gameday.info", { title: s ? text(s.title) : g.scenario, seed: g.seed, n: num(g.results.length, 0) });
  const cols = ["budget_used", "availability", "cost", "worst_p99_ms", "paging_minutes", "minutes_to_mitigate"];
  if (!g.results.length) $("gdtable").innerHTML = `<tbody><tr><td>${esc(t("ui.gameday.none"))}</td></tr></tbody>`;
  else $("gdtable").innerHTML = `<thead><tr><th scope="col">${esc(t("ui.gameday.participant"))}</th><th scope="col">${esc(t("ui.gameday.score"))}</th>` +
    cols.map(c => `<th scope="col">${esc(t("outcome." + c + ".label"))}</th>`).join("") + `<th scope="col">${esc(t("ui.gameday.replay"))}</th></tr></thead><tbody>` +
    g.results.map(r => `<tr><th scope="row"><bdi>${esc(r.name)}</bdi>${r.autopilot ? " (" + esc(t("ui.pilot.on", { name: r.autopilot === "pasted" ? t("ui.pilot.pasted") : policyTitle(r.autopilot) })) + ")" : ""}</th><td class="num">${r.max ? iso(exact(r.score) + " / " + num(r.max, 0)) : "–"}</td>` +
      cols.map(c => { const o = metricSpec(c); return `<td class="num">${iso(value(o.unit, r.outcome[c], o.decimals))}</td>`; }).join("") + `<td>${replayCell(g, r)}</td></tr>`).join("") + "</tbody>";
  updateLink();
  S.gdTimer = setTimeout(() => { if (!$("results").hidden) showResults(id).catch(oops); }, 5000);
}

// replayLink is the share link of a result's shift, which the server
// kept as it replayed it: the game day's scenario, seed and noise, the
// decisions, the autopilot, at the shift's end. It names no game day, so
// that opening it sends no second result.
function replayLink(g, r) {
  const p = r.replay, q = new URLSearchParams({ scenario: g.scenario, seed: g.seed });
  if (!g.noise) q.set("noise", "false");
  if (p.policy || p.source) { q.set(p.policy ? "pilot" : "src", p.policy || p.source); const u = p.until ?? 0; if (u >= 0) q.set("until", u); }
  if (p.d) q.set("d", p.d);
  q.set("m", r.outcome.minutes);
  q.set("lang", S.lang);
  return location.pathname + "?" + q.toString();
}

// replayCell links a result to its replay; a result kept before results
// carried one links to nothing, and says so.
function replayCell(g, r) {
  if (!r.replay) return `<span title="${esc(t("ui.gameday.replay_none"))}">–</span>`;
  return `<a class="replay" href="${esc(replayLink(g, r))}" title="${esc(t("ui.gameday.replay_title", { name: isolated(r.name) }))}">${esc(t("ui.gameday.replay_open"))}</a>`;
}

// isolated is a participant's name for a sentence: isolated by its first
// strong letter (FSI … PDI), so that a name in another script keeps its
// order and leaves the sentence's alone. t() isolates every value in
// right-to-left text already.
function isolated(name) { return S.dir === "rtl" ? name : "\u2068" + name + "\u2069"; }

// ---- the model page --------------------------------------------------------

// showModel opens the model page for target, a scenario and a seed, or
// for the shift being played when target is undefined: the formulas then
// print the values in force in that shift, and until it ends only those
// every seed shares and the ranges of the others (hidden), not what its
// seed draws, which the shift is there to find out. Without either it
// shows the model's defaults.
// modelTarget is the model page a link names: the defaults, or a
// scenario, its seed, and whether the seed's draws stay hidden.
function modelTarget(q) {
  return q.get("scenario") ? { scenario: q.get("scenario"), seed: q.get("seed") ?? undefined, hidden: q.get("draws") === "hidden" } : null;
}

async function showModel(target) {
  const sh = S.shift;
  S.modelFor = target !== undefined ? target : sh ? { scenario: sh.scenario, seed: sh.seed, hidden: !sh.done } : null;
  stop();
  keep();
  showView("model");
  await loadModel();
  updateLink();
}

// loadModel fetches the model page in the page's language, for the
// scenario and seed shown, once for each, and draws it.
async function loadModel() {
  const p = { lang: S.lang }, f = S.modelFor;
  if (f && f.scenario) p.scenario = f.scenario;
  if (f && f.seed !== undefined && f.seed !== null && f.seed !== "") p.seed = f.seed;
  if (f && f.hidden) p.draws = "hidden";
  const q = new URLSearchParams(p).toString();
  if (!S.model || S.model.query !== q) S.model = Object.assign(await api("GET", "/api/model?" + q), { query: q });
  drawModel();
}

function drawModel() {
  const m = S.model;
  if (!m) return;
  $("model-title").textContent = m.title;
  $("model-intro").textContent = m.intro;
  const f = m.in_force;
  $("inforce").hidden = !f;
  if (f) {
    $("inforce-heading").textContent = f.heading;
    $("inforce-lines").innerHTML = f.lines.map(l => `<li>${esc(l)}</li>`).join("");
    $("inforce-legend").textContent = f.legend;
  }
  $("relations").innerHTML = `<thead><tr><th scope="col">${esc(t("ui.model.formula"))}</th><th scope="col">${esc(t("ui.model.meaning"))}</th><th scope="col">${esc(t("ui.model.source"))}</th></tr></thead><tbody>` +
    m.relations.map(r => `<tr><td><code dir="ltr">${formulaHTML(r.formula)}</code></td><td>${esc(r.text)}</td><td class="src" data-label="${esc(t("ui.model.source"))}">${r.sources.map(n => `<a href="#source-${n}">[${n}]</a>`).join(" ")}</td></tr>`).join("") + "</tbody>";
  $("model-constants-title").textContent = m.constants_title;
  $("model-constants").textContent = m.constants;
  $("model-departures").textContent = m.departures_title;
  $("departures").innerHTML = m.departures.map(d => `<li>${esc(d)}</li>`).join("");
  $("model-approximations").textContent = m.approximations_title;
  $("approximations").innerHTML = m.approximations.map(a => `<li>${esc(a)}</li>`).join("");
  $("model-sources").textContent = m.sources_title;
  $("sources").innerHTML = m.sources.map(s => `<li id="source-${s.n}" value="${s.n}">${esc(s.text)}</li>`).join("");
  $("model-randomness").textContent = m.randomness;
}

// formulaHTML writes a formula left to right, as its mathematics reads; in
// a right-to-left language each phrase of its words, with the numbers it
// counts ("30 دن کی مدت میں"), is set right to left inside it, so that a
// number reads first, on the right of its unit, as Urdu writes it. A
// phrase is Arabic letters and the numbers before them, not the
// punctuation that joins it to the formula.
const RTL_PHRASE = /(?:[0-9][0-9.,]*\*?[ \u00a0]+)?[\u0620-\u065F\u066E-\u06D3\u06FA-\u06FF]+(?:[ \u00a0]+(?:[0-9][0-9.,]*\*?[ \u00a0]+)?[\u0620-\u065F\u066E-\u06D3\u06FA-\u06FF]+)*/g;
function formulaHTML(f) {
  if (S.dir !== "rtl") return esc(f);
  let out = "", at = 0;
  for (const m of f.matchAll(RTL_PHRASE)) {
    out += esc(f.slice(at, m.index)) + `<bdi dir="rtl">${esc(m[0])}</bdi>`;
    at = m.index + m[0].length;
  }
  return out + esc(f.slice(at));
}

// ---- the keyboard ----------------------------------------------------------

// announce tells a screen reader what a shortcut did.
function announce(msg) { const a = $("announce"); a.textContent = ""; setTimeout(() => { a.textContent = msg; }, 30); }

function whereNow() { const sh = S.shift; return $("clock").textContent + ", " + t("ui.run.progress", { m: num(sh.done ? sh.duration : sh.rows.length ? sh.rows.at(-1).minute : 0, 0), n: num(sh.duration, 0) }); }

function stepOne(said) {
  stop();
  return serial(() => advance(1)).then(() => { if (said) announce(whereNow()); }).catch(oops);
}

// askRollback asks before a rollback, pressed from the keyboard or with
// the button alike: a rollback bills the fleet twice, and one with no
// deploy to revert changes nothing else, which the question then says.
function askRollback() {
  const b = $("ctl-rollback");
  if (!b || b.disabled || S.shift.done) { announce(t("ui.keys.unavailable")); return; }
  stop();
  const deployed = S.shift.rows.some(r => r.events.some(e => e.kind === "deploy"));
  $("rb-q").textContent = t(deployed ? "ui.confirm.rollback" : "ui.confirm.rollback_none");
  $("rbdialog").returnValue = "";
  $("rbdialog").showModal();
  $("rb-yes").focus();
}

// keyControl presses a control from the keyboard: B opens or closes the
// circuit breaker, P and U pause and resume the rollout. Each is undone by
// another press, so none asks first; each is announced.
function keyControl(name) {
  const el = $("ctl-" + name);
  if (!el || el.disabled || S.shift.done) { announce(t("ui.keys.unavailable_control", { control: ctlLabel(name) })); return; }
  let v = 0;
  if (el.type === "checkbox") { el.checked = !el.checked; v = el.checked ? 1 : 0; }
  decideCtl(name, v).then(() => announce(ctlLabel(name) + " " + $("pend-" + name).textContent));
}

// Space plays or pauses, → steps one minute, r rolls back (after asking), ?
// lists the keys. Where a key means something already — typing in a
// field, Space on a button, the arrows on a chart — it keeps that meaning.
function onKey(e) {
  if ($("shift").hidden || !S.shift || e.ctrlKey || e.metaKey || e.altKey || document.querySelector("dialog[open]")) return;
  const el = e.target, typing = el.closest && el.closest("input, select, textarea, [contenteditable]");
  if (typing) return;
  const native = el.closest && el.closest("button, a[href], summary, .plot");
  switch (e.key) {
    case "?": e.preventDefault(); $("keys").showModal(); return;
    case "r": case "R": e.preventDefault(); askRollback(); return;
    case "b": case "B": e.preventDefault(); keyControl("breaker"); return;
    case "p": case "P": e.preventDefault(); keyControl("pause_rollout"); return;
    case "u": case "U": e.preventDefault(); keyControl("resume_rollout"); return;
    case " ":
      if (native) return;
      e.preventDefault();
      if (S.running) { stop(); announce(t("ui.announce.paused", { time: $("clock").textContent })); } else if (!S.shift.done) { play(); announce(t("ui.announce.playing")); }
      return;
    case "ArrowRight":
      if (native || S.shift.done) return;
      e.preventDefault(); stepOne(true);
  }
}

// chartKey moves a chart's cursor: ← →, Page Up/Down ten minutes, Home, End.
function chartKey(e) {
  const plot = e.target.closest(".plot");
  if (!plot) return;
  const c = S.charts[+plot.parentNode.dataset.i], m = S.cursor && S.cursor.i === +plot.parentNode.dataset.i ? S.cursor.m : S.shift.rows.length - 1;
  const d = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10, Home: -1e9, End: 1e9 }[e.key];
  if (d === undefined) return;
  e.preventDefault();
  cursorAll(m + d, +plot.parentNode.dataset.i);
}

function chartOf(el) { const f = el.closest && el.closest("figure.chart"); return f ? S.charts[+f.dataset.i] : null; }

// ---- wiring ----------------------------------------------------------------

function wire() {
  initWhatIf({ S, t, api, serial, shiftBody, value, iso, ctlLabel, toShown, fromShown, clockAt, draw, oops, say });
  initAlertRules({ S, t, api, serial, shiftBody, num, iso, isoRuns, clockAt, draw, oops, say });
  initAccount({ t, num, value, metricSpec, isoRuns });
  $("startform").addEventListener("submit", startShift);
  $("scenario").addEventListener("change", () => { brief(); updateLink(); });
  $("noise").addEventListener("change", updateLink);
  $("seed").addEventListener("input", updateLink);
  $("newseed").addEventListener("click", () => { $("seed").value = randomSeed(); updateLink(); });
  $("resume").addEventListener("click", () => { const s = loadSaved(); if (s) { S.gameday = s.gameday || S.gameday; open(s, s.minute); } });
  $("playbtn").addEventListener("click", () => (S.running ? stop() : play()));
  $("step1").addEventListener("click", () => stepOne(false));
  $("speed").addEventListener("change", () => { if (S.running) { clearTimeout(S.timer); loop(); } });
  $("takeover").addEventListener("click", takeover);
  $("again").addEventListener("click", showStart);
  $("copy").addEventListener("click", copyLink);
  $("lang").addEventListener("change", e => setLang(e.target.value).catch(oops));
  $("nav-play").addEventListener("click", e => { e.preventDefault(); showStart(); });
  $("nav-model").addEventListener("click", e => { e.preventDefault(); showModel().catch(oops); });
  $("message").addEventListener("click", () => say(""));
  $("gdcreate").addEventListener("click", createGameDay);
  $("gdrefresh").addEventListener("click", () => showResults(S.gameday).catch(oops));
  $("pilot").addEventListener("change", () => { $("pastebox").hidden = $("pilot").value !== "__pasted"; });
  $("keysbtn").addEventListener("click", () => $("keys").showModal());
  $("explain").addEventListener("click", () => { const on = $("explain").getAttribute("aria-pressed") !== "true"; $("explain").setAttribute("aria-pressed", on); $("controlpanel").classList.toggle("explain", on); });
  // The answer is taken once: Chromium may fire "close" twice for one
  // press, and a dialog keeps its returnValue until it is set again.
  $("rbdialog").addEventListener("close", () => {
    const d = $("rbdialog");
    if (d.returnValue !== "yes") return;
    d.returnValue = "";
    decideCtl("rollback", 0).then(() => announce($("pend-rollback").textContent));
  });
  document.addEventListener("keydown", onKey);
  // A value fits its tile as the window and the fonts lay it out.
  const refit = () => { if (S.shift && !$("shift").hidden) { fitTiles(S.shift.rows.at(-1)); drawProjection(); } };
  addEventListener("resize", refit);
  document.fonts.addEventListener("loadingdone", refit);
  addEventListener("popstate", onHistory);
  $("loglevel").addEventListener("change", () => { if (S.shift) drawLogs(S.shift, { t, num, esc }); });
  $("spans").addEventListener("click", e => { const b = e.target.closest("button[data-span]"); if (b) { S.span = +b.dataset.span; drawCharts(); } });
  const charts = $("charts");
  charts.addEventListener("pointermove", e => { const c = chartOf(e.target); if (c) cursorAll(minuteAt(c.plot.querySelector("svg"), e.clientX), +c.fig.dataset.i); });
  charts.addEventListener("pointerleave", () => { S.cursor = null; cursorAll(null); }, true);
  charts.addEventListener("focusin", e => { const c = chartOf(e.target); if (c) cursorAll(S.cursor && S.charts[S.cursor.i] === c ? S.cursor.m : S.shift.rows.length - 1, +c.fig.dataset.i); });
  charts.addEventListener("focusout", e => { const c = chartOf(e.target); if (c) { S.cursor = null; cursorAll(null); } });
  charts.addEventListener("keydown", chartKey);
  const box = $("controls");
  const spec = name => controlsOf(S.shift).find(c => c.name === name);
  box.addEventListener("submit", e => {
    e.preventDefault();
    const name = e.target.dataset.ctl, el = $("ctl-" + name);
    const v = el.value.trim() === "" ? NaN : Number(el.value);
    if (!isFinite(v)) { say(t("ui.error.number", { control: ctlLabel(name) })); return; }
    $("ctlrow-" + name).classList.remove("edited");
    // One Enter can submit twice (the key and the form's own submission):
    // the same value for the same minute is decided once.
    const key = S.shift.rows.length + ":" + v;
    if (S.sent[name] === key) return;
    S.sent[name] = key;
    decideCtl(name, fromShown(spec(name), v));
  });
  box.addEventListener("input", e => { const f = e.target.closest("form.set"); if (f) { $("ctlrow-" + f.dataset.ctl).classList.add("edited"); showOutput(spec(f.dataset.ctl)); } });
  box.addEventListener("keydown", e => { if (e.key === "Enter" && e.target.type === "range") { e.preventDefault(); e.target.form.requestSubmit(); } });
  box.addEventListener("change", e => { if (e.target.type === "checkbox") decideCtl(e.target.dataset.ctl, e.target.checked ? 1 : 0); });
  box.addEventListener("click", e => {
    const s = e.target.closest("button.stepb");
    if (s) {
      const el = $("ctl-" + s.dataset.for), c = spec(s.dataset.for);
      el.value = Math.min(Math.max((+el.value || 0) + +s.dataset.step, c.min), c.max);
      $("ctlrow-" + c.name).classList.add("edited");
      return;
    }
    const b = e.target.closest("button[data-ctl]");
    if (b && b.dataset.ctl === "rollback") askRollback();
    else if (b) decideCtl(b.dataset.ctl, 0);
  });
}

async function boot() {
  wire();
  try {
    S.meta = await api("GET", "/api/meta");
    const q = new URLSearchParams(location.search);
    let lang = q.get("lang");
    try { lang = lang || localStorage.getItem("oncall.lang"); } catch (e) { /* storage off */ }
    await setLang(lang || S.meta.lang);
    if (q.get("view") === "model") return await showModel(modelTarget(q));
    if (q.get("gameday") && q.get("view") === "results") return await showResults(q.get("gameday"));
    if (q.get("gameday")) {
      S.gameday = q.get("gameday");
      S.gd = await api("GET", "/api/gamedays/" + encodeURIComponent(S.gameday));
    }
    if (q.get("view") === "start") return startFromLink(q);
    if (q.get("scenario")) return await openLink(q);
    showStart();
  } catch (e) { oops(e); showView("start"); }
}

// For the browser tests and the curious: the shift as the page holds it,
// and whether the page is idle (the clock stopped, no call to the server
// under way), when nothing can change the shift or what it draws.
window.oncall = { rows: () => JSON.stringify(S.shift ? S.shift.rows : []), shift: () => S.shift, idle: () => !S.running && busy === 0 };
boot();
