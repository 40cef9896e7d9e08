package grade

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/oncall-sim/oncall/internal/spell"
	"github.com/oncall-sim/oncall/shift"
)

// A reference file comes from whoever hands it to an autograder, and is
// checked while it is decoded: each run as soon as it is read, each count
// as it grows, so that a refusal costs what the file's first wrong part
// costs rather than decoding the whole file first (two million empty runs
// would take seconds and gigabytes). Every refusal names the file, the
// line and column, and the field.

// Counts a reference file may hold, checked as they grow.
const (
	maxReferences = 1000           // scenarios in one file
	maxCriteria   = 1000           // criteria of one scenario
	maxRuns       = shift.MaxSeeds // runs of one reference: a seed each
	maxText       = 4096           // bytes of a text field: an id, a path, a seed set
)

// ReadReferences reads and checks a reference file; name is used in errors.
func ReadReferences(name string, data []byte) (*ReferenceFile, error) {
	d := &refReader{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	d.dec.DisallowUnknownFields()
	f, err := d.file()
	if err != nil {
		return nil, fmt.Errorf("%s: %s", name, d.explain(err))
	}
	return f, nil
}

// refReader decodes a reference file a token or a small value at a time.
type refReader struct {
	data []byte
	dec  *json.Decoder
}

// placed is an error at a byte offset of the file.
type placed struct {
	off int64
	msg string
}

func (p *placed) Error() string { return p.msg }

// at is an error at the offset where the decoder stands, past the blanks
// and the comma before the next value.
func (d *refReader) at(format string, args ...any) error {
	off := d.dec.InputOffset()
	for off < int64(len(d.data)) && strings.IndexByte(" \t\r\n,:", d.data[off]) >= 0 {
		off++
	}
	return &placed{off: off, msg: fmt.Sprintf(format, args...)}
}

// explain writes an error with its line and column.
func (d *refReader) explain(err error) string {
	var p *placed
	if errors.As(err, &p) {
		line, col := lineCol(d.data, p.off)
		return fmt.Sprintf("line %d, column %d: %s", line, col, p.msg)
	}
	return jsonError(d.data, err)
}

// decode decodes the next value into v, with a JSON error's offset made
// the file's (the decoder gives it from where the value started).
func (d *refReader) decode(v any) error {
	before := d.dec.InputOffset()
	err := d.dec.Decode(v)
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		syn.Offset += before
	case errors.As(err, &typ):
		typ.Offset += before
	}
	return err
}

// text decodes a string field of at most maxText bytes.
func (d *refReader) text(s *string, field string) error {
	if err := d.decode(s); err != nil {
		return err
	}
	if len(*s) > maxText {
		return d.at("%s is %d bytes long: a reference's texts are names, paths and seed sets, of at most %d bytes", field, len(*s), maxText)
	}
	return nil
}

// delim reads the next token, which must be the delimiter want.
func (d *refReader) delim(want json.Delim, what string) error {
	at := d.at("")
	t, err := d.dec.Token()
	if err != nil {
		return err
	}
	if t != want {
		p := at.(*placed)
		p.msg = fmt.Sprintf("%s: %s, not %s", what, kindOf(want), tokenText(t))
		return p
	}
	return nil
}

func kindOf(d json.Delim) string {
	if d == '[' {
		return "a list ([...]) is expected"
	}
	return "an object ({...}) is expected"
}

func tokenText(t json.Token) string {
	switch v := t.(type) {
	case json.Delim:
		return kindOf(v)[:strings.Index(kindOf(v), " is")]
	case string:
		return fmt.Sprintf("the text %q", clipText(v))
	case nil:
		return "null"
	}
	return fmt.Sprintf("%v", t)
}

