package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
)

// files holds the catalogue: <lang>.json (the model's words, the engine's
// tables), ui.<lang>.json (the web console's words, keys "ui.*") and
// team.<lang>.json (the words of team game days: the team's page, the
// facilitator's console, the postmortem; keys "ui.*" too), one flat object
// of key → text each.
//
//go:embed catalog/*.json
var files embed.FS

// bundle is the parsed catalogue, read once from the embedded files and never
// changed afterwards.
var bundle = sync.OnceValue(load)

type catalogue struct {
	messages map[string]map[string]string // lang → key → text
	payloads map[string][]byte            // lang → Payload, built once
	teams    map[string][]byte            // lang → TeamPayload, built once
	err      error                        // the first file that did not load
}

// load reads and merges every language's files. A file that is missing is
// empty (ui.<lang>.json before anyone has written it); one that does not
// parse is reported by Check and leaves its keys to the English fallback.
func load() *catalogue {
	c := &catalogue{messages: map[string]map[string]string{}}
	for _, code := range Codes() {
		m := map[string]string{}
		for _, name := range Files(code) {
			part, err := readFile(name)
			if err != nil && c.err == nil {
				c.err = err
			}
			for k, v := range part {
				if _, dup := m[k]; dup && c.err == nil {
					c.err = fmt.Errorf("i18n/catalog/%s: key %q is also in another file of %s", name, k, code)
				}
				m[k] = v
			}
		}
		c.messages[code] = m
	}
	c.payloads, c.teams = map[string][]byte{}, map[string][]byte{}
	for _, code := range Codes() {
		c.payloads[code] = c.payload(code, forThePage)
		c.teams[code] = c.payload(code, teamKey)
	}
	return c
}

// Files returns the names of a language's catalogue files, in the order
// they are merged; no key is in two of them.
func Files(code string) []string {
	return []string{code + ".json", "ui." + code + ".json", "team." + code + ".json"}
}

// readFile parses one catalogue file; a missing file is empty.
func readFile(name string) (map[string]string, error) {
	data, err := files.ReadFile("catalog/" + name)
	if err != nil {
		if _, ok := err.(*fs.PathError); ok {
			return nil, nil
		}
		return nil, err
	}
	m := map[string]string{}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("i18n/catalog/%s: %v: it must be one JSON object of key to text", name, err)
	}
	return m, nil
}

// Check reports the first catalogue file that does not load, or nil.
func Check() error { return bundle().err }

// canonical returns the code of lang, or the default for an unknown one.
func canonical(lang string) string {
	for _, l := range languages() { // the common case, a code as the catalogue spells it
		if l.Code == lang {
			return lang
		}
	}
	if l, ok := Lookup(lang); ok {
		return l.Code
	}
	return Default
}

// Catalog returns a copy of lang's messages, both files merged, with English
// filling any key the language lacks (the tests see that none does). An
// unknown language gets English.
func Catalog(lang string) map[string]string {
	c := bundle()
	out := make(map[string]string, len(c.messages[Default]))
	for k, v := range c.messages[Default] {
		out[k] = v
	}
	for k, v := range c.messages[canonical(lang)] {
		out[k] = v
	}
	return out
}

