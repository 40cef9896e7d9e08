// "What if I had…": the debrief branches the finished shift at a minute
// with another decision (POST /api/whatif, as `oncall run --replay`): the
// decisions before it replayed, this one taken, nobody deciding after. The
// branch is drawn dash-dotted on the charts; both outcomes side by side.
// app.js gives the page's helpers (initWhatIf) and draws the panel and lines.

import { esc } from "./chart.js";

let P = null; // the page's helpers
const $ = id => document.getElementById(id);

export function initWhatIf(page) {
  P = page;
  document.addEventListener("submit", e => {
    if (e.target.id !== "wi-form") return;
    e.preventDefault();
    ask().catch(P.oops);
  });
  document.addEventListener("change", e => {
    if (e.target.id === "wi-ctl") $("wi-valbox").innerHTML = valueHTML(control(e.target.value), null);
  });
}

const control = name => P.S.meta.controls.find(c => c.name === name);

// valueHTML is the field of a decision's value, in the controls' units.
function valueHTML(c, v) {
  const t = P.t;
  if (!c || c.kind === "action") return "";
  const lab = `<label for="wi-val">${esc(t("ui.whatif.value"))}</label>`;
  if (c.kind === "bool") {
    const on = v == null ? true : !!v;
    return lab + `<select id="wi-val"><option value="1"${on ? " selected" : ""}>${esc(t("switch.on"))}</option><option value="0"${on ? "" : " selected"}>${esc(t("switch.off"))}</option></select>`;
  }
  const shown = P.toShown(c, v == null ? c.min : v);
  return lab + `<input type="number" id="wi-val" min="${P.toShown(c, c.min)}" max="${P.toShown(c, c.max)}" step="any" value="${shown}">`;
}

// drawWhatIf draws the form and, once answered, the two outcomes.
export function drawWhatIf(box) {
  const sh = P.S.shift, t = P.t;
  if (!sh || !sh.done) { box.textContent = ""; return; }
  const w = sh.whatif || {};
  const at = w.at ?? Math.max(0, (sh.debrief && sh.debrief.signal && sh.debrief.signal.minute) || 0);
  const name = w.control || "rollback";
  const opts = P.S.meta.controls.map(c => `<option value="${esc(c.name)}"${c.name === name ? " selected" : ""}>${esc(P.ctlLabel(c.name))}</option>`).join("");
  const out = [`<h4>${esc(t("ui.whatif.title"))}</h4><p>${esc(t("ui.whatif.intro"))}</p>`,
    `<form id="wi-form" class="row whatif" novalidate><label for="wi-at">${esc(t("ui.whatif.at"))}</label><input type="time" id="wi-at" step="60" required value="${esc(P.clockAt(at))}">`,
    `<label for="wi-ctl">${esc(t("ui.whatif.decision"))}</label><select id="wi-ctl">${opts}</select>`,
    `<span id="wi-valbox">${valueHTML(control(name), w.value)}</span><button type="submit" id="wi-go">${esc(t("ui.whatif.replay"))}</button></form>`];
  if (w.ans) out.push(outcomesHTML(sh, w));
  box.innerHTML = out.join("");
}

function outcomesHTML(sh, w) {
  const t = P.t, a = w.ans, c = control(w.control);
  const did = P.ctlLabel(w.control) + (c && c.kind === "bool" ? " → " + t(w.value ? "switch.on" : "switch.off") : c && c.kind !== "action" ? " → " + P.value(c.unit, w.value) : "");
  const rows = P.S.meta.outcomes.map(o => {
    const p = a.played[o.name], b = a.outcome[o.name], never = o.name === "first_page" && (p < 0 || b < 0);
    const d = b - p, diff = never ? "–" : (d > 0 ? "+" : "") + P.value(o.unit, d, o.decimals);
    // Each figure under its column's name, which a phone shows above it.
    const col = k => `data-label="${esc(t(k))}"`;
    return `<tr data-name="${esc(o.name)}"><th scope="row">${esc(t("outcome." + o.name + ".label"))}</th><td class="num" ${col("ui.whatif.played")}>${P.iso(P.value(o.unit, p, o.decimals))}</td>` +
      `<td class="num" ${col("ui.whatif.branch")}>${P.iso(P.value(o.unit, b, o.decimals))}</td><td class="num${d === 0 || never ? "" : " changed"}" ${col("ui.whatif.difference")}>${P.iso(diff)}</td></tr>`;
  });
  return `<p class="wi-said">${esc(t("ui.whatif.said", { time: P.clockAt(a.at), decision: did }))}</p>` +
    `<table class="outcome whatif-out"><thead><tr><th scope="col">${esc(t("ui.whatif.figure"))}</th><th scope="col">${esc(t("ui.whatif.played"))}</th>` +
    `<th scope="col">${esc(t("ui.whatif.branch"))}</th><th scope="col">${esc(t("ui.whatif.difference"))}</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

async function ask() {
  const sh = P.S.shift, t = P.t;
  const time = $("wi-at").value, name = $("wi-ctl").value, c = control(name);
  const at = sh.times.slice(0, sh.rows.length).indexOf(time);
  if (at < 0) { P.say(t("ui.whatif.badtime", { time: time || "–", from: P.clockAt(0), to: P.clockAt(sh.rows.length - 1) })); return; }
  let v = 0;
  if (c.kind === "bool") v = +$("wi-val").value;
  else if (c.kind !== "action") v = P.fromShown(c, +$("wi-val").value);
  const body = P.shiftBody(sh.rows.length);
  delete body.minute;
  body.at = at;
  body.do = [{ control: name, value: v }];
  P.say("");
  const ans = await P.serial(() => P.api("POST", "/api/whatif", body));
  sh.whatif = { at, control: name, value: v, ans, rows: ans.series.requests.map((_, i) => Object.fromEntries(Object.keys(ans.series).map(k => [k, ans.series[k][i]]))) };
  P.draw();
}

// branchSeries is the branch's line of a metric, or null.
export function branchSeries(name, k, color, label) {
  const w = P.S.shift && P.S.shift.whatif;
  if (!w || !w.rows[0] || w.rows[0][name] === undefined) return null;
  return { name, k, label: label + " (" + P.t("ui.whatif.line") + ")", values: w.rows.map(r => r[name]), color, whatif: true };
}

export function branchLegend() {
  const w = P.S.shift && P.S.shift.whatif;
  return w ? `<span><i class="whatifkey"></i>${esc(P.t("ui.whatif.line"))}</span>` : "";
}
