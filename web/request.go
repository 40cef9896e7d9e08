package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// httpError is an error with the status the client gets: its English text
// and, for one the page shows in its reader's language (apiError), the
// catalogue's key and the values of its placeholders.
type httpError struct {
	status int
	msg    string
	key    string
	args   map[string]any
	sub    map[string]*httpError // the args that are sentences of their own, written in the reader's words
	at     string                // where in the request, written before the text in every language: "decisions[3]: "
}

func (e *httpError) Error() string { return e.msg }

func badRequest(format string, args ...any) error {
	return &httpError{status: http.StatusBadRequest, msg: fmt.Sprintf(format, args...)}
}

type errorBody struct {
	Error string         `json:"error"`
	Key   string         `json:"key,omitempty"`
	Args  map[string]any `json:"args,omitempty"`
	At    string         `json:"at,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal error: the answer could not be written"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b)
}

// fail answers with the error's status (400 unless it says otherwise), in
// the language the request asked for (speaks, inLang).
func fail(w http.ResponseWriter, err error) {
	var he *httpError
	if errors.As(err, &he) {
		writeJSON(w, he.status, errorBody{inLang(langOf(w), he), he.key, he.args, he.at})
		return
	}
	writeJSON(w, http.StatusBadRequest, errorBody{Error: err.Error()})
}

// readJSON decodes a request body of JSON into v, refusing another media
// type, unknown fields and trailing data. limitBody bounds the body.
//
// Requiring application/json is what keeps another site's page from
// posting here with a form or a plain fetch: a browser sends that type
// across origins only after a preflight, which the console never answers.
func readJSON(r *http.Request, v any) error {
	if err := jsonType(r.Header.Get("Content-Type")); err != nil {
		return err
	}
	body, err := readBody(r, nil)
	if err != nil {
		return err
	}
	return decodeJSON(body, v)
}

// readBody reads a request's body, appended to buf (which the step's small
// bodies fit without an allocation).
func readBody(r *http.Request, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, max(512, cap(buf))) // room to read into
		}
		n, err := r.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch {
		case err == io.EOF:
			return buf, nil
		case err != nil:
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return nil, tooLarge()
			}
			return nil, apiError(http.StatusBadRequest, "ui.api.body_read", "detail", err.Error())
		}
	}
}

// decodeJSON decodes a body of one JSON value into v, refusing unknown
// fields and trailing data.
func decodeJSON(body []byte, v any) error {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return apiError(http.StatusBadRequest, "ui.api.body_empty")
	}
	if bytes.Equal(trimmed, []byte("null")) { // which the decoder would take for an empty object
		return apiError(http.StatusBadRequest, "ui.api.body_null")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if dec.More() {
		return apiError(http.StatusBadRequest, "ui.api.body_many")
	}
	return nil
}

// jsonType accepts application/json, with parameters such as a charset,
// and answers 415 to anything else.
func jsonType(header string) error {
	if header == "application/json" { // what the page sends: no parameters to parse
		return nil
	}
	if header == "" {
		return apiError(http.StatusUnsupportedMediaType, "ui.api.no_type")
	}
	mt, _, err := mime.ParseMediaType(header)
	if err != nil || mt != "application/json" {
		return apiError(http.StatusUnsupportedMediaType, "ui.api.bad_type", "type", quoted(header, 60))
	}
	return nil
}

// jsonError rewords the decoder's errors for a person, in the catalogue's
// words: what was wrong and where, the decoder's own text only for what it
// alone knows.
func jsonError(err error) *httpError {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var val *valueError
	switch {
	case errors.As(err, &syn):
		if c, ok := badChar(syn.Error()); ok {
			return apiError(http.StatusBadRequest, "ui.api.json_char", "char", c, "offset", syn.Offset)
		}
		return apiError(http.StatusBadRequest, "ui.api.json_syntax", "detail", syn.Error(), "offset", syn.Offset)
	case errors.As(err, &typ):
		if typ.Field != "" {
			return apiError(http.StatusBadRequest, "ui.api.json_field", "field", strconv.Quote(typ.Field), "kind", word(kindKey(typ.Type.Kind())), "value", jsonValue(typ.Value))
		}
		return apiError(http.StatusBadRequest, "ui.api.json_object", "value", jsonValue(typ.Value))
	case errors.As(err, &val):
		return apiError(http.StatusBadRequest, "ui.api.json_value", "got", val.got)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return apiError(http.StatusBadRequest, "ui.api.json_eof")
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if f, ok := strings.CutPrefix(msg, "unknown field "); ok {
		return apiError(http.StatusBadRequest, "ui.api.json_unknown", "field", f)
	}
	if lit, ok := strings.CutPrefix(msg, "invalid number literal, trying to unmarshal "); ok { // a json.Number given text
		if q, err := strconv.Unquote(strings.TrimSuffix(lit, " into Number")); err == nil {
			return apiError(http.StatusBadRequest, "ui.api.json_number", "got", clip(q, 30))
		}
	}
	return apiError(http.StatusBadRequest, "ui.api.body_malformed", "detail", msg)
}

// badChar finds the character a syntax error names: "invalid character
// 'x' looking for beginning of value" names 'x'.
func badChar(msg string) (string, bool) {
	rest, ok := strings.CutPrefix(msg, "invalid character ")
	if !ok || len(rest) < 3 || rest[0] != '\'' {
		return "", false
	}
	end := strings.LastIndex(rest, "' ")
	if end <= 0 {
		return "", false
	}
	return rest[:end+1], true
}

// jsonValue names the kind of JSON value the decoder found ("string",
// "number 1.5") in the catalogue's words.
func jsonValue(v string) *httpError {
	if n, ok := strings.CutPrefix(v, "number "); ok {
		return word("ui.api.json_is.number_n", "n", n)
	}
	switch v {
	case "string":
		return word("ui.api.json_is.string")
	case "number":
		return word("ui.api.json_is.number")
	case "bool":
		return word("ui.api.json_is.bool")
	case "array":
		return word("ui.api.json_is.array")
	case "object":
		return word("ui.api.json_is.object")
	}
	return word("ui.api.json_is.other", "kind", v)
}

// kindKey is the catalogue's key for the kind of value a field takes.
func kindKey(k reflect.Kind) string {
	switch k {
	case reflect.Int, reflect.Uint32:
		return "ui.api.takes.int"
	case reflect.Float64:
		return "ui.api.takes.number"
	case reflect.String:
		return "ui.api.takes.text"
	case reflect.Bool:
		return "ui.api.takes.bool"
	case reflect.Slice:
		return "ui.api.takes.list"
	case reflect.Struct, reflect.Map, reflect.Pointer:
		return "ui.api.takes.object"
	}
	return "ui.api.takes.other"
}
