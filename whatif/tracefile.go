package whatif

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/internal/budget"
	"github.com/oncall-sim/oncall/shift"
)

// A JSON trace is read as it is decoded, a row and an event at a time: the
// decisions it records are counted as they are read and refused past
// shift.MaxDecisions, the bound a share link and the console hold a shift
// to, and so are rows past a week's minutes and events past
// maxTraceEvents. A trace of three hundred thousand decisions is refused
// at the first one too many, having decoded what came before it, not
// decoded whole and replayed.

// maxTraceEvents bounds the events a replayed trace may hold: the
// scenario's (at most 10,000 a run), the decisions and the engine's own.
const maxTraceEvents = 100_000

// ReadTrace reads the shift of a JSON trace (oncall run -f json, the
// console's download): its scenario, seed, noise, the decisions its rows
// hold and its outcome. What is wrong with the file is said at its line
// and column.
func ReadTrace(data []byte) (*Recording, error) {
	t, err := readTrace(data)
	var te *traceError
	switch {
	case errors.As(err, &te):
		return nil, errors.New(traceErrorText(data, err))
	case err != nil:
		return nil, fmt.Errorf("not a JSON trace (%s): write one with oncall run -f json -o trace.json, or give the console's share link", traceErrorText(data, err))
	}
	if t.scenario == nil || t.seed == nil || t.noise == nil || t.outcome == nil {
		return nil, errors.New("a trace has scenario, seed, noise, rows and outcome; this file lacks some: write one with oncall run -f json")
	}
	if t.err != "" {
		return nil, fmt.Errorf("the run of this trace stopped before its end (%s): a what-if branches a shift played to its end", t.err)
	}
	var out bytes.Buffer
	if err := json.Compact(&out, t.outcome); err != nil {
		return nil, fmt.Errorf("outcome: %v", err)
	}
	return &Recording{Scenario: *t.scenario, Seed: *t.seed, Noise: *t.noise, Decisions: t.decisions, Outcome: out.Bytes()}, nil
}

// trace is what a replay reads of a JSON trace.
type trace struct {
	scenario  *string
	seed      *uint32
	noise     *bool
	decisions []shift.Decision
	outcome   json.RawMessage
	err       string
	events    int
}

// traceError is what is wrong with a trace, at a byte offset of it.
type traceError struct {
	off int64
	msg string
}

func (e *traceError) Error() string { return e.msg }

// readTrace reads a JSON trace as the decoder reaches each part: its
// scenario, seed, noise, error and outcome, and the decisions of its rows.
func readTrace(data []byte) (*trace, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	t := &trace{}
	err := traceObject(dec, func(key string) error {
		switch key {
		case "scenario":
			return dec.Decode(&t.scenario)
		case "seed":
			return dec.Decode(&t.seed)
		case "noise":
			return dec.Decode(&t.noise)
		case "error":
			return dec.Decode(&t.err)
		case "outcome":
			return dec.Decode(&t.outcome)
		case "rows":
			return t.rows(dec)
		}
		return dec.Decode(&json.RawMessage{}) // what a replay does not read
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// traceObject reads an object, calling field for each key with the
// decoder on its value.
func traceObject(dec *json.Decoder, field func(key string) error) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return &traceError{dec.InputOffset(), "a trace is a JSON object"}
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if err := field(tok.(string)); err != nil {
			return err
		}
	}
	_, err = dec.Token()
	return err
}

// rows reads the rows a row at a time, keeping the decisions of their
// events.
func (t *trace) rows(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('[') {
		return &traceError{dec.InputOffset(), "rows: a list of the trace's minutes is expected"}
	}
	for n := 0; dec.More(); n++ {
		if n == engine.MaxMinutes {
			return &traceError{dec.InputOffset(), fmt.Sprintf("rows: more than %s, a week's minutes, the longest run", budget.Number(engine.MaxMinutes))}
		}
		minute := -1
		var events []engine.Event
		err := traceObject(dec, func(key string) error {
			switch key {
			case "minute":
				return dec.Decode(&minute)
			case "events":
				return t.rowEvents(dec, &events)
			}
			return dec.Decode(&json.RawMessage{})
		})
		if err != nil {
			return err
		}
		for _, e := range events {
			if d, ok := shift.RecordedOf(minute, e); ok {
				t.decisions = append(t.decisions, d)
			}
		}
	}
	_, err = dec.Token()
	return err
}

// rowEvents reads a row's events one at a time, refusing them past the
// bounds of a trace's decisions and events as soon as one too many is
// read.
func (t *trace) rowEvents(dec *json.Decoder, events *[]engine.Event) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return nil // "events": null
	}
	if tok != json.Delim('[') {
		return &traceError{dec.InputOffset(), "events: a list of the minute's events is expected"}
	}
	decided := len(t.decisions)
	for dec.More() {
		var e engine.Event
		if err := dec.Decode(&e); err != nil {
			return err
		}
		t.events++
		if t.events > maxTraceEvents {
			return &traceError{dec.InputOffset(), fmt.Sprintf("more than %s events: a run's trace holds fewer", budget.Number(maxTraceEvents))}
		}
		if _, ok := shift.RecordedOf(0, e); ok {
			decided++
			if decided > shift.MaxDecisions {
				return &traceError{dec.InputOffset(), fmt.Sprintf("more than %s decisions: a shift carries at most %s, as a share link does", budget.Number(shift.MaxDecisions), budget.Number(shift.MaxDecisions))}
			}
		}
		*events = append(*events, e)
	}
	_, err = dec.Token()
	return err
}

// traceErrorText writes what is wrong with a trace, at its line and
// column where it has one.
func traceErrorText(data []byte, err error) string {
	var off int64 = -1
	var te *traceError
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &te):
		off = te.off
	case errors.As(err, &syn):
		off = syn.Offset

	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the file ends in the middle of its JSON"
	}
	if off < 0 || off > int64(len(data)) {
		return err.Error()
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}
