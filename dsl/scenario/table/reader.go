package table

import (
	"errors"
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/sandbox"
	"github.com/oncall-sim/oncall/dsl/scenario/source"
	"github.com/oncall-sim/oncall/internal/spell"
)

// Spec declares a table the scenario API reads into a D: its named
// fields, each with what it takes and where its value goes, and what to do
// with the names it does not declare and with list items. A spec is
// declared once and read by every call; reading checks every field and
// reports each wrong one where the script wrote it, so that a file shows
// all its mistakes at once.
type Spec[D any] struct {
	Fields []Field[D]
	// Other reads a name that no field declares; nil makes it an unknown field.
	Other func(d *D, key string, v lua.LValue, in *Reading)
	// Item reads list item i (from 1); nil makes a list item an error, which
	// NotList says.
	Item    func(d *D, i int, v lua.LValue, in *Reading)
	NotList string
	// Of says whose the fields are in a message on an unknown one,
	// e.g. " in a criterion"; "" for the table's own.
	Of string
}

// Field is one named field of a table. Read checks the value and stores it
// in d; its error says what is wrong, as it follows the field's name in the
// message ("= 2 is out of range: it takes 0 to 1"), at the field's value, or
// elsewhere as a problem says. A field with a missing text is required.
type Field[D any] struct {
	Name    string
	Read    func(d *D, v lua.LValue, in *Reading) error
	missing string
}

// To declares a field whose value val reads, and set stores.
func To[D, T any](name string, val func(lua.LValue) (T, error), set func(*D, T)) Field[D] {
	return Field[D]{Name: name, Read: func(d *D, v lua.LValue, _ *Reading) error {
		x, err := val(v)
		if err == nil {
			set(d, x)
		}
		return err
	}}
}

// Required makes a field required: missing says what to write.
func (f Field[D]) Required(missing string) Field[D] {
	f.missing = missing
	return f
}

// Nested declares a field whose value is a table that spec reads into the
// part of D that part gives; notTable says what the field takes when it is
// not a table.
func Nested[D, E any](name string, spec *Spec[E], part func(*D) *E, notTable string) Field[D] {
	return Field[D]{Name: name, Read: func(d *D, v lua.LValue, in *Reading) error {
		t, ok := v.(*lua.LTable)
		if !ok {
			return fmt.Errorf("%s, not %s", notTable, sandbox.Text(v))
		}
		spec.Read(part(d), t, in.In(name))
		return nil
	}}
}

// Names lists the declared fields.
func (s *Spec[D]) Names() []string {
	names := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		names[i] = f.Name
	}
	return names
}

// Read reads t into d, reporting every problem to in.
func (s *Spec[D]) Read(d *D, t *lua.LTable, in *Reading) {
	for _, kv := range entries(t) {
		if kv.key == "" {
			s.readItem(d, kv, in)
			continue
		}
		f := s.lookup(kv.key)
		switch {
		case f != nil:
			if err := f.Read(d, kv.value, in); err != nil {
				in.FieldProblem(kv.key, err)
			}
		case s.Other != nil:
			s.Other(d, kv.key, kv.value, in)
		default:
			names := s.Names()
			in.Add(in.Place().Key(kv.key), "unknown field %s%s%s (fields: %s)", kv.key, s.Of, spell.Suggest(kv.key, names), strings.Join(names, ", "))
			if m := spell.Nearest(kv.key, names); m != "" {
				in.Assuming(m)
			}
		}
	}
	for _, f := range s.Fields {
		if f.missing != "" && t.RawGetString(f.Name) == lua.LNil {
			in.Add(in.Place().Near(), "%s", f.missing)
		}
	}
}

func (s *Spec[D]) readItem(d *D, kv entry, in *Reading) {
	if s.Item != nil {
		s.Item(d, kv.index, kv.value, in)
		return
	}
	in.Add(in.Place().Item(kv.index), "%s", s.NotList)
}

func (s *Spec[D]) lookup(name string) *Field[D] {
	for i := range s.Fields {
		if s.Fields[i].Name == name {
			return &s.Fields[i]
		}
	}
	return nil
}

// problem is an error of a field that says where it points, when not at
// the field's value, and whether its message stands alone rather than after
// the field's name.
type problem struct {
	inner string // a field of the value's own table it points at, or ""
	atKey bool   // at that field's name rather than its value (an unknown name)
	whole bool
	err   error
}

func (p *problem) Error() string { return p.err.Error() }
func (p *problem) Unwrap() error { return p.err }

// Whole is an error whose message stands alone, at the field's value.
func Whole(err error) error { return &problem{whole: true, err: err} }

