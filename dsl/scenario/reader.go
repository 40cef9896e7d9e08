package scenario

import (
	"errors"
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/scenario/source"
	"github.com/oncall-sim/oncall/internal/spell"
)

// tableSpec declares a table the scenario API reads into a D: its named
// fields, each with what it takes and where its value goes, and what to do
// with the names it does not declare and with list items. A spec is
// declared once and read by every call; reading checks every field and
// reports each wrong one where the script wrote it, so that a file shows
// all its mistakes at once.
type tableSpec[D any] struct {
	fields []field[D]
	// other reads a name that no field declares; nil makes it an unknown field.
	other func(d *D, key string, v lua.LValue, in *reading)
	// item reads list item i (from 1); nil makes a list item an error, which
	// notList says.
	item    func(d *D, i int, v lua.LValue, in *reading)
	notList string
	// of says whose the fields are in a message on an unknown one,
	// e.g. " in a criterion"; "" for the table's own.
	of string
}

// field is one named field of a table. read checks the value and stores it
// in d; its error says what is wrong, as it follows the field's name in the
// message ("= 2 is out of range: it takes 0 to 1"), at the field's value, or
// elsewhere as a problem says. A field with a missing text is required.
type field[D any] struct {
	name    string
	read    func(d *D, v lua.LValue, in *reading) error
	missing string
}

// to declares a field whose value val reads, and set stores.
func to[D, T any](name string, val func(lua.LValue) (T, error), set func(*D, T)) field[D] {
	return field[D]{name: name, read: func(d *D, v lua.LValue, _ *reading) error {
		x, err := val(v)
		if err == nil {
			set(d, x)
		}
		return err
	}}
}

// required makes a field required: missing says what to write.
func (f field[D]) required(missing string) field[D] {
	f.missing = missing
	return f
}

// nested declares a field whose value is a table that spec reads into the
// part of D that part gives; notTable says what the field takes when it is
// not a table.
func nested[D, E any](name string, spec *tableSpec[E], part func(*D) *E, notTable string) field[D] {
	return field[D]{name: name, read: func(d *D, v lua.LValue, in *reading) error {
		t, ok := v.(*lua.LTable)
		if !ok {
			return fmt.Errorf("%s, not %s", notTable, luaText(v))
		}
		spec.read(part(d), t, in.in(name))
		return nil
	}}
}

// names lists the declared fields.
func (s *tableSpec[D]) names() []string {
	names := make([]string, len(s.fields))
	for i, f := range s.fields {
		names[i] = f.name
	}
	return names
}

// read reads t into d, reporting every problem to in.
func (s *tableSpec[D]) read(d *D, t *lua.LTable, in *reading) {
	for _, kv := range entries(t) {
		if kv.key == "" {
			s.readItem(d, kv, in)
			continue
		}
		f := s.lookup(kv.key)
		switch {
		case f != nil:
			if err := f.read(d, kv.value, in); err != nil {
				in.fieldProblem(kv.key, err)
			}
		case s.other != nil:
			s.other(d, kv.key, kv.value, in)
		default:
			names := s.names()
			in.add(in.place().Key(kv.key), "unknown field %s%s%s (fields: %s)", kv.key, s.of, spell.Suggest(kv.key, names), strings.Join(names, ", "))
			if m := meant(kv.key, names); m != "" {
				in.assuming(m)
			}
		}
	}
	for _, f := range s.fields {
		if f.missing != "" && t.RawGetString(f.name) == lua.LNil {
			in.add(in.place().Near(), "%s", f.missing)
		}
	}
}

func (s *tableSpec[D]) readItem(d *D, kv entry, in *reading) {
	if s.item != nil {
		s.item(d, kv.index, kv.value, in)
		return
	}
	in.add(in.place().Item(kv.index), "%s", s.notList)
}

