// The console's script: it asks the server for rows and draws them. The
// server holds nothing the page cannot rebuild: a shift is its scenario,
// seed and decisions, kept in the link and in local storage.
import { lineChart, esc } from "./chart.js";
import * as F from "./format.js";

const $ = id => document.getElementById(id);
const S = { meta: null, lang: "en", msgs: {}, en: {}, fmt: {}, shift: null, running: false, timer: 0, loopId: 0, drawn: 0, model: null };

// ---- words and numbers ----------------------------------------------------

function t(key, vars) {
  const s = S.msgs[key] ?? S.en[key] ?? key;
  if (!vars) return s;
  if (S.dir === "rtl") {
    // In right-to-left text each value is isolated (LRI … PDI), so that
    // "4.00 $/h" or "09:16" keeps its order inside an Urdu sentence.
    vars = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, "\u2066" + v + "\u2069"]));
  }
  return F.fill(s, vars);
}

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

// axis formats a chart's axis label: short, the unit is in the caption.
function axis(unit, v) {
  switch (unit) {
    case "share": return pct(v, 0);
    case "×": return F.burn(S.fmt, v).replace(/\s*×/, "");
    case "$/h": return num(v, 2);
  }
  return num(v, 0);
}

function metricSpec(name) { return S.meta.metrics.find(m => m.name === name) || S.meta.outcomes.find(m => m.name === name); }
function metricValue(name, v) { const m = metricSpec(name); return m.kind === "bool" ? (v ? t("switch.on") : t("switch.off")) : value(m.unit, v, m.decimals); }

const label = name => t("metric." + name + ".label");
const ctlLabel = name => t("control." + name + ".label");
const text = tx => (tx ? tx[S.lang] || tx.en || "" : "");

// ---- the server ------------------------------------------------------------

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  let res;
  try { res = await fetch(path, opts); } catch (e) { throw { status: 0, message: t("ui.error.network") }; }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw { status: res.status, message: data.error || t("ui.error.status", { n: res.status }) };
  return data;
}

// serial runs the calls of one shift one after the other, so that the order
// of decisions and steps is the order the player made them.
let chain = Promise.resolve();
function serial(fn) { const p = chain.then(fn); chain = p.catch(() => {}); return p; }

// plain are decisions as the server takes them back: without the texts it
// wrote for them.
const plain = ds => ds.map(({ minute, control, value }) => ({ minute, control, value }));

function shiftBody(minute) {
  const sh = S.shift;
  return { scenario: sh.scenario, seed: sh.seed, noise: sh.noise, minute, decisions: plain(sh.decisions), autopilot: sh.autopilot || undefined };
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
    decisions: st.decisions, levels: st.levels, lines: st.lines, texts: {},
  });
  addTexts(st.texts);
  S.drawn = 0;
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
  for (const p of S.meta.policies) sel.add(new Option(p, p));
  sel.add(new Option(t("ui.pilot.pasted"), "__pasted"));
  sel.value = cur || "";
}

function showView(name) {
  for (const v of ["start", "shift", "model", "results"]) $(v).hidden = v !== name;
}

