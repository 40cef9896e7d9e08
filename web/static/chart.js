// Small SVG line charts, drawn from arrays of numbers. No library: a chart
// is a few polylines, two axes of labels, thresholds and event marks.

const W = 320, H = 132, L = 40, R = 8, T = 8, B = 18;

export function esc(s) {
  return String(s).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// lineChart returns the SVG text of one chart.
// o: {series: [{values, color, ref}], duration, min, max, thresholds: [{value}],
//     marks: [{minute, cls, title}], now, fmtY(v), fmtX(minute), label}
export function lineChart(o) {
  const n = Math.max(2, o.duration);
  let lo = o.min ?? 0, hi = o.max;
  if (hi === undefined) {
    hi = lo;
    for (const s of o.series) for (const v of s.values) if (v != null && v > hi) hi = v;
    for (const t of o.thresholds || []) if (t.value > hi) hi = t.value;
    hi = lo + nice((hi - lo) * 1.05);
  }
  const x = m => L + (m / (n - 1)) * (W - L - R);
  const y = v => T + (1 - (Math.min(Math.max(v, lo), hi) - lo) / (hi - lo)) * (H - T - B);
  const out = [`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(o.label)}" xmlns="http://www.w3.org/2000/svg">`];
  for (const f of [0, 0.5, 1]) {
    const v = lo + (hi - lo) * f, yy = y(v).toFixed(1);
    out.push(`<line class="grid-line" x1="${L}" x2="${W - R}" y1="${yy}" y2="${yy}"/>`);
    out.push(`<text class="axis" x="${L - 4}" y="${(+yy + 3).toFixed(1)}" text-anchor="end">${esc(o.fmtY(v))}</text>`);
  }
  for (const f of [0, 0.5, 1]) {
    const m = Math.round((n - 1) * f);
    out.push(`<text class="axis" x="${x(m).toFixed(1)}" y="${H - 4}" text-anchor="${f === 0 ? "start" : f === 1 ? "end" : "middle"}">${esc(o.fmtX(m))}</text>`);
  }
  for (const t of o.thresholds || []) {
    const yy = y(t.value).toFixed(1);
    out.push(`<line class="threshold" x1="${L}" x2="${W - R}" y1="${yy}" y2="${yy}"><title>${esc(t.title || "")}</title></line>`);
  }
  for (const k of o.marks || []) {
    const xx = x(k.minute).toFixed(1);
    out.push(`<line class="mark ${k.cls}" x1="${xx}" x2="${xx}" y1="${T}" y2="${H - B}"><title>${esc(k.title)}</title></line>`);
  }
  if (o.now != null && o.now > 0) {
    const xx = x(o.now - 1).toFixed(1);
    out.push(`<line class="now" x1="${xx}" x2="${xx}" y1="${T}" y2="${H - B}"/>`);
  }
  const cols = Math.round(W - L - R);
  for (const s of o.series) {
    out.push(`<polyline class="${s.ref ? "ref" : ""}" stroke="${s.color}" points="${points(s.values, x, y, cols)}"/>`);
  }
  out.push("</svg>");
  return out.join("");
}

// nice rounds a span up to 1, 2, 2.5 or 5 times a power of ten, so that
// the axis reads in round numbers.
function nice(x) {
  if (!(x > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= x * 0.9999) return m * p;
  return 10 * p;
}

// points keeps, when there are more minutes than pixels, the largest value
// of each pixel column, so that a spike never disappears.
function points(values, x, y, cols) {
  const pts = [];
  const stride = Math.max(1, Math.floor(values.length / cols));
  for (let i = 0; i < values.length; i += stride) {
    let best = null, at = i;
    for (let j = i; j < Math.min(values.length, i + stride); j++) {
      if (values[j] != null && (best === null || values[j] > best)) { best = values[j]; at = j; }
    }
    if (best !== null) pts.push(x(at).toFixed(1) + "," + y(best).toFixed(1));
  }
  return pts.join(" ");
}
