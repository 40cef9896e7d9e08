// The team's page of a team game day: a member joins with a name and a
// role, then plays the team's one shift with the others, live. The server
// holds the shift (package team: the log is the truth); the page draws
// what it sends, shows only what the member's role may do, and sends each
// action with the member's token. Its stream resumes from the last entry
// it received after any break (the browser's EventSource sends it as
// Last-Event-ID). A share link of a team's shift (/team?scenario=...)
// opens it read-only, replayed from the link alone.
import { lineChart, esc } from "./chart.js";
import { W, $, t, num, metricValue, label, ctlLabel, text, api, say, oops, start, role, what } from "./words.js";

const S = { token: "", member: "", st: null, team: null, rows: [], texts: [], entries: [], live: null, es: null, busy: 0, loading: 0, lastSeq: 0, connected: false, replay: false, query: "" };

// The tiles and charts of a team's shift: the figures a team watches.
const TILES = ["error_rate", "p99_ms", "budget_left", "burn_1h", "serving", "requests", "cost_per_hour"];
const CHARTS = [["error_rate"], ["p99_ms"], ["budget_left"], ["serving", "booting"]];
const COLORS = ["#0b57d0", "#b3261e", "#0a7d5a", "#8a4fbf"];

const memberKey = () => "oncall.team." + S.token;
const you = () => S.team && S.team.you;
const may = kind => !!(you() && (S.team.allowed[you().role] || []).includes(kind));

// ---- loading ---------------------------------------------------------------

async function load() {
  S.loading++;
  try {
    const headers = S.member ? { "X-Oncall-Member": S.member } : {};
    const st = await api("GET", "/api/teams/" + S.token, undefined, headers);
    S.st = st; S.team = st.team; S.rows = st.rows; S.texts = st.texts || []; S.entries = st.team.entries; S.live = st.team.live; S.lastSeq = S.live.seq;
    W.labels = st.labels || {};
    if (!st.team.you && S.member) { // left, or the token of another team
      S.member = "";
      try { localStorage.removeItem(memberKey()); } catch (e) { /* storage off */ }
    }
  } finally { S.loading--; }
}

async function resync() {
  if (S.resyncing) return;
  S.resyncing = true;
  try { await load(); connect(); draw(); } catch (e) { oops(e); setTimeout(resync, 2000); } finally { S.resyncing = false; }
}

// connect opens the team's stream after the last entry the page holds;
// the browser reconnects by itself, sending the last entry it received.
function connect() {
  if (S.es) S.es.close();
  const es = new EventSource(`/api/teams/${S.token}/events?after=${S.lastSeq}`);
  S.es = es;
  es.addEventListener("entry", ev => onEntry(JSON.parse(ev.data)));
  es.onopen = () => { S.connected = true; drawConnection(); };
  es.onerror = () => {
    S.connected = false;
    drawConnection();
    if (es.readyState === EventSource.CLOSED && S.es === es) setTimeout(resync, 1000);
  };
}

// onEntry folds an entry of the stream into what the page holds: a
// repeat is dropped, a gap reloads the shift.
function onEntry(d) {
  if (d.seq <= S.lastSeq) return;
  if (d.seq !== S.lastSeq + 1 || (d.rows.length && d.from !== S.rows.length)) { resync(); return; }
  S.lastSeq = d.seq;
  if (d.rows.length) { S.rows.push(...d.rows); S.texts.push(...(d.texts || [])); }
  if (d.entry) S.entries.push(d.entry);
  const wasOver = S.live.over;
  S.live = d.live;
  const me = you() && S.live.members.find(m => m.id === you().id);
  if (me) S.team.you = me;
  if (me && me.left) { S.team.you = null; S.member = ""; }
  if (S.live.over && !wasOver) resync(); // the share link and the outcome
  draw();
}

// ---- actions ---------------------------------------------------------------

