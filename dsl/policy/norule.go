package policy

import (
	"strings"
	"unicode"
)

// NoRule reports whether a policy file holds no rule at all: every line
// blank or a comment (# or //). Compile refuses such a file (a policy is
// a list of rules); a grader takes it for a submission of no policy.
func NoRule(src []byte) bool {
	for _, line := range strings.Split(string(src), "\n") {
		t := strings.TrimLeftFunc(line, unicode.IsSpace)
		if t != "" && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "//") {
			return false
		}
	}
	return true
}
