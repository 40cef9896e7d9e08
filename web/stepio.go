package web

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/oncall-sim/oncall/engine"
)

// A playing page asks for a step every tick, 100 pages at once in a class:
// the step's request and answer are read and written without garbage. The
// body the page sends, {"minutes":1}, is read into a buffer on the stack
// and its one number read by hand; any other body goes through the JSON
// decoder, which gives the same answer for it and says what is wrong with
// it. The answer is written straight into a buffer the server reuses, the
// rows by engine.View.AppendRow.

// readStep reads a step's request, the minutes to advance, into buf.
func readStep(r *http.Request, buf *answerBuffer) (int, error) {
	if err := jsonType(r.Header.Get("Content-Type")); err != nil {
		return 0, err
	}
	body, err := readBody(r, buf.b[:0])
	if err != nil {
		return 0, err
	}
	buf.b = body[:0]
	if n, ok := stepMinutes(body); ok {
		return n, nil
	}
	var req stepRequest
	if err := decodeJSON(body, &req); err != nil {
		return 0, err
	}
	return req.Minutes, nil
}

// stepMinutes reads a body of exactly {"minutes":N}, N a JSON integer of
// at most nine digits, with JSON's white space anywhere between tokens:
// what the decoder would read as stepRequest{Minutes: N}. ok is false for
// anything else, which the decoder reads. It is a hand-written scanner of
// that one form, the body every tick of a playing page sends, read
// without garbage.
func stepMinutes(body []byte) (n int, ok bool) {
	s := scanner{b: body}
	if !s.token("{") || !s.token(`"minutes"`) || !s.token(":") {
		return 0, false
	}
	s.space()
	if n, ok = s.integer(); !ok || !s.token("}") {
		return 0, false
	}
	s.space()
	return n, s.i == len(s.b)
}

// scanner reads tokens of a small JSON body from i on.
type scanner struct {
	b []byte
	i int
}

