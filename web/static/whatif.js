// "What if I had…": the debrief branches the finished shift (POST
// /api/whatif, as `oncall run --replay`): at each minute the player gives,
// their decisions replace those taken then; the decisions before the first
// are replayed, and at the other minutes after it nobody decides, the
// decisions taken carry on, or the reference policy plays on. The branch is
// drawn dash-dotted on the charts; both outcomes side by side. app.js gives
// the page's helpers (initWhatIf) and draws the panel and lines.

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
    const i = e.target.dataset && e.target.dataset.wi;
    if (e.target.classList.contains("wi-ctl")) $("wi-valbox-" + i).innerHTML = valueHTML(control(e.target.value), null, i);
  });
  document.addEventListener("click", e => {
    const b = e.target.closest && e.target.closest("#wi-add, .wi-remove");
    if (!b) return;
    const w = state(), rows = read();
    if (b.id === "wi-add") {
      const last = rows[rows.length - 1];
      const at = Math.min(minuteOf(last.time) + 10, P.S.shift.rows.length - 1);
      rows.push({ time: at >= 0 ? P.clockAt(at) : last.time, control: last.control, value: null });
    } else rows.splice(+b.dataset.wi, 1);
    w.rows = rows;
    w.then = $("wi-then").value;
    drawWhatIf($("whatif"));
    $(b.id === "wi-add" ? "wi-at-" + (rows.length - 1) : "wi-add").focus();
  });
}

const control = name => P.S.meta.controls.find(c => c.name === name);

// thenKeys are the texts of who decides after the branch starts.
const thenKeys = { nothing: "ui.whatif.then.nothing", recorded: "ui.whatif.then.recorded", reference: "ui.whatif.then.reference" };

// minuteOf is the minute of the shift a time "HH:MM" names, −1 if none:
// the first minute its clock reads it.
function minuteOf(time) {
  const sh = P.S.shift;
  return sh.times.slice(0, sh.rows.length).indexOf(time);
}

// state is the panel's state: the rows of decisions (a time, a control, a
// value each), who decides then, and the answer once asked.
function state() {
  const sh = P.S.shift;
  if (!sh.whatif) {
    const at = Math.max(0, (sh.debrief && sh.debrief.signal && sh.debrief.signal.minute) || 0);
    sh.whatif = { rows: [{ time: P.clockAt(at), control: "rollback", value: null }], then: "nothing" };
  }
  return sh.whatif;
}

// read reads the rows as the fields hold them.
function read() {
  return state().rows.map((r, i) => {
    const c = control($("wi-ctl-" + i).value), f = $("wi-val-" + i);
    let value = null;
    if (c.kind === "bool") value = +f.value;
    else if (c.kind !== "action") value = P.fromShown(c, +f.value);
    return { time: $("wi-at-" + i).value.trim(), control: c.name, value };
  });
}

// valueHTML is the field of a decision's value, in the controls' units.
function valueHTML(c, v, i) {
  const t = P.t;
  if (!c || c.kind === "action") return "";
  const lab = `<label for="wi-val-${i}">${esc(t("ui.whatif.value"))}</label>`;
  if (c.kind === "bool") {
    const on = v == null ? true : !!v;
    return lab + `<select id="wi-val-${i}" data-wi="${i}"><option value="1"${on ? " selected" : ""}>${esc(t("switch.on"))}</option><option value="0"${on ? "" : " selected"}>${esc(t("switch.off"))}</option></select>`;
  }
  const shown = P.toShown(c, v == null ? c.min : v);
  return lab + `<input type="number" id="wi-val-${i}" data-wi="${i}" min="${P.toShown(c, c.min)}" max="${P.toShown(c, c.max)}" step="any" value="${shown}">`;
}

// rowHTML is one decision of the branch: its time on the 24-hour clock
// (a text field, as every time of the console is written, not the
// browser's time field, which follows the system's 12-hour clock), its
// control and its value.
function rowHTML(r, i, n) {
  const t = P.t;
  const opts = P.S.meta.controls.map(c => `<option value="${esc(c.name)}"${c.name === r.control ? " selected" : ""}>${esc(P.ctlLabel(c.name))}</option>`).join("");
  const remove = n > 1 ? `<button type="button" class="wi-remove" data-wi="${i}" aria-label="${esc(t("ui.whatif.remove"))}" title="${esc(t("ui.whatif.remove"))}">✕</button>` : "";
  return `<li class="row whatif"><label for="wi-at-${i}">${esc(t("ui.whatif.at"))}</label>` +
    `<input type="text" id="wi-at-${i}" class="wi-at" data-wi="${i}" inputmode="numeric" maxlength="5" size="5" placeholder="HH:MM" pattern="[0-2][0-9]:[0-5][0-9]" dir="ltr" value="${esc(r.time)}">` +
    `<label for="wi-ctl-${i}">${esc(t("ui.whatif.decision"))}</label><select id="wi-ctl-${i}" class="wi-ctl" data-wi="${i}">${opts}</select>` +
    `<span id="wi-valbox-${i}">${valueHTML(control(r.control), r.value, i)}</span>${remove}</li>`;
}

