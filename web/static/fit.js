// A tile is a sixth of the dashboard wide, and a value's width depends on
// the language ("2000 ملی سیکنڈ" is twice "2,000 ms"): fit makes a line
// fit its box, as laid out, rather than cut it. It tries the texts it is
// given, longest first, then sets the last smaller (fit1, fit2: app.css),
// then lets it wrap (fit3). Each step is measured after the one before,
// so that a value that fits is never made smaller.

const STEPS = ["fit1", "fit2", "fit3"];

// over reports whether an element's text is wider than its box.
const over = el => el.scrollWidth > el.clientWidth + 0.5;

// fit writes html (a list: the texts to try, the shortest last) into el
// inside a span, which the steps size, and fits it to el's width.
export function fit(el, html) {
  const texts = Array.isArray(html) ? html : [html];
  el.classList.remove(...STEPS);
  for (const h of texts) {
    el.innerHTML = `<span>${h}</span>`;
    if (!el.getClientRects().length || !over(el)) return;
  }
  for (const s of STEPS) { el.classList.add(s); if (!over(el)) return; }
}

// fitAll fits every element of els whose text is already written: the
// steps are taken for all at once, one layout each, whatever their number.
export function fitAll(els) {
  els = [...els].filter(el => el.getClientRects().length);
  for (const el of els) el.classList.remove(...STEPS);
  let left = els.filter(over);
  for (const s of STEPS) {
    for (const el of left) el.classList.add(s);
    left = left.filter(over);
    if (!left.length) return;
  }
}