// space skips JSON's white space.
func (s *scanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

// token skips white space and reads t, if it comes next.
func (s *scanner) token(t string) bool {
	s.space()
	if len(s.b)-s.i < len(t) || string(s.b[s.i:s.i+len(t)]) != t {
		return false
	}
	s.i += len(t)
	return true
}

// integer reads a JSON integer of at most nine digits: a sign, and no
// leading zero.
func (s *scanner) integer() (int, bool) {
	neg := s.i < len(s.b) && s.b[s.i] == '-'
	if neg {
		s.i++
	}
	start, n := s.i, 0
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		n = 10*n + int(s.b[s.i]-'0')
		s.i++
	}
	digits := s.i - start
	if digits == 0 || digits > 9 || digits > 1 && s.b[start] == '0' {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// appendStep appends a step's answer to b: what json.Marshal writes for
// stepAnswer, rows as the learner sees them (engine.Row.MarshalJSON).
func appendStep(b []byte, ans stepAnswer) ([]byte, error) {
	b = append(b, `{"minute":`...)
	b = strconv.AppendInt(b, int64(ans.Minute), 10)
	b = append(b, `,"rows":[`...)
	var err error
	for i := range ans.Rows {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendPageRow(b, &ans.Rows[i]); err != nil {
			return nil, err
		}
	}
	b = append(b, `],"texts":`...)
	if len(ans.Texts) == 0 {
		b = append(b, "[]"...)
	} else {
		texts, err := json.Marshal(ans.Texts)
		if err != nil {
			return nil, err
		}
		b = append(b, texts...)
	}
	b = append(b, `,"done":`...)
	b = strconv.AppendBool(b, ans.Done)
	if ans.Outcome != nil {
		o, err := json.Marshal(ans.Outcome)
		if err != nil {
			return nil, err
		}
		b = append(b, `,"outcome":`...)
		b = append(b, o...)
	}
	return append(b, '}'), nil
}

// answerBuffer is a buffer for a step's request and answer, which the
// server reuses.
type answerBuffer struct{ b []byte }

// maxKeptAnswer bounds the buffers the server keeps: the answer of a step
// of 60 minutes fits; a larger one (a step that fired many rules) is let
// go.
const maxKeptAnswer = 128 << 10

// answerBuffer returns a buffer for a step; keep gives it back.
func (s *Server) answerBuffer() *answerBuffer {
	if buf, ok := s.answers.Get().(*answerBuffer); ok {
		return buf
	}
	return &answerBuffer{b: make([]byte, 0, 4096)}
}

func (s *Server) keep(buf *answerBuffer) {
	if cap(buf.b) <= maxKeptAnswer {
		s.answers.Put(buf)
	}
}

// The headers of a step's answer, set without a copy (see securityHeaders).
var (
	jsonContentType = []string{"application/json; charset=utf-8"}
	noStore         = []string{"no-store"}
)

// writeStep writes a step's answer, in buf.
func writeStep(w http.ResponseWriter, ans stepAnswer, buf *answerBuffer) {
	b, err := appendStep(buf.b[:0], ans)
	if err != nil {
		fail(w, &httpError{status: http.StatusInternalServerError, msg: "writing the step: " + err.Error()})
		return
	}
	buf.b = b[:0]
	h := w.Header()
	h["Content-Type"], h["Cache-Control"] = jsonContentType, noStore
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

// writeState writes a shift's state as the page reads it: its head as
// json.Marshal writes shiftState, then each row and each row's lines of
// the timeline, written one at a time through a small buffer rather than
// built whole: a day's shift with its rules answers megabytes, which a
// request then does not hold. An error once the answer has started (a row
// that cannot be written: a bug) aborts the answer, which the page sees
// cut short, rather than sending a body that ends in the middle.
func writeState(w http.ResponseWriter, status int, st shiftState) {
	rows, done, outcome := st.Rows, st.Done, st.Outcome
	st.Rows, st.Texts, st.Done, st.Outcome = nil, nil, false, nil
	head, err := json.Marshal(st)
	if err != nil {
		fail(w, &httpError{status: http.StatusInternalServerError, msg: "writing the shift: " + err.Error()})
		return
	}
	h := w.Header()
	h["Content-Type"], h["Cache-Control"] = jsonContentType, noStore
	w.WriteHeader(status)
	bw := bufio.NewWriterSize(w, 32<<10)
	bw.Write(head[:len(head)-1]) // without its closing brace
	writeRows(bw, rows, done, outcome)
}

// writeStepRows writes a step's answer as writeStep does, byte for byte,
// but a row and a line of the timeline at a time, as writeState writes a
// shift: the answer of a step whose rules fired many times (a pasted
// policy's hour, megabytes in every language) is not held whole.
func writeStepRows(w http.ResponseWriter, ans stepAnswer) {
	h := w.Header()
	h["Content-Type"], h["Cache-Control"] = jsonContentType, noStore
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(w, 32<<10)
	bw.WriteString(`{"minute":`)
	bw.WriteString(strconv.Itoa(ans.Minute))
	writeRows(bw, ans.Rows, ans.Done, ans.Outcome)
}

// writeRows writes the rows, their lines of the timeline, done and the
// outcome, and closes the object whose head is written; a row that cannot
// be written (a bug) aborts the answer.
func writeRows(bw *bufio.Writer, rows []engine.Row, done bool, outcome *engine.Outcome) {
	var err error
	bw.WriteString(`,"rows":[`)
	var b []byte
	for i := range rows {
		if i > 0 {
			bw.WriteByte(',')
		}
		if b, err = appendPageRow(b[:0], &rows[i]); err != nil {
			panic(http.ErrAbortHandler)
		}
		bw.Write(b)
	}
	bw.WriteString(`],"texts":[`)
	first := true
	for i := range rows {
		for _, t := range timeline(rows[i : i+1]) {
			if b, err = json.Marshal(t); err != nil {
				panic(http.ErrAbortHandler)
			}
			if !first {
				bw.WriteByte(',')
			}
			first = false
			bw.Write(b)
		}
	}
	bw.WriteString(`],"done":`)
	bw.WriteString(strconv.FormatBool(done))
	if outcome != nil {
		if b, err = json.Marshal(outcome); err != nil {
			panic(http.ErrAbortHandler)
		}
		bw.WriteString(`,"outcome":`)
		bw.Write(b)
	}
	bw.WriteByte('}')
	bw.Flush()
}
