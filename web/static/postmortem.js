// A team's postmortem draft, drawn by the server from the team's log
// (team.Draw): summary, impact beside the reference policy's, the
// timeline with the dashboard's figures at each moment, the reference's
// timeline, the grade, the members; the Markdown to download and edit.
// With a facilitator's link (#f=) every team's, side by side.
import { W, $, t, num, pct, F, metricValue, label, text, api, oops, start, role, what, esc } from "./words.js";

const P = { list: [], tokens: {}, busy: 0 };

const MOMENT_METRICS = ["error_rate", "p99_ms", "budget_left", "burn_1h", "serving", "paging"];
const IMPACT = ["error_requests", "budget_used", "paging_minutes", "minutes_to_mitigate", "cost", "availability"];

// figure writes an outcome figure by its unit, as the Markdown does.
function figure(name, v) {
  const spec = W.meta.outcomes.find(o => o.name === name) || {};
  switch (spec.unit) {
    case "share": return pct(v, 2);
    case "$": return F.money(W.fmt, v);
    case "min": return F.minutes(W.fmt, v);
    case "ms": return num(v, 0) + " ms";
    case "s": return num(v, 0) + " s";
  }
  return num(v, Math.min(spec.decimals ?? 0, 2));
}

const clock = (pm, m) => { const x = (pm.start_minute + m) % 1440; return String(Math.floor(x / 60)).padStart(2, "0") + ":" + String(x % 60).padStart(2, "0"); };

// summary is the draft's summary, as team.Postmortem.Summary writes it.
function summary(pm) {
  const title = text(pm.title), out = [];
  const members = pm.members.filter(m => !m.left).map(m => m.name).join(", ");
  out.push(t("ui.team.pm.played", { team: pm.name, members, title, seed: pm.seed, start: pm.start, end: pm.end }));
  const o = pm.impact;
  if (o.first_page < 0) out.push(t("ui.team.pm.no_page"));
  else {
    out.push(t("ui.team.pm.paged", { time: clock(pm, o.first_page), n: F.minutes(W.fmt, o.paging_minutes) }));
    out.push(pm.first_decision >= 0 ? t("ui.team.pm.first", { time: clock(pm, pm.first_decision) }) : t("ui.team.pm.no_first"));
  }
  if (pm.reference) out.push(t("ui.team.pm.budget_ref", { used: pct(o.budget_used, 2), reference: pct(pm.reference.budget_used, 2), policy: pm.reference_policy }));
  else out.push(t("ui.team.pm.budget", { used: pct(o.budget_used, 2) }));
  const injects = pm.timeline.filter(m => m.kind === "inject").map(m => text(m.title) + " (" + m.time + ")");
  if (injects.length) out.push(t("ui.team.pm.injects", { list: injects.join("; ") }));
  if (pm.stopped) out.push(t("ui.team.pm.stopped", { reason: pm.stopped }));
  return out.join(" ");
}

function moments(list, reference) {
  const head = reference ? ["ui.team.pm.col_time", "ui.team.pm.col_rule", "ui.team.pm.col_what"] : ["ui.team.pm.col_time", "ui.team.pm.col_who", "ui.team.pm.col_role", "ui.team.pm.col_what"];
  const rows = list.map(m => {
    const cells = reference ? [m.time, m.rule || "", what(m)] : [m.time, m.who || "", m.role && m.kind !== "role" && m.kind !== "join" ? role(m.role) : "", what(Object.assign({ member_name: m.member, assigned: m.role }, m))];
    const ms = MOMENT_METRICS.map(n => m.metrics && n in m.metrics ? metricValue(n, n === "paging" ? m.metrics[n] === 1 : m.metrics[n]) : "");
    return `<tr class="${esc(m.kind)}">${cells.map(c => `<td><bdi>${esc(c)}</bdi></td>`).join("")}${ms.map(c => `<td class="num">${esc(c)}</td>`).join("")}</tr>`;
  }).join("");
  return `<table><thead><tr>${head.map(k => `<th>${esc(t(k))}</th>`).join("")}${MOMENT_METRICS.map(n => `<th>${esc(label(n))}</th>`).join("")}</tr></thead><tbody>${rows}</tbody></table>`;
}

