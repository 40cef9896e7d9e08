// Small SVG line charts, drawn from arrays of numbers. No library: a chart
// is a few polylines, axes with round ticks, the page rule's bounds,
// labelled event marks and a cursor that shows the values of one minute,
// on hover and by keyboard.

const W = 320, H = 140, L = 40, R = 8, T = 20, B = 18;

export function esc(s) {
  return String(s).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// span is the window of minutes a chart shows at minute now of a shift of
// duration minutes: the last `width` minutes and a little ahead, the whole
// shift when width is 0 or covers it.
export function span(now, duration, width) {
  if (!width || width >= duration) return [0, duration];
  const hi = Math.min(duration, Math.max(width, now + Math.ceil(width / 12)));
  return [hi - width, hi];
}

// niceStep is the step of about n ticks over a range: 1, 2, 2.5 or 5 times
// a power of ten, so that the axis reads in round numbers. decimals, when
// given, is how many decimals the axis writes: a step those decimals cannot
// write exactly is passed over ("2.5 %" at none would print 0, 3, 5, 8, 10),
// and the step is at least the smallest they write.
export function niceStep(range, n, decimals) {
  const least = decimals == null ? 0 : 10 ** -decimals;
  if (!(range > 0)) return Math.max(1, least);
  const raw = range / n, p = 10 ** Math.floor(Math.log10(raw));
  const exact = v => decimals == null || Math.abs(v * 10 ** decimals - Math.round(v * 10 ** decimals)) < 1e-9;
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= raw * 0.9999 && exact(m * p)) return m * p;
  return Math.max(10 * p, least);
}