async function act(body) {
  S.busy++;
  try {
    const a = await api("POST", `/api/teams/${S.token}/act`, body, { "X-Oncall-Member": S.member });
    // The answer may come before the stream brings the entry: an entry
    // that computes no minute is taken from it at once (the stream's copy
    // is then a repeat); a step's rows come with the stream's copy alone.
    if (a.entry.seq === S.lastSeq + 1 && a.entry.kind !== "step") { S.lastSeq = a.entry.seq; S.entries.push(a.entry); S.live = a.live; }
    if (a.entry.late > 0) say(t("ui.team.late", { n: num(a.entry.late, 0), time: S.st.times[a.entry.minute] }), true);
    else say("");
    draw();
    return a;
  } catch (e) { oops(e); return null; } finally { S.busy--; }
}

async function join(ev) {
  ev.preventDefault();
  const name = $("joinname").value.trim();
  if (!name) { say(t("ui.team.noname")); $("joinname").focus(); return; }
  S.busy++;
  try {
    const a = await api("POST", `/api/teams/${S.token}/join`, { name, role: $("joinrole").value });
    S.member = a.token;
    try { localStorage.setItem(memberKey(), a.token); localStorage.setItem("oncall.name", name); } catch (e) { /* storage off */ }
    say("");
    await load();
    show();
  } catch (e) {
    if (e.key === "ui.api.team_name" && e.args && e.args.free) $("joinname").value = e.args.free;
    oops(e);
  } finally { S.busy--; }
}

// controls are the shift's controls: the model's, then the switches of
// its scenario's own ("switch.<id>", on or off).
const controls = () => W.meta.controls.concat(((S.st && S.st.switches) || []).map(w => ({ name: w.name, kind: "bool", help: w.help })));

function decide(name) {
  const c = controls().find(x => x.name === name);
  let v = 0;
  if (c.kind === "bool") v = $("ctl-" + name).value === "1";
  else if (c.kind !== "action") {
    v = Number($("ctl-" + name).value);
    if (c.unit === "share") v /= 100;
  }
  return act({ kind: "decision", control: name, value: v, minute: S.rows.length });
}

// ---- drawing ---------------------------------------------------------------

function show() {
  $("nolink").hidden = true;
  const joined = !!you() || S.replay;
  $("join").hidden = joined;
  $("play").hidden = !joined;
  if (!joined) drawJoin(); else { drawControls(); draw(); if (!S.replay) connect(); }
}

function drawJoin() {
  const tm = S.team;
  $("jointeam").textContent = tm.name;
  $("jointitle").textContent = text(tm.title);
  $("joinbriefing").textContent = text(tm.briefing);
  const sel = $("joinrole"), was = sel.value;
  sel.textContent = "";
  const filled = {};
  for (const m of S.live.members) if (!m.left) filled[m.role] = (filled[m.role] || 0) + 1;
  for (const r of tm.roles) {
    const o = new Option(role(r), r);
    if (r === "commander" && filled.commander) o.disabled = true;
    sel.add(o);
  }
  sel.value = was && !sel.querySelector(`option[value="${was}"]`)?.disabled ? was : (filled.commander ? "operations" : "commander");
  $("rolehelp").textContent = t("ui.team.rolehelp." + sel.value);
  const active = S.live.members.filter(m => !m.left);
  $("joinroles").textContent = active.length ? t("ui.team.onteam", { list: active.map(m => m.name + " (" + role(m.role) + ")").join(", ") }) : t("ui.team.empty");
  if (!$("joinname").value) try { $("joinname").value = localStorage.getItem("oncall.name") || ""; } catch (e) { /* storage off */ }
}

// drawControls builds the panels of what the member's role may do.
function drawControls() {
  const sp = $("speed"), was = sp.value;
  sp.textContent = "";
  for (const v of (S.team ? S.team.speeds : [1, 5, 20, 60])) sp.add(new Option(t("ui.run.speed" + v), v));
  sp.value = was || String(S.live ? S.live.speed : 1);
  const st = $("state");
  st.textContent = "";
  for (const s of (S.team ? S.team.states : [])) st.add(new Option(t("ui.team.state." + s), s));
  const box = $("controls");
  box.textContent = "";
  for (const c of controls()) box.append(controlRow(c));
}

