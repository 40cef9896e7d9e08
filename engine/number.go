package engine

import "strconv"

// PersonNum writes a number as a person would write it: at most twelve
// significant digits, so that the rounding of a sum or a product
// (0.7200000000000001) never shows in an event, and no trailing zeros.
func PersonNum(v float64) string {
	if v == 0 {
		return "0" // and not "-0"
	}
	return strconv.FormatFloat(v, 'g', 12, 64)
}