// yRange rounds the values' range out to whole steps: [lo, hi, step].
// Bounds given (o.min, o.max) are kept; zero is always on the axis.
function yRange(o, from, to) {
  let lo = Infinity, hi = -Infinity;
  for (const s of o.series) for (let m = from; m < Math.min(to, s.values.length); m++) {
    const v = s.values[m];
    if (v != null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  }
  for (const t of o.thresholds || []) hi = Math.max(hi, t.value);
  if (lo === Infinity) { lo = 0; hi = 1; }
  lo = Math.min(lo, 0); hi = Math.max(hi, 0);
  if (o.min != null) lo = o.min;
  if (o.max != null) hi = o.max;
  if (hi - lo < (o.least || 1e-9)) hi = lo + (o.least || 1);
  const step = niceStep((hi - lo) * (o.scale || 1), 4, o.decimals) / (o.scale || 1);
  return [Math.floor(lo / step + 1e-9) * step, Math.ceil(hi / step - 1e-9) * step, step];
}

// xTicks puts ticks on round times of day: every 5, 10, 15, 30 minutes or
// whole hours, whichever gives at most five. times are the server's clock
// strings of each minute.
function xTicks(times, from, to) {
  const steps = [5, 10, 15, 30, 60, 120, 180, 240, 360];
  const step = steps.find(s => (to - from) / s <= 5) || 720;
  const out = [];
  for (let m = from; m <= to; m++) {
    const t = times[m];
    if (!t) continue;
    const day = +t.slice(0, 2) * 60 + +t.slice(3, 5);
    if (day % step === 0) out.push(m);
  }
  return out;
}

// lineChart returns a chart's SVG text and the geometry its cursor needs.
// o: {series: [{name, values, color, ref, whatif, label}], times, from, to, now, min, max,
//     scale, decimals (fmtY's, of v·scale), thresholds: [{value, title}],
//     marks: [{minute, cls, label, title}], bands: [{from, to, lane, cls, name, title}], fmtY(v), label}
export function lineChart(o) {
  const { from, to } = o;
  const [lo, hi, step] = yRange(o, from, to);
  const x = m => L + ((m - from) / Math.max(1, to - from)) * (W - L - R);
  const y = v => T + (1 - (Math.min(Math.max(v, lo), hi) - lo) / (hi - lo)) * (H - T - B);
  // Bands (when each alert of a rule file fired) have a lane each under the
  // time axis, on its scale: the chart grows by their lanes.
  const lanes = (o.bands || []).reduce((n, b) => Math.max(n, b.lane + 1), 0);
  const out = [`<svg viewBox="0 0 ${W} ${H + (lanes ? 2 + 5 * lanes : 0)}" role="img" aria-label="${esc(o.label)}" data-from="${from}" data-to="${to}" xmlns="http://www.w3.org/2000/svg">`];
  for (let v = lo, i = 0; v <= hi + step / 2 && i < 12; v = lo + step * ++i) {
    const yy = y(v).toFixed(1);
    out.push(`<line class="grid-line${Math.abs(v) < step / 1e6 ? " zero" : ""}" x1="${L}" x2="${W - R}" y1="${yy}" y2="${yy}"/>`);
    out.push(`<text class="axis y" x="${L - 4}" y="${(+yy + 3).toFixed(1)}" text-anchor="end">${esc(o.fmtY(Math.abs(v) < step / 1e6 ? 0 : v))}</text>`);
  }
  for (const m of xTicks(o.times, from, to)) {
    const xx = x(m);
    const anchor = xx < L + 12 ? "start" : xx > W - R - 12 ? "end" : "middle";
    out.push(`<line class="tick" x1="${xx.toFixed(1)}" x2="${xx.toFixed(1)}" y1="${H - B}" y2="${H - B + 3}"/>`);
    out.push(`<text class="axis x" x="${xx.toFixed(1)}" y="${H - 4}" text-anchor="${anchor}">${esc(o.times[m])}</text>`);
  }
  for (const t of o.thresholds || []) {
    const yy = y(t.value).toFixed(1);
    out.push(`<line class="threshold" x1="${L}" x2="${W - R}" y1="${yy}" y2="${yy}"><title>${esc(t.title || "")}</title></line>`);
    // The bound's value at the right end, above its line: "14.4".
    if (t.label) out.push(`<text class="thlabel" x="${W - R - 1}" y="${(+yy - 2).toFixed(1)}" text-anchor="end">${esc(t.label)}</text>`);
  }
  // Marks: a line at each minute, its label at the top; labels that would
  // overlap the previous one go on a second row, or are left to the cursor.
  const rows = [-Infinity, -Infinity];
  for (const k of o.marks || []) {
    if (k.minute < from || k.minute > to) continue;
    const xx = x(k.minute);
    out.push(`<line class="mark ${k.cls}" x1="${xx.toFixed(1)}" x2="${xx.toFixed(1)}" y1="${T}" y2="${H - B}"><title>${esc(k.title)}</title></line>`);
    const w = 5.2 * [...k.label].length + 4;
    const row = rows.findIndex(end => xx - 2 > end);
    if (row < 0 || xx + w > W) continue;
    rows[row] = xx + w;
    out.push(`<text class="marklabel ${k.cls}" x="${(xx + 2).toFixed(1)}" y="${row ? 17 : 8}">${esc(k.label)}</text>`);
  }
  if (o.now != null && o.now > from) {
    const xx = x(Math.min(o.now - 1, to)).toFixed(1);
    out.push(`<line class="now" x1="${xx}" x2="${xx}" y1="${T}" y2="${H - B}"/>`);
  }
  for (const b of o.bands || []) {
    if (b.to < from || b.from > to) continue;
    const x0 = x(Math.max(b.from, from)), x1 = Math.max(x(Math.min(b.to, to)), x0 + 1.5), yy = H + 1 + 5 * b.lane;
    out.push(`<rect class="band ${b.cls}" data-name="${esc(b.name)}" data-from="${b.from}" data-to="${b.to}" x="${x0.toFixed(1)}" y="${yy.toFixed(1)}" width="${(x1 - x0).toFixed(1)}" height="4"><title>${esc(b.title)}</title></rect>`);
  }
  const cols = Math.round(W - L - R);
  for (const s of o.series) {
    const pts = points(s.values, from, to, x, y, cols);
    out.push(`<polyline class="${s.ref ? "ref" : s.whatif ? "whatif" : ""}" data-name="${esc(s.name || "")}" stroke="${s.color}" points="${pts}"/>`);
    // A line of one point draws nothing: the opening minute is a dot.
    if (pts && !pts.includes(" ")) { const [px, py] = pts.split(","); out.push(`<circle class="dot" cx="${px}" cy="${py}" r="2" fill="${s.color}"/>`); }
  }
  out.push(`<line class="cursor" x1="0" x2="0" y1="${T}" y2="${H - B}" visibility="hidden"/>`);
  out.push("</svg>");
  return out.join("");
}

// minuteAt is the minute under a pointer at clientX over the chart's svg.
export function minuteAt(svg, clientX) {
  const box = svg.getBoundingClientRect();
  const from = +svg.dataset.from, to = +svg.dataset.to;
  const px = ((clientX - box.left) / box.width) * W;
  return Math.round(from + ((px - L) / (W - L - R)) * Math.max(1, to - from));
}

// showCursor draws the cursor at minute m, or hides it when m is null.
export function showCursor(svg, m) {
  const c = svg.querySelector(".cursor");
  if (!c) return;
  if (m == null) { c.setAttribute("visibility", "hidden"); return; }
  const from = +svg.dataset.from, to = +svg.dataset.to;
  const xx = (L + ((m - from) / Math.max(1, to - from)) * (W - L - R)).toFixed(1);
  c.setAttribute("x1", xx); c.setAttribute("x2", xx); c.setAttribute("visibility", "visible");
}

// points keeps, when there are more minutes than pixels, the largest value
// of each pixel column, so that a spike never disappears.
function points(values, from, to, x, y, cols) {
  const pts = [];
  const end = Math.min(values.length, to + 1);
  const stride = Math.max(1, Math.floor((end - from) / cols));
  for (let i = Math.max(0, from); i < end; i += stride) {
    let best = null, at = i;
    for (let j = i; j < Math.min(end, i + stride); j++) {
      if (values[j] != null && (best === null || values[j] > best)) { best = values[j]; at = j; }
    }
    if (best !== null) pts.push(x(at).toFixed(1) + "," + y(best).toFixed(1));
  }
  return pts.join(" ");
}
