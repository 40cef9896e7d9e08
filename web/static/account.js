// The debrief's account of the score: each criterion's row shows its part
// of the score as counted, guards applied, so that the rows add up to the
// score; a row whose points a missed guard cancelled says so and names it;
// the first line under the score says which guard took the points and how
// many, in the shift's own figures; a shift worse than doing nothing is
// told so with its figures. Every word comes from the catalogue and every
// number is written the page's language's way. app.js gives the page's
// helpers (initAccount) and places what this file writes.

let P = null; // the page's helpers

export function initAccount(page) { P = page; }

// shownPoints rounds the rows' points to tenths so that they add up to the
// score as shown, itself in tenths: each is rounded down and the tenths
// still missing go to the largest remainders (as grade's Gradescope
// output does in hundredths).
export function shownPoints(points, total) {
  const tenths = points.map(p => Math.floor(p * 10 + 1e-9));
  const order = points.map((p, i) => i).sort((a, b) => (points[b] * 10 - tenths[b]) - (points[a] * 10 - tenths[a]) || a - b);
  let missing = Math.round(total * 10) - tenths.reduce((a, b) => a + b, 0);
  for (let k = 0; missing > 0 && order.length; k = (k + 1) % order.length, missing--) tenths[order[k]]++;
  return tenths.map(n => n / 10);
}

// points writes a number of points: whole numbers bare, others to a tenth.
const points = v => P.num(v, Math.abs(v - Math.round(v)) < 1e-9 ? 0 : 1);

const label = metric => P.t("outcome." + metric + ".label");

// figure writes an outcome's figure with its unit, on one line.
function figure(metric, v) {
  const o = P.metricSpec(metric);
  return P.value(o.unit, v, o.decimals).replace(/ /g, "\u00a0");
}

// listed joins names as the language lists them: "a, b and c".
function listed(names) {
  if (names.length < 2) return names.join("");
  return P.t("ui.debrief.and", { a: names.slice(0, -1).join(", "), b: names.at(-1) });
}

// guardFigure is a missed guard in the shift's figures: "Share of traffic
// shed 7,2 % against at most 1,0 %".
function guardFigure(c) {
  const bound = P.t(c.op === "at_least" ? "ui.debrief.at_least" : "ui.debrief.at_most", { bound: figure(c.metric, c.limit) });
  return P.t("ui.debrief.guard_figure", { label: label(c.metric), value: figure(c.metric, c.value), bound });
}

// resultText is a row's result: met, partly met or missed, with its part
// of the score as shown (shown, in tenths), and what a missed guard took
// of it.
export function resultText(c, shown) {
  const vars = { n: points(c.weight), points: points(shown) };
  const guards = listed((c.taken_by || []).map(label));
  const before = c.before_guards, taken = before - c.points;
  if (c.pass && before > 0 && taken > 0.005 && guards) {
    if (c.points < 0.005) return P.t("ui.debrief.met_cancelled", { ...vars, guards });
    return P.t("ui.debrief.met_taken", { ...vars, guards, taken: points(taken) });
  }
  if (c.pass && c.by_bound && c.weight - before > 0.005) return P.t("ui.debrief.met_held", vars);
  if (c.pass) return P.t("ui.debrief.pass", vars);
  const own = P.t(c.points > 0.005 ? "ui.debrief.partial" : "ui.debrief.fail", vars);
  if (before > 0 && taken > 0.005 && guards) return P.t("ui.debrief.part_taken", { result: own, guards, taken: points(taken) });
  return own;
}

// scoreLines are the lines under the score: what the missed guards took,
// then, for a shift worse than doing nothing, on which figures. HTML.
export function scoreLines(d) {
  const out = [];
  const missed = d.criteria.filter(c => c.missed_guard && c.took > 0);
  if (d.lost_to_guards > 0.005 && missed.length) {
    const one = missed.length === 1, all = d.lost_to_guards >= d.before_guards - 0.005;
    const key = all ? (one ? "ui.debrief.guard_cancels" : "ui.debrief.guards_cancel") : (one ? "ui.debrief.guard_takes" : "ui.debrief.guards_take");
    const text = P.t(key, { guards: listed(missed.map(guardFigure)), points: points(d.before_guards), lost: points(d.lost_to_guards) });
    out.push(`<p class="guards failc">${P.isoRuns(text)}</p>`);
  }
  if (d.worse_figures && d.worse_figures.length) {
    const figures = d.worse_figures.map(f => P.t("ui.debrief.worse_figure", { label: label(f.metric), value: figure(f.metric, f.value), none: figure(f.metric, f.none) }));
    out.push(`<p class="worse failc">${P.isoRuns(P.t("ui.debrief.worse", { figures: figures.join("; "), none: points(d.none_score) }))}</p>`);
  }
  return out.join("");
}