function controlRow(c) {
  const row = document.createElement("div");
  row.className = "ctl";
  const name = ctlLabel(c.name);
  if (c.kind === "action") {
    row.innerHTML = `<span class="name">${esc(name)}</span><button type="button" id="do-${c.name}" class="${c.name === "rollback" ? "danger" : ""}">${esc(name)}</button>`;
    row.querySelector("button").addEventListener("click", () => decide(c.name));
    return row;
  }
  const id = "ctl-" + c.name;
  let input;
  if (c.kind === "bool") input = `<select id="${id}"><option value="1">${esc(t("switch.on"))}</option><option value="0">${esc(t("switch.off"))}</option></select>`;
  else {
    const share = c.unit === "share", k = share ? 100 : 1;
    input = `<input type="number" id="${id}" min="${c.min * k}" max="${c.max * k}" step="${c.kind === "int" ? 1 : share ? 1 : "any"}">${share ? " %" : c.unit && c.unit !== "instances" ? " " + esc(c.unit) : ""}`;
  }
  const help = c.help ? ` title="${esc(text(c.help))}"` : ""; // a switch's help, in the scenario's words
  row.innerHTML = `<label for="${id}"${help}>${esc(name)}</label><span class="set">${input}<button type="button" id="set-${c.name}">${esc(t("ui.team.set"))}</button></span>`;
  row.querySelector("button").addEventListener("click", () => decide(c.name));
  return row;
}

// fillControls puts the values in force in the controls' fields, but for
// the one being edited.
function fillControls() {
  const last = S.rows[S.rows.length - 1] || null;
  for (const c of controls()) {
    if (c.kind === "action") continue;
    const el = $("ctl-" + c.name);
    if (!el || el === document.activeElement) continue;
    const now = last && (c.name.startsWith("switch.") ? (last.switches || {})[c.name.slice(7)] : last[c.name]);
    const v = now !== undefined && now !== null ? now : S.st.initial[c.name];
    if (c.kind === "bool") el.value = v ? "1" : "0";
    else el.value = c.unit === "share" ? +(v * 100).toFixed(2) : v;
  }
}

function draw() {
  if (!S.st) return;
  const over = S.replay ? S.st.done : S.live.over, minute = S.rows.length;
  $("teamname").textContent = S.replay ? t("ui.team.replay_title", { title: scenarioTitle() }) : S.team.name;
  $("clock").textContent = S.st.times[minute] || "–";
  $("minute").textContent = t("ui.team.minute", { n: num(minute, 0), total: num(S.st.duration, 0) });
  const last = S.rows[minute - 1] || null;
  $("paged").hidden = !(last && last.paging);
  drawTiles(last);
  drawCharts();
  if (S.replay) { $("clockstate").textContent = over ? t("ui.team.ended") : ""; drawLog(); drawOver(true); return; }
  const live = S.live;
  $("clockstate").textContent = over ? t("ui.team.ended") : live.stopped ? t("ui.team.stopped") : live.running ? t("ui.team.running", { n: num(live.speed, 0) }) : t("ui.team.paused");
  const me = you();
  $("you").textContent = me ? t("ui.team.you", { name: me.name, role: role(me.role) }) : "";
  const msg = [...S.entries].reverse().find(e => e.kind === "message");
  $("facmsg").hidden = !msg;
  if (msg) $("facmsg").textContent = t("ui.team.facmsg", { text: msg.text });
  $("clockpanel").hidden = !(may("start") || may("step"));
  $("start").disabled = live.running || over || !may("start");
  $("pause").disabled = !live.running || !may("pause");
  $("step").disabled = live.running || over || !may("step");
  $("speed").disabled = !may("speed");
  $("handpanel").hidden = !(me && me.role === "commander");
  const hand = $("handto"), handWas = hand.value;
  hand.textContent = "";
  for (const m of live.members) if (!m.left && me && m.id !== me.id) hand.add(new Option(m.name + " (" + role(m.role) + ")", m.id));
  hand.value = handWas;
  $("handoff").disabled = !hand.options.length;
  $("decidepanel").hidden = !may("decision");
  $("statuspanel").hidden = !may("status");
  $("notepanel").hidden = !may("note");
  $("observing").hidden = !(me && me.role === "observer");
  for (const b of $("controls").querySelectorAll("button")) b.disabled = over;
  fillControls();
  drawMembers();
  drawLog();
  drawConnection();
  drawOver(over);
}

