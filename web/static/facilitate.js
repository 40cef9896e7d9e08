// The facilitator's console of a team game day: a form makes the game
// day; then every team at a glance, live (its minute, budget left, error
// rate, paging, the roles filled, its last decision), and what the
// facilitator does to one team or all: pause and resume, speed, a
// message, an inject of the scenario, a role given to a member. The
// facilitator's link (#token) is the console's key: the page keeps it in
// local storage, and the server knows only its hash.
import { W, $, t, num, pct, metricValue, text, api, say, oops, start, role, what, esc } from "./words.js";

const F = { token: "", day: null, teams: new Map(), es: null, busy: 0 };

const link = token => location.origin + "/team#" + token;

// ---- making a game day ------------------------------------------------------

function fillForm() {
  const sel = $("scenario"), was = sel.value;
  sel.textContent = "";
  for (const s of W.meta.scenarios) sel.add(new Option(text(s.title), s.id));
  if (was) sel.value = was;
  const sc = W.meta.scenarios.find(s => s.id === sel.value);
  $("briefing").textContent = sc ? text(sc.briefing) : "";
  if (!$("seed").value) $("seed").value = String(Math.floor(Math.random() * 4294967296));
  if (!$("teams").value) $("teams").value = [1, 2].map(n => t("ui.fac.team_n", { n })).join("\n");
}

async function create(ev) {
  ev.preventDefault();
  const teams = $("teams").value.split("\n").map(s => s.trim()).filter(Boolean);
  F.busy++;
  try {
    const d = await api("POST", "/api/teamdays", { scenario: $("scenario").value, seed: $("seed").value.trim(), noise: $("noise").checked, teams, max_members: +$("maxmembers").value });
    F.token = d.facilitator;
    try { localStorage.setItem("oncall.facilitator", F.token); } catch (e) { /* storage off */ }
    history.replaceState(null, "", "#" + F.token);
    await open();
  } catch (e) { oops(e); } finally { F.busy--; }
}

// ---- the console ------------------------------------------------------------

async function open() {
  F.busy++;
  try {
    F.day = await api("GET", `/api/facilitate/${F.token}`);
    W.labels = F.day.labels || {};
    for (const tm of F.day.teams) F.teams.set(tm.id, tm);
    $("create").hidden = true;
    $("console").hidden = false;
    drawDay();
    connect();
  } finally { F.busy--; }
}

function connect() {
  if (F.es) F.es.close();
  F.es = new EventSource(`/api/facilitate/${F.token}/events`);
  F.es.addEventListener("team", ev => {
    const tm = JSON.parse(ev.data);
    F.teams.set(tm.id, tm);
    drawTeam(tm);
  });
}

function drawDay() {
  const d = F.day;
  $("daytitle").textContent = text(d.title);
  $("dayinfo").textContent = t("ui.fac.info", { seed: d.seed, n: num(d.teams.length, 0), max: num(d.max_members, 0) });
  $("faclink").value = location.origin + "/facilitate#" + F.token;
  $("pmall").href = "/postmortem#f=" + F.token;
  const sp = $("speedall");
  sp.textContent = "";
  for (const v of d.speeds) sp.add(new Option(t("ui.run.speed" + v), v));
  $("teamrows").innerHTML = d.teams.map(tm => `<tr id="team-${tm.id}"></tr>`).join("");
  for (const tm of F.teams.values()) drawTeam(tm);
}

// drawTeam draws a team's row: where its shift stands, and the
// facilitator's controls, made once so that what is being chosen in them
// stays as the figures beside them change.
function drawTeam(tm) {
  const row = $("team-" + tm.id);
  if (!row) return;
  if (!row.dataset.made) makeRow(row, tm);
  const live = tm.live;
  const state = live.over ? t("ui.team.ended") : live.stopped ? t("ui.team.stopped") : live.running ? t("ui.team.running", { n: num(live.speed, 0) }) : t("ui.team.paused");
  const members = live.members.filter(m => !m.left);
  row.className = tm.paging ? "paging" : "";
  const cell = c => row.querySelector("td." + c);
  cell("tclock").innerHTML = `${esc(tm.time)}<br>${esc(t("ui.team.minute", { n: num(live.minute, 0), total: num(tm.minutes, 0) }))}<br>${esc(state)}`;
  cell("budget").textContent = metricValue("budget_left", tm.budget_left);
  cell("errors").textContent = metricValue("error_rate", tm.error_rate);
  cell("paging").innerHTML = tm.paging ? `<b class="pagingword">${esc(t("ui.team.paged"))}</b>` : "–";
  cell("roles").innerHTML = `<small>${F.day.roles.map(r => `${esc(role(r))}: ${num(tm.filled[r] || 0, 0)}`).join(" · ")}</small><br>${members.map(m => `<bdi>${esc(m.name)}</bdi> (${esc(role(m.role))})`).join(", ")}`;
  cell("last").innerHTML = tm.last ? `<bdi>${esc(tm.last.name)}</bdi> (${esc(role(tm.last.role))}): ${esc(what(tm.last))}` : "–";
  const run = row.querySelector("button.run");
  run.dataset.act = live.running ? "pause" : "start";
  run.textContent = live.running ? t("ui.run.pause") : t("ui.fac.resume");
  run.disabled = live.over;
  row.querySelector("button.fire").disabled = !F.day.injects.length || live.over;
  const speed = row.querySelector("select.speed");
  if (speed !== document.activeElement) speed.value = String(live.speed);
  const who = row.querySelector("select.member"), ids = members.map(m => m.id).join(",");
  if (who.dataset.ids !== ids) {
    const was = who.value;
    who.innerHTML = members.map(m => `<option value="${esc(m.id)}">${esc(m.name)}</option>`).join("");
    if (members.some(m => m.id === was)) who.value = was;
    who.dataset.ids = ids;
  }
  row.querySelector("button.assign").disabled = !members.length;
}