// drawWhatIf draws the form and, once answered, the two outcomes.
export function drawWhatIf(box) {
  const sh = P.S.shift, t = P.t;
  if (!sh || !sh.done) { box.textContent = ""; return; }
  const w = state();
  const thens = ["nothing", "recorded"].concat(sh.debrief && sh.debrief.reference ? ["reference"] : []);
  const then = thens.map(v => `<option value="${v}"${v === w.then ? " selected" : ""}>${esc(t(thenKeys[v]))}</option>`).join("");
  box.innerHTML = `<h4>${esc(t("ui.whatif.title"))}</h4><p>${esc(t("ui.whatif.intro"))}</p>` +
    `<form id="wi-form" novalidate><ol class="wi-steps">${w.rows.map((r, i) => rowHTML(r, i, w.rows.length)).join("")}</ol>` +
    `<div class="row whatif"><button type="button" id="wi-add">${esc(t("ui.whatif.add"))}</button>` +
    `<label for="wi-then">${esc(t("ui.whatif.then"))}</label><select id="wi-then">${then}</select>` +
    `<button type="submit" id="wi-go">${esc(t("ui.whatif.replay"))}</button></div></form>` +
    (w.ans ? outcomesHTML(w) : "");
}

// decisionText is a decision as the panel's summary says it.
function decisionText(d) {
  const t = P.t, c = control(d.control);
  if (!c) return t("ui.whatif.nodecision");
  return P.ctlLabel(d.control) + (c.kind === "bool" ? " → " + t(d.value ? "switch.on" : "switch.off") : c.kind !== "action" ? " → " + P.value(c.unit, d.value) : "");
}

// outcomeText writes an outcome figure for a person: a first page that
// never came reads "did not page", not "−1 min" (the machine formats keep
// −1).
export function outcomeText(o, v) {
  if (o.name === "first_page" && v < 0) return P.t("ui.whatif.never");
  return P.value(o.unit, v, o.decimals);
}

function outcomesHTML(w) {
  const t = P.t, a = w.ans;
  const steps = w.asked.map(s => t("ui.whatif.step", { time: P.clockAt(s.at), decision: s.do.length ? s.do.map(decisionText).join(", ") : t("ui.whatif.nodecision") }));
  const rows = P.S.meta.outcomes.map(o => {
    const p = a.played[o.name], b = a.outcome[o.name], never = o.name === "first_page" && (p < 0 || b < 0);
    const d = b - p, diff = never ? "–" : (d > 0 ? "+" : "") + P.value(o.unit, d, o.decimals);
    // Each figure under its column's name, which a phone shows above it.
    const col = k => `data-label="${esc(t(k))}"`;
    return `<tr data-name="${esc(o.name)}"><th scope="row">${esc(t("outcome." + o.name + ".label"))}</th><td class="num" ${col("ui.whatif.played")}>${P.iso(outcomeText(o, p))}</td>` +
      `<td class="num" ${col("ui.whatif.branch")}>${P.iso(outcomeText(o, b))}</td><td class="num${d === 0 || never ? "" : " changed"}" ${col("ui.whatif.difference")}>${P.iso(diff)}</td></tr>`;
  });
  return `<p class="wi-said">${esc(t("ui.whatif.said", { steps: steps.join("; "), then: t(thenKeys[a.then]) }))}</p>` +
    `<table class="outcome whatif-out"><thead><tr><th scope="col">${esc(t("ui.whatif.figure"))}</th><th scope="col">${esc(t("ui.whatif.played"))}</th>` +
    `<th scope="col">${esc(t("ui.whatif.branch"))}</th><th scope="col">${esc(t("ui.whatif.difference"))}</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

// ask sends the branch: the rows grouped by minute into steps, in the
// order of the shift.
async function ask() {
  const sh = P.S.shift, t = P.t, w = state();
  const rows = read(), then = $("wi-then").value;
  const byMinute = new Map();
  for (const r of rows) {
    const at = minuteOf(r.time);
    if (at < 0) { P.say(t("ui.whatif.badtime", { time: r.time || "–", from: P.clockAt(0), to: P.clockAt(sh.rows.length - 1) })); return; }
    if (!byMinute.has(at)) byMinute.set(at, []);
    byMinute.get(at).push({ control: r.control, value: r.value == null ? 0 : r.value });
  }
  const steps = [...byMinute].sort((a, b) => a[0] - b[0]).map(([at, d]) => ({ at, do: d }));
  const body = P.shiftBody(sh.rows.length);
  delete body.minute;
  body.steps = steps;
  body.then = then;
  P.say("");
  const ans = await P.serial(() => P.api("POST", "/api/whatif", body));
  Object.assign(w, { rows, then, asked: steps, ans, at: ans.at });
  w.series = ans.series.requests.map((_, i) => Object.fromEntries(Object.keys(ans.series).map(k => [k, ans.series[k][i]])));
  P.draw();
}

// branchSeries is the branch's line of a metric, or null.
export function branchSeries(name, k, color, label) {
  const w = P.S.shift && P.S.shift.whatif;
  if (!w || !w.series || !w.series[0] || w.series[0][name] === undefined) return null;
  return { name, k, label: label + " (" + P.t("ui.whatif.line") + ")", values: w.series.map(r => r[name]), color, whatif: true };
}

export function branchLegend() {
  const w = P.S.shift && P.S.shift.whatif;
  return w && w.series ? `<span><i class="whatifkey"></i>${esc(P.t("ui.whatif.line"))}</span>` : "";
}
