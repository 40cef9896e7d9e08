// Number formats of the on-call console, the same algorithm as the Go
// package i18n (format.go), digit for digit: a test runs both on the same
// values. fmt is the "format" object of /api/i18n/<lang> (i18n.Payload).
//
// Rounding: n = Math.round(|v| · 10^d), halves up, in float64 as Go does;
// the integer n is then cut into integer and fraction digits.

const powers10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

// split returns [sign, digits] of v with d decimals in the format fmt.
function split(fmt, v, d) {
  if (Number.isNaN(v)) return ["", "—"];
  if (v === Infinity) return ["", "∞"];
  if (v === -Infinity) return [fmt.minus, "∞"];
  d = Math.min(Math.max(Math.trunc(d) || 0, 0), powers10.length - 1);
  const n = Math.round(Math.abs(v) * powers10[d]);
  const sign = v < 0 && n > 0 ? fmt.minus : "";
  let digits = String(n);
  if (digits.length <= d) digits = "0".repeat(d - digits.length + 1) + digits;
  const cut = digits.length - d;
  let out = group(fmt, digits.slice(0, cut));
  if (d > 0) out += fmt.decimal + digits.slice(cut);
  return [sign, out];
}

// group inserts the group separator every three digits from the right once
// the integer part has min_group_digits digits.
function group(fmt, digits) {
  if (digits.length < fmt.min_group_digits || !fmt.group) return digits;
  let head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += fmt.group + digits.slice(i, i + 3);
  return out;
}

function apply(fmt, pattern, v, d) {
  const [sign, digits] = split(fmt, v, d);
  return sign + pattern.replace("{n}", digits);
}

// number writes v with d decimals: "1,125.50", "1125,50", "20.000".
export function number(fmt, v, d) { const [s, x] = split(fmt, v, d); return s + x; }
// percent writes a share (0.77) as "77 %".
export function percent(fmt, share, d) { return apply(fmt, fmt.percent, share * 100, d); }
// money writes dollars with cents: "$0.40", "0,40 $".
export function money(fmt, v) { return apply(fmt, fmt.money, v, 2); }
// moneyPerHour writes dollars an hour: "$4.00/h", "4,00 $/h".
export function moneyPerHour(fmt, v) { return apply(fmt, fmt.money_per_hour, v, 2); }
// burn writes a burn rate with one decimal: "0.0 ×", "0,0 ×".
export function burn(fmt, v) { return apply(fmt, fmt.burn, v, 1); }
// minutes writes a whole number of minutes: "5 min", "5 mnt".
export function minutes(fmt, n) { return apply(fmt, fmt.minutes, n, 0); }

// fill replaces the {name} placeholders of a message with values; "{{" and
// "}}" are literal braces; a placeholder without a value stays as it is.
export function fill(msg, values) {
  return msg.replace(/\{\{|\}\}|\{([A-Za-z0-9_]+)\}/g, (m, name) => {
    if (m === "{{") return "{";
    if (m === "}}") return "}";
    return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : m;
  });
}

// pluralForm returns the CLDR plural category of the whole number n in
// lang, as the Go side's PluralForm (golang.org/x/text) does: the browser's
// Intl.PluralRules carries the same CLDR rules (a test compares them).
const pluralRules = {};
export function pluralForm(lang, n) {
  pluralRules[lang] ??= new Intl.PluralRules(lang);
  return pluralRules[lang].select(Math.abs(n));
}

// pluralKey returns the key of the form of a plural message key for the
// count n among the messages msgs ("unit.days#few"), falling back to the
// "other" form as N does.
export function pluralKey(msgs, lang, key, n) {
  const k = key + "#" + pluralForm(lang, n);
  return Object.prototype.hasOwnProperty.call(msgs, k) ? k : key + "#other";
}