func (s *tableSpec[D]) lookup(name string) *field[D] {
	for i := range s.fields {
		if s.fields[i].name == name {
			return &s.fields[i]
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

// whole is an error whose message stands alone, at the field's value.
func whole(err error) error { return &problem{whole: true, err: err} }

// atInnerKey is an error that points at the name of a field of the value's
// own table; atInnerValue at its value.
func atInnerKey(key string, err error) error   { return &problem{inner: key, atKey: true, err: err} }
func atInnerValue(key string, err error) error { return &problem{inner: key, err: err} }

// reading is one table being read: where its problems go, and where the
// script wrote it. The place is looked up only when a problem needs it, so
// that a run that has none pays only for the checks.
type reading struct {
	what  string    // the context of its diagnostics, e.g. "scenario{}"
	diags *dsl.List // shared with the readings of nested tables
	r     *run

	// The table was passed to the function call on line (0: the line of the
	// calling Lua code), or is the field key (or the list item) of parent.
	call   string
	line   int
	parent *reading
	key    string
	item   int

	found bool
	at    source.Place

	// On the reading of a whole table only: what a dry run plays with in
	// place of a faulty field, by its path (nil: nothing to say), and
	// where the notes go, by the problem they follow (assume.go).
	assume func(path []string) string
	notes  map[string]string
}

// newReading reads the table passed to the function name called on line
// (0: the line of the calling Lua code, found when needed).
func (r *run) newReading(what, name string, line int, diags *dsl.List) *reading {
	return &reading{what: what, diags: diags, r: r, call: name, line: line}
}

// place returns where the table stands.
func (in *reading) place() source.Place {
	if in.found {
		return in.at
	}
	switch {
	case in.parent != nil && in.key != "":
		in.at = in.parent.place().In(in.key)
	case in.parent != nil:
		in.at = in.parent.place().InItem(in.item)
	default:
		if in.line == 0 {
			in.line = in.r.callerLine()
		}
		in.at = in.r.p.argPlace(dsl.Pos{File: in.r.p.file, Line: in.line}, in.call)
	}
	in.found = true
	return in.at
}

// in returns the reading of the table a named field holds.
func (in *reading) in(name string) *reading {
	return &reading{what: in.what, diags: in.diags, r: in.r, parent: in, key: name}
}

// inItem returns the reading of the table the list item i holds.
func (in *reading) inItem(i int) *reading {
	return &reading{what: in.what, diags: in.diags, r: in.r, parent: in, item: i}
}

// add reports a problem at pos.
func (in *reading) add(pos dsl.Pos, format string, args ...any) {
	*in.diags = append(*in.diags, in.r.p.diagAt(pos, in.what, fmt.Sprintf(format, args...)))
}

// fieldProblem reports what the reader of field key found wrong.
func (in *reading) fieldProblem(key string, err error) {
	pl := in.place()
	in.problem(pl.In(key), pl.Value(key), key, err)
	in.assuming(key)
}

// assuming notes, for the problem just reported of field key of this
// table (or the field a misspelt name stands for), what a dry run plays
// with in its place, when the reading of the whole table asks.
func (in *reading) assuming(key string) {
	path := []string{key}
	root := in
	for ; root.parent != nil; root = root.parent {
		if root.key == "" {
			return // an item of a list
		}
		path = append([]string{root.key}, path...)
	}
	if root.assume == nil || len(*in.diags) == 0 {
		return
	}
	if note := root.assume(path); note != "" {
		root.notes[(*in.diags)[len(*in.diags)-1].Error()] = note
	}
}

// argProblem reports what a reader found wrong in the value passed itself,
// which label names in the message.
func (in *reading) argProblem(label string, err error) {
	pl := in.place()
	in.problem(pl, pl.Start(), label, err)
}

// problem reports err at pos, or in the table inner where err points there;
// its message follows label unless it stands alone.
func (in *reading) problem(inner source.Place, pos dsl.Pos, label string, err error) {
	p := &problem{err: err}
	errors.As(err, &p)
	switch {
	case p.inner != "" && p.atKey:
		pos = inner.Key(p.inner)
	case p.inner != "":
		pos = inner.Value(p.inner)
	}
	if p.whole {
		in.add(pos, "%s", p.err)
		return
	}
	in.add(pos, "%s %s", label, p.err)
}