function scenarioTitle() {
  const sc = W.meta.scenarios.find(s => s.id === S.st.scenario);
  return sc ? text(sc.title) : S.st.scenario;
}

function drawConnection() {
  $("connection").textContent = S.replay ? "" : S.connected ? t("ui.team.connected") : t("ui.team.reconnecting");
  $("connection").classList.toggle("off", !S.connected && !S.replay);
}

function drawTiles(last) {
  $("tiles").innerHTML = TILES.map(n => `<div class="tile key"><dt>${esc(label(n))}</dt><dd><bdi id="val-${n}">${esc(last ? metricValue(n, last[n]) : "–")}</bdi></dd></div>`).join("");
}

function drawCharts() {
  const times = S.st.times, to = S.st.duration;
  const marks = [];
  for (const r of S.rows) if (r.events.some(e => e.kind === "page")) marks.push({ minute: r.minute, cls: "page", label: t("ui.team.paged"), title: times[r.minute] });
  for (const e of S.entries) if (e.kind === "decision" || e.kind === "inject") marks.push({ minute: e.minute, cls: e.kind === "inject" ? "rule" : "player", label: e.kind === "inject" ? "⚡" : "●", title: what(e, names()) });
  $("charts").innerHTML = CHARTS.map((ms, i) => {
    const spec = W.meta.metrics.find(m => m.name === ms[0]);
    const th = (S.st.lines || []).filter(l => l.metric === ms[0]).map(l => ({ value: l.value, title: l.op + " " + l.value, label: num(l.value, 1) }));
    const svg = lineChart({
      series: ms.map((m, j) => ({ values: S.rows.map(r => r[m]), color: COLORS[j], label: label(m) })),
      times, from: 0, to, now: S.rows.length, thresholds: th, marks, label: label(ms[0]),
      fmtY: v => spec.unit === "share" ? pct0(v) : num(v, 0), min: 0, max: spec.unit === "share" && ms[0] === "budget_left" ? 1 : undefined,
    });
    return `<figure class="chart" id="tchart-${i}"><figcaption>${esc(ms.map(label).join(" · "))}</figcaption>${svg}</figure>`;
  }).join("");
}

const pct0 = v => num(v * 100, 0) + " %";

function names() { const out = {}; for (const m of (S.live ? S.live.members : [])) out[m.id] = m.name; return out; }

function drawMembers() {
  const me = you();
  $("members").innerHTML = S.live.members.filter(m => !m.left).map(m =>
    `<li class="member ${m.role}"><bdi>${esc(m.name)}</bdi> · ${esc(role(m.role))}${me && m.id === me.id ? " " + esc(t("ui.team.itsyou")) : ""}</li>`).join("");
  $("leave").hidden = !me;
}

// drawLog lists the team's entries and the run's events, newest first:
// who did what in which role, at what time of the shift.
function drawLog() {
  const items = [];
  const nm = names();
  for (const e of (S.replay ? [] : S.entries)) {
    if (e.kind === "join" || e.kind === "role" || e.kind === "leave") e.member_name = nm[e.member] || e.name;
    const who = e.role === "facilitator" ? t("ui.team.role.facilitator") : e.name ? e.name + " · " + role(e.role) : "";
    items.push({ minute: e.minute, order: 0, seq: e.seq, cls: "entry " + e.kind, who, what: what(e, nm) });
  }
  // The run's lines, but for the team's own decisions, which its entries
  // tell with who took them.
  for (const tx of S.texts) {
    const evs = (S.rows[tx.minute] || { events: [] }).events;
    (tx.events || []).forEach((ev, i) => {
      if (evs[i] && evs[i].kind === "action" && evs[i].by === "player" && !S.replay) return;
      items.push({ minute: tx.minute, order: 1, seq: 0, cls: "event", who: "", what: text(ev) });
    });
  }
  items.sort((a, b) => b.minute - a.minute || b.order - a.order || b.seq - a.seq);
  $("log").innerHTML = items.slice(0, 300).map(i =>
    `<li class="${i.cls}"><time>${esc(S.st.times[i.minute] || "")}</time><span>${i.who ? `<b><bdi>${esc(i.who)}</bdi></b> ` : ""}<bdi>${esc(i.what)}</bdi></span></li>`).join("");
}

