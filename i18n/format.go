package i18n

import (
	_ "embed"
	"math"
	"strconv"
	"strings"
)

// Format is how a language writes numbers. The web page receives it as JSON
// ("format" in Payload) and formats with the same algorithm
// (format.js), so that the page and the command line print the same digits.
//
// Patterns hold the formatted number as {n}. Spaces in patterns are ordinary
// spaces, as the seeds write them ("4,00 $/h", "77 %").
type Format struct {
	Decimal string `json:"decimal"` // decimal separator
	Group   string `json:"group"`   // thousands separator
	// MinGroupDigits is the number of digits an integer part needs before it
	// is grouped at all: 4 in English ("1,125"), 5 in the seed languages,
	// which write "1125 req/s" but "20.000".
	MinGroupDigits int    `json:"min_group_digits"`
	Minus          string `json:"minus"`          // sign of a negative number, before any pattern
	Percent        string `json:"percent"`        // a share: "{n} %"
	Money          string `json:"money"`          // dollars: "${n}" or "{n} $"
	MoneyPerHour   string `json:"money_per_hour"` // dollars an hour: "${n}/h" or "{n} $/h"
	Burn           string `json:"burn"`           // a burn rate: "{n} ×"
	Minutes        string `json:"minutes"`        // a duration in minutes: "{n} min"
}

// narrowNBSP groups digits in French and Spanish: a space that never breaks
// a number across lines.
const narrowNBSP = "\u202f"

// FormatOf returns the number format of lang, or English's for an unknown
// language.
//
// The conventions come from the dashboard rows of the seeds: Bosnian,
// Indonesian and French write "0,0 ×" and "4,00 $/h"; Spanish and Urdu
// "0.0 ×" and "4.00 $/h" (Spanish follows the point the RAE's Ortografía of
// 2010 recommends, Urdu its usual Latin digits); all five write "77 %" and
// "1125 req/s", with the money sign after the amount. English follows
// docs/model.md: "$4.00", "77 %", "1,125 req/s".
func FormatOf(lang string) Format {
	base := Format{
		Decimal: ",", Group: ".", MinGroupDigits: 5, Minus: "−",
		Percent: "{n} %", Money: "{n} $", MoneyPerHour: "{n} $/h", Burn: "{n} ×", Minutes: "{n} min",
	}
	switch lang {
	case "bs":
	case "id":
		base.Minutes = "{n} mnt"
	case "es":
		base.Decimal, base.Group = ".", narrowNBSP
	case "ur":
		base.Decimal, base.Group = ".", ","
		base.Minutes = "{n} منٹ"
	case "fr":
		base.Group = narrowNBSP
	default:
		base.Decimal, base.Group, base.MinGroupDigits = ".", ",", 4
		base.Money, base.MoneyPerHour = "${n}", "${n}/h"
	}
	return base
}

// powers10 are the scales Number rounds at; exact in float64 and in
// JavaScript alike, unlike a computed power.
var powers10 = [...]float64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9}

// MaxDecimals is the most decimals Number writes; more are cut to it.
const MaxDecimals = len(powers10) - 1

// Number writes v with the given decimals in lang's format: "1,125.50" in
// English, "1125,50" in Bosnian, "20.000" in Indonesian.
//
// Rounding, which format.js repeats step for step: n = round(|v|·10^d) with
// halves rounded up (float64 arithmetic, as in JavaScript's Math.round of a
// positive number), then the integer n is split into digits. A value that
// rounds to zero has no sign. NaN and infinities are written "—", "∞", "−∞".
func Number(lang string, v float64, decimals int) string {
	return FormatOf(canonical(lang)).Number(v, decimals)
}

// Number writes v with the given decimals in the format f.
func (f Format) Number(v float64, decimals int) string {
	sign, digits := f.split(v, decimals)
	return sign + digits
}

// split returns the sign and the unsigned digits of v, separately, so that
// patterns such as "${n}" can put the sign before the dollar.
func (f Format) split(v float64, decimals int) (string, string) {
	switch {
	case math.IsNaN(v):
		return "", "—"
	case math.IsInf(v, 1):
		return "", "∞"
	case math.IsInf(v, -1):
		return f.Minus, "∞"
	}
	decimals = min(max(decimals, 0), MaxDecimals)
	n := math.Round(math.Abs(v) * powers10[decimals])
	sign := ""
	if v < 0 && n > 0 {
		sign = f.Minus
	}
	// The shortest decimal form of an integral float64 is its digits (up to
	// 1e21, where JavaScript's String switches to exponents; nothing here
	// comes near).
	digits := strconv.FormatFloat(n, 'f', -1, 64)
	if len(digits) <= decimals {
		digits = strings.Repeat("0", decimals-len(digits)+1) + digits
	}
	cut := len(digits) - decimals
	out := f.group(digits[:cut])
	if decimals > 0 {
		out += f.Decimal + digits[cut:]
	}
	return sign, out
}

// group inserts the group separator every three digits from the right, when
// the integer part has at least MinGroupDigits digits.
func (f Format) group(digits string) string {
	if len(digits) < f.MinGroupDigits || f.Group == "" {
		return digits
	}
	var b strings.Builder
	head := len(digits) % 3
	if head == 0 {
		head = 3
	}
	b.WriteString(digits[:head])
	for i := head; i < len(digits); i += 3 {
		b.WriteString(f.Group)
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// apply puts a formatted number into a pattern, the sign before it all.
func (f Format) apply(pattern string, v float64, decimals int) string {
	sign, digits := f.split(v, decimals)
	return sign + strings.Replace(pattern, "{n}", digits, 1)
}

// Percent writes a share (0.77) as a percentage ("77 %") with the given
// decimals.
func Percent(lang string, share float64, decimals int) string {
	f := FormatOf(canonical(lang))
	return f.apply(f.Percent, share*100, decimals)
}

// Money writes dollars with cents: "$0.40", "0,40 $".
func Money(lang string, v float64) string {
	f := FormatOf(canonical(lang))
	return f.apply(f.Money, v, 2)
}

// MoneyPerHour writes dollars an hour with cents: "$4.00/h", "4,00 $/h".
func MoneyPerHour(lang string, v float64) string {
	f := FormatOf(canonical(lang))
	return f.apply(f.MoneyPerHour, v, 2)
}

// Burn writes a burn rate with one decimal: "0.0 ×", "14,4 ×".
func Burn(lang string, v float64) string {
	f := FormatOf(canonical(lang))
	return f.apply(f.Burn, v, 1)
}

// Minutes writes a whole number of minutes: "5 min", "5 mnt", "5 منٹ".
func Minutes(lang string, n int) string {
	f := FormatOf(canonical(lang))
	return f.apply(f.Minutes, float64(n), 0)
}

// formatJS is format.js, the same formats in JavaScript for the web page.
//
//go:embed format.js
var formatJS []byte

// FormatJS returns format.js, an ES module that formats numbers and fills
// placeholders exactly as this package does, for the web console to serve.
func FormatJS() []byte { return append([]byte(nil), formatJS...) }