function draw() {
  $("pms").innerHTML = P.list.map(pm => {
    const token = P.tokens[pm.team];
    const md = token ? `<p><a class="button" id="md-${esc(pm.team)}" href="/api/teams/${token}/postmortem?format=md&lang=${W.lang}" download>${esc(t("ui.pm.markdown"))}</a></p>` : "";
    const ref = pm.reference;
    const impact = `<table><thead><tr><th></th><th>${esc(t("ui.team.pm.col_team"))}</th>${ref ? `<th>${esc(t("ui.team.pm.col_reference", { policy: pm.reference_policy }))}</th>` : ""}</tr></thead><tbody>${IMPACT.map(n =>
      `<tr><td>${esc(t("outcome." + n + ".label"))}</td><td class="num">${esc(figure(n, pm.impact[n]))}</td>${ref ? `<td class="num">${esc(figure(n, ref[n]))}</td>` : ""}</tr>`).join("")}</tbody></table>`;
    const g = pm.grade;
    const grade = g ? `<h3>${esc(t("ui.team.pm.grade"))}</h3><table><thead><tr>${["ui.team.pm.col_criterion", "ui.team.pm.col_bound", "ui.team.pm.col_team"].map(k => `<th>${esc(t(k))}</th>`).join("")}<th>${esc(t("ui.team.pm.col_reference", { policy: pm.reference_policy || "" }))}</th><th>${esc(t("ui.team.pm.col_points"))}</th></tr></thead><tbody>${g.criteria.map(c =>
      `<tr><td>${esc(t("outcome." + c.metric + ".label"))}</td><td>${esc(t(c.op === "at_least" ? "ui.team.pm.at_least" : "ui.team.pm.at_most") + " " + figure(c.metric, c.limit))}</td><td class="num">${esc(figure(c.metric, c.value))}</td><td class="num">${esc(figure(c.metric, c.reference))}</td><td class="num">${esc(num(c.points, 2) + " / " + num(c.weight, 0))}</td></tr>`).join("")}</tbody></table>
      <p id="score-${esc(pm.team)}"><b>${esc(t("ui.team.pm.score", { score: num(g.score, 2), max: num(g.max, 0) }))}</b></p>` : "";
    return `<article class="pm" id="pm-${esc(pm.team)}">
<h2>${esc(t("ui.team.pm.title", { team: pm.name, title: text(pm.title) }))}</h2>
<p class="draft">${esc(t("ui.team.pm.draft", { team: pm.name, title: text(pm.title), seed: pm.seed, start: pm.start, end: pm.end }))}</p>
${pm.done ? "" : `<p class="draft">${esc(t("ui.team.pm.under_way", { n: num(pm.played, 0), total: num(pm.minutes, 0) }))}</p>`}
${md}
<h3>${esc(t("ui.team.pm.summary"))}</h3><p class="summary">${esc(summary(pm))}</p>
<h3>${esc(t("ui.team.pm.impact"))}</h3>${impact}
<h3>${esc(t("ui.team.pm.timeline"))}</h3>${moments(pm.timeline, false)}
${pm.reference_policy ? `<h3>${esc(t("ui.team.pm.beside", { policy: pm.reference_policy }))}</h3>${moments(pm.beside, true)}` : ""}
${grade}
<h3>${esc(t("ui.team.pm.members"))}</h3><ul>${pm.members.map(m => `<li><bdi>${esc(m.name)}</bdi>, ${esc(role(m.role))}${m.left ? " " + esc(t("ui.team.pm.left")) : ""}</li>`).join("")}</ul>
</article>`;
  }).join("");
}

async function main() {
  await start(draw);
  const h = new URLSearchParams(location.hash.slice(1));
  P.busy++;
  try {
    if (h.get("t")) {
      P.tokens = {};
      const pm = await api("GET", `/api/teams/${h.get("t")}/postmortem`);
      P.tokens[pm.team] = h.get("t");
      P.list = [pm];
    } else if (h.get("f")) {
      const day = await api("GET", `/api/facilitate/${h.get("f")}`);
      for (const tm of day.teams) P.tokens[tm.id] = tm.token;
      P.list = await api("GET", `/api/facilitate/${h.get("f")}/postmortems`);
    } else {
      $("nolink").hidden = false;
      return;
    }
    W.labels = (P.list[0] && P.list[0].labels) || {}; // one game day: one scenario's words
    draw();
  } catch (e) { oops(e); } finally { P.busy--; }
}

window.oncall = { idle: () => P.busy === 0 };

main().catch(oops);
