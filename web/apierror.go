package web

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
)

// An error a person may read is written in the language of the request:
// it carries a catalogue key (ui.api.*) and the values of the key's
// placeholders, and fail writes the key's text in the language the
// request's Accept-Language asks for (the page sends its own), numbers in
// that language's digits. A client that asks for no language (the command
// line, curl, a script) reads the English, the catalogue's own. The answer
// carries the key and the values beside the text, for a client of its own:
//
//	{"error": "la garde est terminée : commencez-en une nouvelle", "key": "ui.api.over_step"}
//
// A message the catalogue has no words for (what a scenario's Lua or a
// policy's compiler wrote, with its file:line:col) is sent as written,
// inside a keyed sentence where the console adds words of its own.

// apiError is an error of the given status whose text is the catalogue's
// key, args being pairs of placeholder name and value: a string is written
// as it is, an int or a float64 as a number in the reader's digits, an
// *httpError (a word of the catalogue, or an error a sentence wraps) in the
// reader's words, unisolated, as part of the sentence.
func apiError(status int, key string, args ...any) *httpError {
	vals := make(map[string]any, len(args)/2)
	var sub map[string]*httpError
	en := make([]any, 0, len(args))
	for i := 0; i+1 < len(args); i += 2 {
		name, _ := args[i].(string)
		v := args[i+1]
		if he, ok := v.(*httpError); ok {
			if sub == nil {
				sub = map[string]*httpError{}
			}
			sub[name] = he
			vals[name] = he.msg
			en = append(en, name, he.msg)
			continue
		}
		switch n := v.(type) {
		case int:
			v = float64(n)
		case int64:
			v = float64(n)
		case uint32:
			v = float64(n)
		}
		vals[name] = v
		en = append(en, name, argText(i18n.Default, v))
	}
	return &httpError{status: status, msg: i18n.T(i18n.Default, key, en...), key: key, args: vals, sub: sub}
}

// word is a word or phrase of the catalogue, for a placeholder of a
// sentence: apiError writes it in the reader's language.
func word(key string, args ...any) *httpError { return apiError(0, key, args...) }

// wrapped is err inside the sentence key ("the reference policy: {detail}"),
// keeping err's status (400 for an error without one): err's own text is
// written in the reader's language when it has a key, as written otherwise.
// More placeholders of key follow as pairs of name and value.
func wrapped(key string, err error, args ...any) *httpError {
	var he *httpError
	if !errors.As(err, &he) {
		return apiError(http.StatusBadRequest, key, append([]any{"detail", err.Error()}, args...)...)
	}
	return apiError(he.status, key, append([]any{"detail", he}, args...)...)
}

// argText writes a placeholder's value in lang: a number with the decimals
// it has (at most four), anything else as it is.
func argText(lang string, v any) string {
	f, ok := v.(float64)
	if !ok {
		s, _ := v.(string)
		return s
	}
	d := 0
	if s := strconv.FormatFloat(math.Abs(f), 'f', -1, 64); strings.Contains(s, ".") {
		d = min(len(s)-strings.IndexByte(s, '.')-1, 4)
	}
	return i18n.Number(lang, f, d)
}

// at says where in the request an error is, keeping its status and key:
// the place is written before the text in every language.
func at(where string, err error) error {
	var he *httpError
	if !errors.As(err, &he) {
		return badRequest("%s%v", where, err)
	}
	out := *he
	out.at, out.msg = where+he.at, where+he.msg
	if out.key == "" {
		out.at = ""
	}
	return &out
}

func quoted(s string, n int) string { return strconv.Quote(clip(s, n)) }

// hinted picks the key of a message with a suggestion ("…; did you mean
// fr?") when there is one.
func hinted(suggestion, plain, withHint string) string {
	if suggestion != "" {
		return withHint
	}
	return plain
}

// inLang writes an error's text in lang: its key's text with its values
// written in lang (isolated in right-to-left text), after the place in the
// request it names; an error without a key as it was written.
func inLang(lang string, e *httpError) string {
	if e.key == "" || lang == i18n.Default {
		return e.msg
	}
	pairs := make([]any, 0, 2*len(e.args))
	for name, v := range e.args {
		if he, ok := e.sub[name]; ok {
			pairs = append(pairs, name, inLang(lang, he))
			continue
		}
		if t := argText(lang, v); t != "" {
			v = i18n.Isolate(lang, t)
		}
		pairs = append(pairs, name, v)
	}
	at := e.at
	if at != "" {
		at = i18n.Isolate(lang, at)
	}
	return at + i18n.T(lang, e.key, pairs...)
}

// speaks records the language a request asks for in its ResponseWriter,
// for fail to write errors in: the page names its own in Accept-Language.
func speaks(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		h(&langWriter{w, requestLang(r)}, r)
	}
}

// requestLang is the language a request asks for in Accept-Language,
// English when it names none.
func requestLang(r *http.Request) string {
	if al := r.Header.Get("Accept-Language"); al != "" {
		return i18n.Match(al)
	}
	return i18n.Default
}

// failFor answers err in the language r asks for, where no handler of
// speaks has said it yet: the checks in front of the routes.
func failFor(w http.ResponseWriter, r *http.Request, err error) {
	fail(&langWriter{w, requestLang(r)}, err)
}

// langWriter is a ResponseWriter that knows the language of its request.
type langWriter struct {
	http.ResponseWriter
	lang string
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *langWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// langOf is the language a response is written in: English unless the
// request asked for another.
func langOf(w http.ResponseWriter) string {
	if lw, ok := w.(*langWriter); ok {
		return lw.lang
	}
	return i18n.Default
}

// rangeError refuses a value of a control outside its range, in the words
// of the engine's ControlSpec.Range, with the reader's digits.
func rangeError(s engine.ControlSpec, v float64) error {
	switch s.Kind {
	case engine.KindBool:
		return apiError(http.StatusBadRequest, "ui.api.range_bool", "control", s.Name, "value", v)
	case engine.KindInt:
		return apiError(http.StatusBadRequest, "ui.api.range_int", "control", s.Name, "value", v, "min", s.Min, "max", s.Max)
	}
	if s.Unit == "s" { // seconds, which a language may write in its own words
		return apiError(http.StatusBadRequest, "ui.api.range_s", "control", s.Name, "value", v, "min", s.Min, "max", s.Max)
	}
	unit := ""
	if s.Unit != "" && s.Unit != "share" {
		unit = " " + s.Unit
	}
	return apiError(http.StatusBadRequest, "ui.api.range", "control", s.Name, "value", v, "min", s.Min, "max", s.Max, "unit", unit)
}
