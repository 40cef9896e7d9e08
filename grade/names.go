package grade

import (
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxNameBytes bounds a student's name: it names a report's file or
// folder, which a file system holds to 255 bytes.
const maxNameBytes = 100

// StudentNames names the students of a class's files: each file's name
// without its folder and .rules, made safe to name the student's report
// under --out and to show. A letter, a digit, a mark, a space and -_.+@,()
// stay; any other character (a path separator, a control or bidi
// character, a colon) becomes _; a dot that starts the name becomes _ too,
// so that no name is . or .. or hides its report; a name that ends with a
// dot or a space ends with _ instead; an empty name is _; a long one is
// cut to 100 bytes. Two files whose names end alike, or alike but for
// case (a file system may not tell Ada from ada), are told apart by -2,
// -3, ... in the order of files.
func StudentNames(files []string) []string {
	names := make([]string, len(files))
	taken := make(map[string]bool, len(files))
	for i, f := range files {
		base := safeName(strings.TrimSuffix(filepath.Base(f), ".rules"))
		name := base
		for n := 2; taken[strings.ToLower(name)]; n++ {
			name = base + "-" + strconv.Itoa(n)
		}
		taken[strings.ToLower(name)] = true
		names[i] = name
	}
	return names
}

// safeName is a file's name as StudentNames makes it safe.
func safeName(s string) string {
	var b strings.Builder
	leading := true
	for _, r := range s {
		switch {
		case r == '.' && leading:
			r = '_'
		case r == utf8.RuneError, !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || strings.ContainsRune(" -_.+@,()", r)):
			r = '_'
		}
		leading = false
		if b.Len()+utf8.RuneLen(r) > maxNameBytes {
			break
		}
		b.WriteRune(r)
	}
	out := b.String()
	if out == "" {
		return "_"
	}
	if last := out[len(out)-1]; last == '.' || last == ' ' {
		out = out[:len(out)-1] + "_"
	}
	return out
}