// Keys returns every key of the English catalogue, sorted.
func Keys() []string {
	m := bundle().messages[Default]
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Has reports whether key is in the English catalogue.
func Has(key string) bool {
	_, ok := bundle().messages[Default][key]
	return ok
}

// T returns the message key in lang with its placeholders filled.
//
// Placeholders are names in braces, "{n}" or "{control}"; args are pairs of
// name and value: T("fr", "event.launch.autoscaler", "n", 3). A value is
// written with fmt's %v, so format numbers first (Number, Percent, Money).
// "{{" and "}}" stand for literal braces; a placeholder without a value
// stays as it is, so that the omission shows. A key missing in lang falls
// back to English, and a key missing everywhere is returned as it is.
func T(lang, key string, args ...any) string {
	c := bundle()
	msg, ok := c.messages[canonical(lang)][key]
	if !ok {
		if msg, ok = c.messages[Default][key]; !ok {
			return key
		}
	}
	if !strings.ContainsAny(msg, "{}") {
		return msg
	}
	var b strings.Builder
	scan(msg, func(lit, name string) {
		for i := 0; name != "" && i+1 < len(args); i += 2 {
			if text(args[i]) == name {
				b.WriteString(text(args[i+1]))
				return
			}
		}
		b.WriteString(lit)
	})
	return b.String()
}

// text writes a placeholder's name or value; strings, the usual case, as
// they are.
func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// Fill replaces the placeholders of a message with values (see T). It reads
// the message left to right as format.js's fill does: "{{" and "}}" are
// literal braces, "{name}" (letters, digits, '_') a placeholder, and any
// other character itself.
func Fill(msg string, values map[string]string) string {
	var b strings.Builder
	scan(msg, func(lit string, name string) {
		if name == "" {
			b.WriteString(lit)
		} else if v, ok := values[name]; ok {
			b.WriteString(v)
		} else {
			b.WriteString(lit)
		}
	})
	return b.String()
}

// Placeholders returns the names of a message's placeholders, sorted and
// without repeats.
func Placeholders(msg string) []string {
	seen := map[string]bool{}
	scan(msg, func(_, name string) {
		if name != "" {
			seen[name] = true
		}
	})
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// scan cuts msg into literal text and placeholders, calling emit with the
// text to write as it is and, for a placeholder, its name.
func scan(msg string, emit func(lit, name string)) {
	start := 0 // of the pending literal text
	flush := func(end int) {
		if end > start {
			emit(msg[start:end], "")
		}
	}
	for i := 0; i < len(msg); {
		switch {
		case strings.HasPrefix(msg[i:], "{{"):
			flush(i)
			emit("{", "")
			i += 2
			start = i
		case strings.HasPrefix(msg[i:], "}}"):
			flush(i)
			emit("}", "")
			i += 2
			start = i
		case msg[i] == '{':
			end := strings.IndexByte(msg[i+1:], '}')
			if end >= 0 && isName(msg[i+1:i+1+end]) {
				flush(i)
				emit(msg[i:i+2+end], msg[i+1:i+1+end])
				i += end + 2
				start = i
				continue
			}
			i++
		default:
			i++
		}
	}
	flush(len(msg))
}

// isName reports whether s can name a placeholder: letters, digits and '_'.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// Payload returns the JSON the web page loads for lang:
// {"lang", "dir", "name", "format": {...}, "messages": {key: text}}, the
// messages being Catalog(lang) without the model page's texts (forThePage).
// An unknown language gets English.
func Payload(lang string) []byte {
	return append([]byte(nil), bundle().payloads[canonical(lang)]...)
}

// TeamPayload returns what the pages of team game days load besides
// Payload: the same JSON, its messages those of team game days
// (team.<lang>.json's, but for the API's errors).
func TeamPayload(lang string) []byte {
	return append([]byte(nil), bundle().teams[canonical(lang)]...)
}

// teamKey says whether key is one of the pages of team game days alone.
func teamKey(key string) bool {
	return strings.HasPrefix(key, "ui.team.") || strings.HasPrefix(key, "ui.fac.") || strings.HasPrefix(key, "ui.pm.")
}

// forThePage says whether the web page's script needs key: not the
// relations, sources, approximations and model page texts, which the
// server writes into the model page, bar the disclaimer of the footer, nor
// the API's errors (ui.api.*), which the server writes in the language the
// page asks for, nor the words of team game days, which their pages load
// (TeamPayload).
func forThePage(key string) bool {
	if strings.HasPrefix(key, "ui.api.") || teamKey(key) { // the server's errors, written by the server in the request's language
		return false
	}
	for _, p := range []string{"formula.", "relation.", "source.", "approximation.", "model."} {
		if strings.HasPrefix(key, p) {
			return key == "model.disclaimer"
		}
	}
	return true
}

// payload builds Payload(code) from the loaded messages, those keep keeps.
func (c *catalogue) payload(code string, keep func(string) bool) []byte {
	l, _ := Lookup(code)
	msgs := make(map[string]string, len(c.messages[Default]))
	for k, v := range c.messages[Default] {
		msgs[k] = v
	}
	for k, v := range c.messages[code] {
		msgs[k] = v
	}
	// The model page's own texts come written with it (/api/model): the
	// page that plays a shift has no use for them, and they are a third
	// of a language's words.
	for k := range msgs {
		if !keep(k) {
			delete(msgs, k)
		}
	}
	p := struct {
		Lang     string            `json:"lang"`
		Dir      string            `json:"dir"`
		Name     string            `json:"name"`
		Format   Format            `json:"format"`
		Messages map[string]string `json:"messages"`
	}{l.Code, l.Dir, l.Name, FormatOf(l.Code), msgs}
	b, err := json.Marshal(p)
	if err != nil { // strings only: cannot fail
		return []byte("{}")
	}
	return b
}