// makeRow makes a team's row: its cells and the facilitator's controls.
function makeRow(row, tm) {
  row.dataset.made = "1";
  row.innerHTML = `<td><b><bdi>${esc(tm.name)}</bdi></b><br><input class="link" readonly value="${esc(link(tm.token))}" aria-label="${esc(t("ui.fac.team_link", { name: tm.name }))}"></td>
<td class="num tclock"></td><td class="num budget"></td><td class="num errors"></td><td class="paging"></td><td class="roles"></td><td class="last"></td>
<td><div class="actions">
  <button type="button" class="run" data-act="start"></button>
  <select class="speed" aria-label="${esc(t("ui.run.speed"))}">${F.day.speeds.map(v => `<option value="${v}">${esc(t("ui.run.speed" + v))}</option>`).join("")}</select>
  <select class="inject" aria-label="${esc(t("ui.fac.inject"))}">${F.day.injects.map(i => `<option value="${esc(i.id)}">${esc(text(i.title))}</option>`).join("")}</select>
  <button type="button" class="fire" data-act="inject">${esc(t("ui.fac.fire"))}</button>
  <input class="msg" type="text" maxlength="500" placeholder="${esc(t("ui.fac.message_ph"))}" aria-label="${esc(t("ui.fac.message_team", { name: tm.name }))}">
  <button type="button" class="send" data-act="message">${esc(t("ui.fac.send"))}</button>
  <select class="member" aria-label="${esc(t("ui.fac.member"))}"></select>
  <select class="role" aria-label="${esc(t("ui.team.role"))}">${F.day.roles.map(r => `<option value="${r}">${esc(role(r))}</option>`).join("")}</select>
  <button type="button" class="assign" data-act="role">${esc(t("ui.fac.assign"))}</button>
  <a href="/postmortem#t=${esc(tm.token)}">${esc(t("ui.team.postmortem"))}</a>
</div></td>`;
  for (const b of row.querySelectorAll("button[data-act]")) b.addEventListener("click", () => teamAct(tm.id, b.dataset.act, row));
  row.querySelector("select.speed").addEventListener("change", ev => send({ team: tm.id, kind: "speed", speed: +ev.target.value }));
}

function teamAct(id, kind, row) {
  const body = { team: id, kind };
  if (kind === "inject") body.inject = row.querySelector("select.inject").value;
  if (kind === "message") body.text = row.querySelector("input.msg").value;
  if (kind === "start") body.speed = +row.querySelector("select.speed").value;
  if (kind === "role") { body.member = row.querySelector("select.member").value; body.role = row.querySelector("select.role").value; }
  return send(body).then(ok => { if (ok && kind === "message") row.querySelector("input.msg").value = ""; });
}

// send writes the facilitator's action; to every team, it says how many
// took it and why the others did not.
async function send(body) {
  F.busy++;
  try {
    const a = await api("POST", `/api/facilitate/${F.token}/act`, body);
    const refused = a.results.filter(r => r.error);
    if (!body.team && refused.length) say(t("ui.fac.some_refused", { n: num(a.results.length - refused.length, 0), total: num(a.results.length, 0) }) + "\n" + refused.map(r => (F.teams.get(r.team) || {}).name + ": " + r.error).join("\n"), true);
    else say(body.team ? "" : t("ui.fac.sent_all", { n: num(a.results.length, 0) }), true);
    return true;
  } catch (e) { oops(e); return false; } finally { F.busy--; }
}

async function main() {
  await start(() => { if (F.day) drawDay(); else fillForm(); });
  $("createform").addEventListener("submit", create);
  $("scenario").addEventListener("change", () => fillForm());
  $("pauseall").addEventListener("click", () => send({ kind: "pause" }));
  $("resumeall").addEventListener("click", () => send({ kind: "start", speed: +$("speedall").value }));
  $("speedall").addEventListener("change", () => send({ kind: "speed", speed: +$("speedall").value }));
  $("sendall").addEventListener("click", async () => { if (await send({ kind: "message", text: $("msgall").value })) $("msgall").value = ""; });
  F.token = location.hash.replace(/^#/, "");
  if (!F.token) {
    $("create").hidden = false;
    fillForm();
    return;
  }
  try { await open(); } catch (e) { oops(e); $("create").hidden = false; fillForm(); }
}

window.oncall = { idle: () => F.busy === 0, teams: () => [...F.teams.values()].map(tm => ({ id: tm.id, name: tm.name, token: tm.token, minute: tm.live.minute, running: tm.live.running, over: tm.live.over, members: tm.live.members.length })) };

main().catch(oops);
