// A team's own alerting rules on the debrief: the player uploads a
// Prometheus rule file, the server evaluates its alerting rules over the
// finished shift (POST /api/alertrules: Prometheus' parser and engine,
// bounded as `oncall alerts test` is) and the charts mark, in a lane each
// under their time axis, the minutes each alert fired beside those the
// built-in page fired. A file that does not load shows its
// diagnostics at file:line:col. Also the trace's OpenMetrics download.
// app.js gives the page's helpers (initAlertRules) and calls the rest.

import { esc } from "./chart.js";

let P = null; // the page's helpers
const $ = id => document.getElementById(id);

// MAX_KB is the largest rule file the server takes (web.MaxRuleFile).
const MAX_KB = 128;

// cls is the class of an alert's lane and key (app.css: ar0 to ar5, an
// alert each in the file's order; the built-in page in the page's red):
// the page's policy allows no style but its own sheet's.
const cls = (a, i) => (a.builtin ? "arpage" : "ar" + (i % 6));

export function initAlertRules(page) {
  P = page;
  document.addEventListener("change", e => {
    if (e.target.id !== "ar-file") return;
    const f = e.target.files && e.target.files[0];
    if (f) upload(f).catch(P.oops);
  });
  document.addEventListener("click", e => {
    if (e.target.id !== "ar-clear" || !P.S.shift) return;
    delete P.S.shift.rules;
    P.draw();
    $("ar-file").focus();
  });
}

// openMetricsLink points the download at the shift's trace as
// OpenMetrics, dated today (UTC): a Prometheus keeps blocks of its
// retention only, and `oncall run -f openmetrics --start` of that date
// writes the same bytes.
export function openMetricsLink(a, q, sh) {
  const today = new Date().toISOString().slice(0, 10);
  a.href = "/api/trace?" + q + "&format=openmetrics&start=" + today;
  a.setAttribute("download", `oncall-${sh.scenario}-${sh.seed}.om`);
}

// upload sends the file's text with the shift, as the debrief does.
async function upload(file) {
  const sh = P.S.shift, t = P.t;
  if (file.size > MAX_KB * 1024) {
    P.say(t("ui.rules.too_large", { name: file.name, kb: P.num(Math.ceil(file.size / 1024), 0), max: P.num(MAX_KB, 0) }));
    return;
  }
  const rules = await file.text();
  const body = P.shiftBody(sh.rows.length);
  delete body.minute;
  Object.assign(body, { file: file.name, rules });
  sh.rules = { file: file.name, busy: true };
  P.say("");
  drawAlertRules($("alertrules"));
  try {
    sh.rules = { file: file.name, ans: await P.serial(() => P.api("POST", "/api/alertrules", body)) };
  } catch (e) {
    sh.rules = e.status === 422 ? { file: file.name, error: e.message } : undefined;
    if (e.status !== 422) P.oops(e);
  }
  P.draw();
}

// spanText writes a stretch of minutes as the clock reads them.
function spanText(s) {
  return s.from === s.to ? P.clockAt(s.from) : P.clockAt(s.from) + "–" + P.clockAt(s.to);
}

const alertName = a => (a.builtin ? P.t("ui.rules.builtin") : a.name);

// drawAlertRules draws the panel: the file field and, once answered, the
// shift's incidents and a line an alert, the built-in page last.
export function drawAlertRules(box) {
  const sh = P.S.shift, t = P.t;
  if (!sh || !sh.done) { box.textContent = ""; return; }
  const r = sh.rules;
  const out = [`<h4>${esc(t("ui.rules.title"))}</h4><p>${esc(t("ui.rules.intro", { kb: P.num(MAX_KB, 0) }))}</p>`,
    `<div class="row"><label for="ar-file">${esc(t("ui.rules.file"))}</label> <input type="file" id="ar-file" accept=".yml,.yaml,.json,application/yaml,text/yaml">` +
    (r && !r.busy ? ` <button type="button" id="ar-clear">${esc(t("ui.rules.clear"))}</button>` : "") + `</div>`];
  if (r && r.busy) out.push(`<p class="help" id="ar-busy">${esc(t("ui.rules.busy", { name: r.file }))}</p>`);
  if (r && r.error) out.push(`<pre id="ar-diag" class="diagnostics" dir="ltr">${esc(r.error)}</pre>`);
  if (r && r.ans) out.push(resultHTML(r.ans));
  box.innerHTML = out.join("");
}

function resultHTML(a) {
  const t = P.t, rows = [];
  const incs = a.incidents.map(spanText).join(", ");
  a.alerts.forEach((x, i) => {
    const col = k => `data-label="${esc(t(k))}"`;
    const fired = x.firing.length ? x.firing.map(spanText).join(", ") : t("ui.rules.never");
    rows.push(`<tr data-alert="${esc(x.name)}"><th scope="row"><i class="arkey ${cls(x, i)}"></i>${P.isoRuns(alertName(x))}` +
      (x.at ? ` <small dir="ltr">${esc(x.at)}</small>` : "") + `</th><td ${col("ui.rules.fired")}>${P.iso(fired)}</td>` +
      `<td class="num" ${col("ui.rules.detected")}>${P.iso(t("ui.rules.of", { n: P.num(x.detected, 0), total: P.num(a.incidents.length, 0) }))}</td>` +
      `<td class="num" ${col("ui.rules.detection")}>${x.detection_min == null ? "–" : P.iso(P.num(x.detection_min, 1))}</td>` +
      `<td class="num" ${col("ui.rules.false")}>${P.iso(P.num(x.false_pages, 0))}</td></tr>`);
  });
  const silent = a.silent.map(s => `<p class="help">${P.isoRuns(t("ui.rules.silent", { selector: s.selector, rule: s.rule, at: s.at }))}</p>`);
  return `<p id="ar-incidents">${a.incidents.length ? P.isoRuns(t("ui.rules.incidents", { list: incs })) : esc(t("ui.rules.noincident"))}</p>` +
    `<table class="outcome alertrules"><thead><tr><th scope="col">${esc(t("ui.rules.alert"))}</th><th scope="col">${esc(t("ui.rules.fired"))}</th>` +
    `<th scope="col">${esc(t("ui.rules.detected"))}</th><th scope="col">${esc(t("ui.rules.detection"))}</th><th scope="col">${esc(t("ui.rules.false"))}</th></tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>` + silent.join("");
}

// alertBands are the lanes the charts draw: an alert each, then the
// built-in page, each stretch it fired with its title.
export function alertBands() {
  const r = P.S.shift && P.S.shift.rules;
  if (!r || !r.ans) return [];
  const out = [];
  r.ans.alerts.forEach((a, i) => {
    for (const s of a.firing) out.push({ from: s.from, to: s.to, lane: i, cls: cls(a, i), name: a.name, title: alertName(a) + " " + spanText(s) });
  });
  return out;
}

export function alertLegend() {
  const r = P.S.shift && P.S.shift.rules;
  return r && r.ans ? `<span><i class="arkey ar0"></i>${esc(P.t("ui.rules.legend"))}</span>` : "";
}