// AtInnerKey is an error that points at the name of a field of the value's
// own table; AtInnerValue at its value.
func AtInnerKey(key string, err error) error   { return &problem{inner: key, atKey: true, err: err} }
func AtInnerValue(key string, err error) error { return &problem{inner: key, err: err} }

// Script is the script a reading reads the tables of: the line of the
// Lua code that called the Go function reading, where the table passed to
// a function on a line stands, and a diagnostic at a place of the file,
// with its line.
type Script interface {
	CallerLine() int
	Arg(line int, name string) source.Place
	Diag(pos dsl.Pos, context, msg string) dsl.Diagnostic
}

// Reading is one table being read: where its problems go, and where the
// script wrote it. The place is looked up only when a problem needs it, so
// that a run that has none pays only for the checks.
type Reading struct {
	what  string    // the context of its diagnostics, e.g. "scenario{}"
	diags *dsl.List // shared with the readings of nested tables
	s     Script

	// The table was passed to the function call on line (0: the line of the
	// calling Lua code), or is the field key (or the list item) of parent.
	call   string
	line   int
	parent *Reading
	key    string
	item   int

	found bool
	at    source.Place

	// On the reading of a whole table only: what a dry run plays with in
	// place of a faulty field, by its path (nil: nothing to say), and
	// where the notes go, by the problem they follow (dsl/scenario's
	// assume.go).
	Assume func(path []string) string
	Notes  map[string]string
}

// NewReading reads the table s passed to the function name called on
// line (0: the line of the calling Lua code, found when needed), its
// problems in context what added to diags.
func NewReading(s Script, what, name string, line int, diags *dsl.List) *Reading {
	return &Reading{what: what, diags: diags, s: s, call: name, line: line}
}

// Place returns where the table stands.
func (in *Reading) Place() source.Place {
	if in.found {
		return in.at
	}
	switch {
	case in.parent != nil && in.key != "":
		in.at = in.parent.Place().In(in.key)
	case in.parent != nil:
		in.at = in.parent.Place().InItem(in.item)
	default:
		if in.line == 0 {
			in.line = in.s.CallerLine()
		}
		in.at = in.s.Arg(in.line, in.call)
	}
	in.found = true
	return in.at
}

// In returns the reading of the table a named field holds.
func (in *Reading) In(name string) *Reading {
	return &Reading{what: in.what, diags: in.diags, s: in.s, parent: in, key: name}
}

// InItem returns the reading of the table the list item i holds.
func (in *Reading) InItem(i int) *Reading {
	return &Reading{what: in.what, diags: in.diags, s: in.s, parent: in, item: i}
}

// Add reports a problem at pos.
func (in *Reading) Add(pos dsl.Pos, format string, args ...any) {
	*in.diags = append(*in.diags, in.s.Diag(pos, in.what, fmt.Sprintf(format, args...)))
}

// Problems returns how many problems the list the reading adds to holds.
func (in *Reading) Problems() int { return len(*in.diags) }

// FieldProblem reports what the reader of field key found wrong.
func (in *Reading) FieldProblem(key string, err error) {
	pl := in.Place()
	in.problem(pl.In(key), pl.Value(key), key, err)
	in.Assuming(key)
}

// Assuming notes, for the problem just reported of field key of this
// table (or the field a misspelt name stands for), what a dry run plays
// with in its place, when the reading of the whole table asks.
func (in *Reading) Assuming(key string) {
	path := []string{key}
	root := in
	for ; root.parent != nil; root = root.parent {
		if root.key == "" {
			return // an item of a list
		}
		path = append([]string{root.key}, path...)
	}
	if root.Assume == nil || len(*in.diags) == 0 {
		return
	}
	if note := root.Assume(path); note != "" {
		root.Notes[(*in.diags)[len(*in.diags)-1].Error()] = note
	}
}

// ArgProblem reports what a reader found wrong in the value passed itself,
// which label names in the message.
func (in *Reading) ArgProblem(label string, err error) {
	pl := in.Place()
	in.problem(pl, pl.Start(), label, err)
}

// problem reports err at pos, or in the table inner where err points there;
// its message follows label unless it stands alone.
func (in *Reading) problem(inner source.Place, pos dsl.Pos, label string, err error) {
	p := &problem{err: err}
	errors.As(err, &p)
	switch {
	case p.inner != "" && p.atKey:
		pos = inner.Key(p.inner)
	case p.inner != "":
		pos = inner.Value(p.inner)
	}
	if p.whole {
		in.Add(pos, "%s", p.err)
		return
	}
	in.Add(pos, "%s %s", label, p.err)
}