function showStart() {
  stop();
  S.shift = null;
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

async function startShift(ev) {
  ev.preventDefault();
  say("");
  if (S.gd) {
    const name = $("gdname").value.trim();
    if (!name) { say(t("ui.gameday.noname")); $("gdname").focus(); return; }
    try { localStorage.setItem("oncall.name", name); } catch (e) { /* storage off */ }
  }
  const seed = $("seed").value.trim();
  if (!/^\d{1,10}$/.test(seed) || +seed > 4294967295) { say(t("ui.error.seed")); $("seed").focus(); return; }
  let autopilot;
  const p = $("pilot").value;
  if (p === "__pasted") autopilot = { source: $("pilotsrc").value, until: -1 };
  else if (p) autopilot = { policy: p, until: -1 };
  await open({ scenario: $("scenario").value, seed: +seed, noise: $("noise").checked, decisions: [], autopilot }, 0);
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
  $("main").focus();
  if (S.shift.done) await finish();
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
  const ans = await withSession(id => api("POST", `/api/sessions/${id}/step`, { minutes: n }));
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
  if (S.gameday && !sh.sent) {
    try {
      await api("POST", `/api/gamedays/${encodeURIComponent(S.gameday)}/results`, { name: localStorage.getItem("oncall.name") || "?", decisions: plain(sh.decisions), autopilot: sh.autopilot || undefined });
      sh.sent = true;
      say(t("ui.gameday.sent"), true);
    } catch (e) { oops(e); }
  }
  draw();
}

async function decideCtl(name, v) {
  say("");
  try {
    const d = await serial(() => withSession(id => api("POST", `/api/sessions/${id}/decide`, { control: name, value: v })));
    S.shift.decisions.push(d);
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

function compact(ds) {
  return ds.map(d => {
    const c = S.meta.controls.find(x => x.name === d.control);
    return d.minute + ":" + d.control + (c.kind === "action" ? "" : "=" + (c.kind === "bool" ? (d.value ? "true" : "false") : d.value));
  }).join(",");
}

function parseCompact(s) {
  if (!s) return [];
  return s.split(",").map(item => {
    const [m, rest] = item.split(":");
    const [control, v] = (rest || "").split("=");
    return { minute: +m, control, value: v === undefined ? 0 : v === "true" ? 1 : v === "false" ? 0 : +v };
  });
}

function linkParams() {
  const q = new URLSearchParams();
  const sh = S.shift;
  if (sh) {
    q.set("scenario", sh.scenario); q.set("seed", sh.seed);
    if (!sh.noise) q.set("noise", "false");
    // A pasted policy travels in the link as text, so that the link replays it too.
    if (sh.autopilot) { q.set(sh.autopilot.policy ? "pilot" : "src", sh.autopilot.policy || sh.autopilot.source); if (sh.autopilot.until >= 0) q.set("until", sh.autopilot.until); }
    if (sh.decisions.length) q.set("d", compact(sh.decisions));
    q.set("m", sh.rows.length);
  } else if (!$("model").hidden) {
    q.set("view", "model");
    // The values in force travel with the link: the scenario and its seed.
    if (S.modelFor) { q.set("scenario", S.modelFor.scenario); if (S.modelFor.seed !== undefined) q.set("seed", S.modelFor.seed); }
  }
  else if (!$("results").hidden) q.set("view", "results");
  if (S.gameday) q.set("gameday", S.gameday);
  q.set("lang", S.lang);
  return q;
}

function updateLink() {
  const q = linkParams();
  const url = location.origin + location.pathname + "?" + q.toString();
  $("share").value = url;
  $("seedshow").textContent = S.shift ? S.shift.seed : "–";
  history.replaceState(null, "", "?" + q.toString());
}

function save() {
  updateLink();
  const sh = S.shift;
  if (!sh) return;
  try {
    localStorage.setItem("oncall.shift", JSON.stringify({ scenario: sh.scenario, seed: sh.seed, noise: sh.noise, decisions: plain(sh.decisions), autopilot: sh.autopilot, minute: sh.rows.length, done: sh.done, gameday: S.gameday }));
  } catch (e) { /* storage full or off: the link still holds the shift */ }
}

function loadSaved() {
  try { const s = JSON.parse(localStorage.getItem("oncall.shift")); return s && !s.done ? s : null; } catch (e) { return null; }
}

// ---- drawing ---------------------------------------------------------------

const TILES = ["requests", "shed_traffic", "serving", "booting", "utilization", "p99_ms", "error_rate", "burn_1h",
  "budget_left", "hit_rate", "cache_age_s", "db_util", "bad_traffic", "recommendations", "cost_per_hour", "cost"];

// level is a tile's colour by the levels the server sends with the shift.
function level(name, v) {
  const l = S.shift.levels[name];
  if (!l) return "";
  const past = b => b !== undefined && (l.below ? (l.strict ? v < b : v <= b) : (l.strict ? v > b : v >= b));
  return past(l.bad) ? "bad" : past(l.warn) ? "warn" : "";
}

function clockAt(m) {
  const [h, mm] = S.shift.start.split(":").map(Number);
  const x = (h * 60 + mm + m) % 1440;
  return String(Math.floor(x / 60)).padStart(2, "0") + ":" + String(x % 60).padStart(2, "0");
}

function draw() {
  const sh = S.shift;
  if (!sh) return;
  const last = sh.rows[sh.rows.length - 1];
  $("clock").textContent = last ? last.time : clockAt(0);
  $("progress").textContent = t("ui.run.progress", { m: num(sh.rows.length, 0), n: num(sh.duration, 0) });
  $("playbtn").disabled = sh.done; $("step1").disabled = sh.done;
  const tiles = $("tiles");
  if (!tiles.children.length) {
    tiles.innerHTML = TILES.map(n => `<div class="tile" id="tile-${n}"><dt>${esc(label(n))}</dt><dd><bdi dir="ltr" id="val-${n}">–</bdi></dd></div>`).join("");
  }
  for (const n of TILES) {
    const el = $("tile-" + n);
    el.querySelector("dt").textContent = label(n);
    $("val-" + n).textContent = last ? metricValue(n, last[n]) : "–";
    el.className = "tile " + (last ? level(n, last[n]) : "");
  }
  drawPage(last);
  drawCharts();
  drawTimeline();
  drawPending();
  drawPilot();
  drawEnd();
}

function drawPage(last) {
  const a = $("alert");
  const paging = last && last.paging;
  document.body.classList.toggle("paging", !!paging);
  if (paging) {
    a.className = "alert";
    const html = `<span class="big">${esc(t("ui.page.title"))}</span>${esc(t("ui.page.text", { b1: num(last.burn_1h, 1), b5: num(last.burn_5m, 1) }))}`;
    if (a.hidden || a.dataset.state !== "page") { a.innerHTML = html; a.dataset.state = "page"; }
    a.hidden = false;
    document.title = "🔔 " + t("ui.page.title") + " · " + t("ui.title");
  } else if (last && S.shift.rows.some(r => r.paging)) {
    if (a.dataset.state !== "resolved") { a.className = "alert resolved"; a.textContent = t("ui.page.resolved"); a.dataset.state = "resolved"; }
    a.hidden = false;
    document.title = t("ui.title");
  } else { a.hidden = true; a.dataset.state = ""; document.title = t("ui.title"); }
}

const COLORS = ["#0b57d0", "#b3261e", "#0a7d5a", "#8a4fbf", "#c25e00"];

function chartDefs() {
  return [
    { key: "ui.chart.traffic", unit: "req/s", lines: [["requests", r => r.requests, label("requests")], ["capacity", r => r.capacity, t("ui.chart.capacity")]] },
    { key: "ui.chart.p99", unit: "ms", lines: [["p99_ms", r => r.p99_ms, label("p99_ms")]] },
    { key: "ui.chart.burn", unit: "×", lines: [["burn_5m", r => r.burn_5m, label("burn_5m")], ["burn_1h", r => r.burn_1h, label("burn_1h")]] },
    { key: "ui.chart.budget", unit: "share", lines: [["budget_left", r => r.budget_left, label("budget_left")]], min: null },
    { key: "ui.chart.cache", unit: "share", lines: [["hit_rate", r => r.hit_rate, label("hit_rate")], ["db_util", r => r.db_util, label("db_util")]], max: 1 },
    { key: "ui.chart.fleet", unit: "instances", lines: [["serving", r => r.serving, label("serving")], ["booting", r => r.booting, label("booting")], ["min_instances", r => r.min_instances, label("min_instances")]] },
    { key: "ui.chart.cost", unit: "$/h", lines: [["cost_per_hour", r => r.cost_per_hour, label("cost_per_hour")]] },
  ];
}

// eventLine is the server's line for the i-th event of a row.
function eventLine(r, i) { const x = S.shift.texts[r.minute]; return x && x.events ? text(x.events[i]) : ""; }

function marks(rows) {
  const out = [];
  for (const r of rows) {
    r.events.forEach((e, i) => {
      let cls = null;
      if (e.kind === "page") cls = "page";
      else if (e.kind === "action") cls = e.by === "player" ? "player" : "rule";
      else if (["deploy", "flush_cache", "say", "set_constant", "set_control", "rollback_done"].includes(e.kind)) cls = "scenario";
      if (cls) out.push({ minute: r.minute, cls, title: r.time + " " + eventLine(r, i) });
    });
  }
  return out;
}

function drawCharts() {
  const sh = S.shift, box = $("charts");
  const ref = sh.reference;
  const defs = chartDefs();
  if (box.children.length !== defs.length) box.innerHTML = defs.map((d, i) => `<figure class="chart" id="chart-${i}"></figure>`).join("");
  const mk = marks(sh.rows);
  defs.forEach((d, i) => {
    const series = [];
    const legend = [];
    d.lines.forEach(([name, get, lab], j) => {
      series.push({ values: sh.rows.map(get), color: COLORS[j] });
      legend.push(`<span><i class="k${j}"></i>${esc(lab)}</span>`);
      if (ref) series.push({ values: ref.map(get), color: COLORS[j], ref: true });
    });
    if (ref) legend.push(`<span><i class="refkey"></i>${esc(t("ui.debrief.refline"))}</span>`);
    let lo = 0;
    if (d.min === null) { lo = Math.min(0, ...series.flatMap(s => s.values)); }
    // The bounds the server sends for the metrics of this chart: the page
    // rule's, the slow p99.
    const names = d.lines.map(l => l[0]);
    const bounds = sh.lines.filter(b => names.includes(b.metric));
    const svg = lineChart({
      series, duration: sh.duration, min: lo, max: d.max, marks: mk, now: sh.rows.length,
      thresholds: bounds.map(b => ({ value: b.value, title: label(b.metric) + " " + b.op + " " + value(d.unit, b.value) })),
      fmtY: v => axis(d.unit, v), fmtX: m => clockAt(m), label: t(d.key),
    });
    $("chart-" + i).innerHTML = `<figcaption>${esc(t(d.key))}</figcaption>${svg}<div class="legend">${legend.join("")}</div>`;
  });
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
      li.innerHTML = `<time>${esc(r.time)}</time><span>${esc(msg)}</span>`;
      ol.prepend(li);
    }
  }
}

function drawControls() {
  const box = $("controls"), sh = S.shift;
  const locked = sh && sh.autopilot && sh.autopilot.until < 0;
  box.innerHTML = S.meta.controls.map(c => {
    const id = "ctl-" + c.name, help = `<p class="help" id="help-${c.name}">${esc(t("control." + c.name + ".help"))}</p><p class="pending" id="pend-${c.name}" aria-live="polite"></p>`;
    const dis = locked ? " disabled" : "";
    if (c.kind === "action") {
      return `<div class="ctl"><span>${esc(ctlLabel(c.name))}</span><button type="button" id="${id}" class="${c.name === "rollback" ? "danger" : ""}" data-ctl="${c.name}" aria-describedby="help-${c.name}"${dis}>${esc(t(c.name === "rollback" ? "ui.controls.rollback" : "ui.controls.warmup"))}</button>${help}</div>`;
    }
    if (c.kind === "bool") {
      return `<div class="ctl"><label for="${id}">${esc(ctlLabel(c.name))}</label><input type="checkbox" id="${id}" data-ctl="${c.name}" aria-describedby="help-${c.name}"${dis}>${help}</div>`;
    }
    const step = c.kind === "int" || c.name === "ttl_s" ? 1 : 0.05;
    return `<div class="ctl"><label for="${id}">${esc(ctlLabel(c.name))}</label><form class="set" data-ctl="${c.name}" novalidate><input type="number" id="${id}" min="${c.min}" max="${c.max}" step="${step}" aria-describedby="help-${c.name}"${dis}><button type="submit"${dis}>${esc(t("ui.controls.set"))}</button></form>${help}</div>`;
  }).join("");
  syncControls(true);
}

// syncControls shows the controls in force, except in a field being edited.
function syncControls(all) {
  const sh = S.shift;
  if (!sh) return;
  const last = sh.rows[sh.rows.length - 1];
  for (const c of S.meta.controls) {
    if (c.kind === "action") continue;
    const el = $("ctl-" + c.name);
    const v = last ? last[c.name] : sh.initial[c.name];
    if (c.kind === "bool") el.checked = !!v;
    else if (all || document.activeElement !== el) el.value = v;
  }
}

function drawPending() {
  const sh = S.shift;
  if (!sh) return;
  syncControls(false);
  const now = sh.rows.length;
  for (const c of S.meta.controls) {
    const p = $("pend-" + c.name);
    const d = sh.decisions.filter(x => x.minute === now && x.control === c.name).pop();
    p.textContent = d && !sh.done ? t(c.kind === "action" ? "ui.controls.pending_action" : "ui.controls.pending", { value: text(d.text), time: clockAt(now) }) : "";
  }
}

function drawPilot() {
  const sh = S.shift, a = sh.autopilot;
  $("pilotbar").hidden = !a;
  if (!a) return;
  $("pilotname").textContent = a.until < 0 ? t("ui.pilot.on", { name: a.policy || t("ui.pilot.pasted") }) : t("ui.pilot.off", { time: clockAt(a.until) });
  $("takeover").hidden = a.until >= 0 || sh.done;
}

function drawEnd() {
  const sh = S.shift;
  $("end").hidden = !sh.done;
  if (!sh.done || !sh.outcome) return;
  const q = new URLSearchParams({ scenario: sh.scenario, seed: sh.seed, noise: sh.noise ? "true" : "false", minute: sh.rows.length, d: compact(sh.decisions) });
  if (sh.autopilot) { q.set(sh.autopilot.policy ? "policy" : "source", sh.autopilot.policy || sh.autopilot.source); q.set("until", sh.autopilot.until); }
  $("csv").href = "/api/trace?" + q + "&format=csv";
  $("json").href = "/api/trace?" + q + "&format=json";
  $("csv").setAttribute("download", `oncall-${sh.scenario}-${sh.seed}.csv`);
  $("json").setAttribute("download", `oncall-${sh.scenario}-${sh.seed}.json`);
  drawDebrief();
  $("outcome").innerHTML = `<caption class="visually-hidden">${esc(t("ui.end.heading"))}</caption>` + S.meta.outcomes.map(o =>
    `<tr><th scope="row">${esc(t("outcome." + o.name + ".label"))}</th><td class="num" dir="ltr">${esc(value(o.unit, sh.outcome[o.name], o.decimals))}</td></tr>`).join("");
}

function drawDebrief() {
  const sh = S.shift, d = sh.debrief, box = $("debrief");
  if (!d) { box.textContent = ""; return; }
  const out = [];
  if (d.criteria.length) {
    out.push(`<p class="score">${esc(t("ui.debrief.score", { score: num(d.score, 1), max: num(d.max, 0) }))}</p>`);
    out.push(`<table class="outcome"><thead><tr><th scope="col">${esc(t("ui.debrief.criterion"))}</th><th scope="col">${esc(t("ui.debrief.bound"))}</th><th scope="col">${esc(t("ui.debrief.you"))}</th><th scope="col">${esc(t("ui.debrief.reference"))}</th><th scope="col">${esc(t("ui.debrief.result"))}</th></tr></thead><tbody>`);
    for (const c of d.criteria) {
      const o = metricSpec(c.metric);
      const f = v => value(o.unit, v, o.decimals);
      out.push(`<tr><th scope="row">${esc(t("outcome." + c.metric + ".label"))}</th><td class="num">${esc(t(c.op === "at_least" ? "ui.debrief.at_least" : "ui.debrief.at_most", { bound: f(c.limit) }))}</td>` +
        `<td class="num" dir="ltr">${esc(f(c.value))}</td><td class="num" dir="ltr">${esc(d.reference ? f(c.reference) : "–")}</td>` +
        `<td class="${c.pass ? "pass" : "failc"}">${esc(t(c.pass ? "ui.debrief.pass" : c.points > 0 ? "ui.debrief.partial" : "ui.debrief.fail", { n: num(c.weight, 0), points: num(c.points, 1) }))}</td></tr>`);
    }
    out.push("</tbody></table>");
    out.push(`<p>${esc(t("ui.debrief.scoring"))}</p>`);
  } else out.push(`<p>${esc(t("ui.debrief.nocriteria"))}</p>`);
  out.push(`<p>${esc(d.reference ? t("ui.debrief.refnote", { name: d.reference }) : t("ui.debrief.noreference"))}</p>`);
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
  S.shift = null; S.gameday = id;
  showView("results");
  clearTimeout(S.gdTimer);
  const g = await api("GET", "/api/gamedays/" + encodeURIComponent(id));
  const s = S.meta.scenarios.find(x => x.id === g.scenario);
  $("gdinfo").textContent = t("ui.gameday.info", { title: s ? text(s.title) : g.scenario, seed: g.seed, n: num(g.results.length, 0) });
  const cols = ["budget_used", "availability", "cost", "worst_p99_ms", "paging_minutes", "minutes_to_mitigate"];
  if (!g.results.length) $("gdtable").innerHTML = `<tbody><tr><td>${esc(t("ui.gameday.none"))}</td></tr></tbody>`;
  else $("gdtable").innerHTML = `<thead><tr><th scope="col">${esc(t("ui.gameday.participant"))}</th><th scope="col">${esc(t("ui.gameday.score"))}</th>` +
    cols.map(c => `<th scope="col">${esc(t("outcome." + c + ".label"))}</th>`).join("") + "</tr></thead><tbody>" +
    g.results.map(r => `<tr><th scope="row">${esc(r.name)}${r.autopilot ? " (" + esc(t("ui.pilot.on", { name: r.autopilot })) + ")" : ""}</th><td class="num" dir="ltr">${r.max ? esc(num(r.score, 0) + " / " + num(r.max, 0)) : "–"}</td>` +
      cols.map(c => { const o = metricSpec(c); return `<td class="num" dir="ltr">${esc(value(o.unit, r.outcome[c], o.decimals))}</td>`; }).join("") + "</tr>").join("") + "</tbody>";
  updateLink();
  S.gdTimer = setTimeout(() => { if (!$("results").hidden) showResults(id).catch(oops); }, 5000);
}

// ---- the model page --------------------------------------------------------

// showModel opens the model page for target, a scenario and a seed, or
// for the shift being played when target is undefined: the formulas then
// print the values in force in that shift. Without either it shows the
// model's defaults.
async function showModel(target) {
  const sh = S.shift;
  S.modelFor = target !== undefined ? target : sh ? { scenario: sh.scenario, seed: sh.seed } : null;
  stop();
  S.shift = null;
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
    m.relations.map(r => `<tr><td><code dir="ltr">${esc(r.formula)}</code></td><td>${esc(r.text)}</td><td>${r.sources.map(n => `<a href="#source-${n}">[${n}]</a>`).join(" ")}</td></tr>`).join("") + "</tbody>";
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

// ---- wiring ----------------------------------------------------------------

function wire() {
  $("startform").addEventListener("submit", startShift);
  $("scenario").addEventListener("change", brief);
  $("newseed").addEventListener("click", () => { $("seed").value = randomSeed(); });
  $("resume").addEventListener("click", () => { const s = loadSaved(); if (s) { S.gameday = s.gameday || S.gameday; open(s, s.minute); } });
  $("playbtn").addEventListener("click", () => (S.running ? stop() : play()));
  $("step1").addEventListener("click", () => { stop(); serial(() => advance(1)).catch(oops); });
  $("speed").addEventListener("change", () => { if (S.running) { clearTimeout(S.timer); loop(); } });
  $("takeover").addEventListener("click", takeover);
  $("again").addEventListener("click", showStart);
  $("copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("share").value); say(t("ui.share.copied"), true); } catch (e) { $("share").select(); }
  });
  $("lang").addEventListener("change", e => setLang(e.target.value).catch(oops));
  $("nav-play").addEventListener("click", e => { e.preventDefault(); showStart(); });
  $("nav-model").addEventListener("click", e => { e.preventDefault(); showModel().catch(oops); });
  $("message").addEventListener("click", () => say(""));
  $("gdcreate").addEventListener("click", createGameDay);
  $("gdrefresh").addEventListener("click", () => showResults(S.gameday).catch(oops));
  $("pilot").addEventListener("change", () => { $("pastebox").hidden = $("pilot").value !== "__pasted"; });
  const box = $("controls");
  box.addEventListener("submit", e => {
    e.preventDefault();
    const name = e.target.dataset.ctl, el = $("ctl-" + name);
    const v = el.value.trim() === "" ? NaN : Number(el.value);
    if (!isFinite(v)) { say(t("ui.error.number", { control: ctlLabel(name) })); return; }
    decideCtl(name, v);
  });
  box.addEventListener("change", e => { if (e.target.type === "checkbox") decideCtl(e.target.dataset.ctl, e.target.checked ? 1 : 0); });
  box.addEventListener("click", e => { const b = e.target.closest("button[data-ctl]"); if (b) decideCtl(b.dataset.ctl, 0); });
}

async function boot() {
  wire();
  try {
    S.meta = await api("GET", "/api/meta");
    const q = new URLSearchParams(location.search);
    let lang = q.get("lang");
    try { lang = lang || localStorage.getItem("oncall.lang"); } catch (e) { /* storage off */ }
    await setLang(lang || S.meta.lang);
    if (q.get("view") === "model") return await showModel(q.get("scenario") ? { scenario: q.get("scenario"), seed: q.get("seed") ?? undefined } : null);
    if (q.get("gameday") && q.get("view") === "results") return await showResults(q.get("gameday"));
    if (q.get("gameday")) {
      S.gameday = q.get("gameday");
      S.gd = await api("GET", "/api/gamedays/" + encodeURIComponent(S.gameday));
    }
    if (q.get("scenario")) {
      const until = q.has("until") ? +q.get("until") : -1;
      const a = q.get("pilot") ? { policy: q.get("pilot"), until } : q.get("src") ? { source: q.get("src"), until } : undefined;
      return await open({ scenario: q.get("scenario"), seed: +q.get("seed"), noise: q.get("noise") !== "false", decisions: parseCompact(q.get("d")), autopilot: a }, +(q.get("m") || 0));
    }
    showStart();
  } catch (e) { oops(e); showView("start"); }
}

// For the browser tests and the curious: the shift as the page holds it.
window.oncall = { rows: () => JSON.stringify(S.shift ? S.shift.rows : []), shift: () => S.shift };
boot();