function drawOver(over) {
  $("overpanel").hidden = !over;
  if (!over) return;
  if (S.replay) {
    $("pmlink").hidden = true;
    $("tracelink").href = "/api/teamtrace?" + S.query + "&format=csv";
    $("share").value = location.href;
    return;
  }
  $("pmlink").href = "/postmortem#t=" + S.token;
  $("tracelink").href = `/api/teams/${S.token}/trace`;
  $("share").value = location.origin + "/team?" + (S.team.link || "");
}

// ---- the page --------------------------------------------------------------

async function main() {
  await start(() => { if (!S.st) return; if (you() || S.replay) { drawControls(); draw(); } else drawJoin(); });
  const q = new URLSearchParams(location.search);
  if (q.has("scenario")) {
    // A share link: the shift replayed from the link alone, read-only.
    S.replay = true;
    q.delete("format");
    S.query = q.toString();
    S.st = await api("GET", "/api/teamtrace?" + S.query + "&format=state");
    S.rows = S.st.rows; S.texts = S.st.texts || []; W.labels = S.st.labels || {};
    for (const id of ["clockpanel", "handpanel", "decidepanel", "statuspanel", "notepanel", "observing"]) $(id).hidden = true;
    $("leave").hidden = true;
    show();
    return;
  }
  S.token = location.hash.replace(/^#(t=)?/, "");
  if (!S.token) { $("nolink").hidden = false; return; }
  try { S.member = localStorage.getItem(memberKey()) || ""; } catch (e) { /* storage off */ }
  try { await load(); } catch (e) { $("nolink").hidden = false; oops(e); return; }
  $("joinform").addEventListener("submit", join);
  $("joinrole").addEventListener("change", () => { $("rolehelp").textContent = t("ui.team.rolehelp." + $("joinrole").value); });
  $("start").addEventListener("click", () => act({ kind: "start", speed: +$("speed").value }));
  $("pause").addEventListener("click", () => act({ kind: "pause" }));
  $("step").addEventListener("click", () => act({ kind: "step" }));
  $("speed").addEventListener("change", () => { if (S.live.running) act({ kind: "speed", speed: +$("speed").value }); });
  $("handoff").addEventListener("click", () => act({ kind: "role", member: $("handto").value, role: "commander" }));
  $("post").addEventListener("click", async () => { if (await act({ kind: "status", state: $("state").value, text: $("statustext").value })) $("statustext").value = ""; });
  $("addnote").addEventListener("click", async () => { if (await act({ kind: "note", text: $("notetext").value })) $("notetext").value = ""; });
  $("leave").addEventListener("click", async () => {
    if (!confirm(t("ui.team.leave_ask"))) return;
    if (await act({ kind: "leave" })) {
      try { localStorage.removeItem(memberKey()); } catch (e) { /* storage off */ }
      S.member = ""; S.team.you = null;
      if (S.es) S.es.close();
      show();
    }
  });
  show();
}

// For the browser tests: the page is idle when no call to the server is
// under way; state() reads what it holds in one evaluation.
window.oncall = {
  idle: () => S.busy === 0 && S.loading === 0 && !S.resyncing,
  state: () => ({ seq: S.lastSeq, minute: S.rows.length, over: S.replay ? !!(S.st && S.st.done) : !!(S.live && S.live.over), running: !!(S.live && S.live.running), role: you() ? you().role : "", connected: S.connected, entries: S.entries.length,
    decisions: S.entries.filter(e => e.kind === "decision").length, injects: S.entries.filter(e => e.kind === "inject").length, link: S.team ? S.team.link || "" : "" }),
};

main().catch(oops);