func clipText(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// object reads an object's fields, each by its function in fields; an
// unknown or repeated field is refused, with the nearest known name.
func (d *refReader) object(what string, fields map[string]func() error) error {
	if err := d.delim('{', what); err != nil {
		return err
	}
	seen := map[string]bool{}
	for d.dec.More() {
		at := d.at("")
		t, err := d.dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		read, ok := fields[key]
		p := at.(*placed)
		switch {
		case !ok:
			names := make([]string, 0, len(fields))
			for k := range fields {
				names = append(names, k)
			}
			slices.Sort(names)
			p.msg = fmt.Sprintf("%s: unknown field %q%s (it holds %s)", what, clipText(key), spell.Suggest(key, names), strings.Join(names, ", "))
			return p
		case seen[key]:
			p.msg = fmt.Sprintf("%s.%s is given twice", what, key)
			return p
		}
		seen[key] = true
		if err := read(); err != nil {
			return err
		}
	}
	_, err := d.dec.Token() // the closing brace
	return err
}

// list reads a list, calling each for its elements in turn, and refuses
// it past most elements, as soon as the one past them starts.
func (d *refReader) list(what string, most int, each func(i int) error) error {
	if err := d.delim('[', what); err != nil {
		return err
	}
	for i := 0; d.dec.More(); i++ {
		if i == most {
			return d.at("%s: more than %d", what, most)
		}
		if err := each(i); err != nil {
			return err
		}
	}
	_, err := d.dec.Token() // the closing bracket
	return err
}

// file reads the whole file: its format and its references.
func (d *refReader) file() (*ReferenceFile, error) {
	f := &ReferenceFile{}
	scenarios := map[string]bool{}
	var starts []*placed // where each reference starts
	err := d.object("the file", map[string]func() error{
		"format": func() error {
			if err := d.text(&f.Format, "format"); err != nil {
				return err
			}
			if err := checkFormat(f.Format); err != nil {
				return d.at("%v", err)
			}
			return nil
		},
		"references": func() error {
			return d.list("references", maxReferences, func(i int) error {
				f.References = append(f.References, Reference{})
				r := &f.References[i]
				start := d.at("").(*placed)
				starts = append(starts, &placed{off: start.off})
				if err := d.reference(i, r); err != nil {
					return err
				}
				if scenarios[r.Scenario] {
					start.msg = fmt.Sprintf("references[%d] (%s): scenario %s appears twice; keep one reference per scenario", i, r.Scenario, r.Scenario)
					return start
				}
				scenarios[r.Scenario] = true
				return nil
			})
		},
	})
	if errors.Is(err, io.EOF) && d.dec.InputOffset() > 0 {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return nil, err
	}
	if _, err := d.dec.Token(); err != io.EOF {
		return nil, d.at("data after the file's object: a reference file is one object")
	}
	if err := checkFormat(f.Format); err != nil {
		return nil, err
	}
	if len(f.References) == 0 {
		return nil, errors.New("references: the file holds no reference")
	}
	// A model is read as the file's format says: a fingerprint, or the
	// number of format 2 (the format comes first in a file oncall wrote).
	for i := range f.References {
		r := &f.References[i]
		if err := checkModel(f.Format, r.Model); err != nil {
			starts[i].msg = fmt.Sprintf("references[%d] (%s).%v", i, r.Scenario, err)
			return nil, starts[i]
		}
	}
	return f, nil
}

// reference reads the reference of index i: its fields, each run checked
// as it is read, then what needs them all.
func (d *refReader) reference(i int, r *Reference) error {
	at := func() string { return fmt.Sprintf("references[%d] (%s)", i, r.Scenario) }
	seeds := map[uint32]bool{}
	start := d.at("").(*placed)
	err := d.object(fmt.Sprintf("references[%d]", i), map[string]func() error{
		"scenario":        func() error { return d.text(&r.Scenario, "scenario") },
		"source":          func() error { return d.text(&r.Source, "source") },
		"scenario_sha256": func() error { return d.text(&r.ScenarioSHA256, "scenario_sha256") },
		"policy":          func() error { return d.text(&r.Policy, "policy") },
		"policy_sha256":   func() error { return d.text(&r.PolicySHA256, "policy_sha256") },
		"model":           func() error { return d.decode(&r.Model) },
		"seeds":           func() error { return d.text(&r.Seeds, "seeds") },
		"noise":           func() error { return d.decode(&r.Noise) },
		"criteria": func() error {
			return d.list(at()+".criteria", maxCriteria, func(int) error {
				var c PinnedCriterion
				if err := d.decode(&c); err != nil {
					return err
				}
				r.Criteria = append(r.Criteria, c)
				return nil
			})
		},
		"runs": func() error {
			return d.list(at()+".runs", maxRuns, func(j int) error {
				var run ReferenceRun
				start := d.at("").(*placed)
				if err := d.decode(&run); err != nil {
					return err
				}
				if err := checkRun(at(), j, &run, seeds); err != nil {
					start.msg = err.Error()
					return start
				}
				r.Runs = append(r.Runs, run)
				return nil
			})
		},
	})
	if err != nil {
		return err
	}
	if err := checkReference(i, r); err != nil {
		start.msg = err.Error()
		return start
	}
	return nil
}

// lineCol is the line and column of a byte offset of data, from 1.
func lineCol(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	col = int(off) - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}
