package scenario

import (
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/oncall-sim/oncall/dsl"
	"github.com/oncall-sim/oncall/dsl/scenario/table"
	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/i18n"
)

// declaration is what scenario{...} and grade{...} said.
type declaration struct {
	pos      dsl.Pos // the scenario{ call
	setup    engine.Setup
	title    engine.Text
	briefing engine.Text
	pageSrc  string
	grading  []criterion
	gradePos dsl.Pos
	outcomes []Outcome              // declared by outcome{...}, in order
	injects  []Inject               // declared by inject{...}, in order
	switches []Switch               // declared by switch{...}, in order
	labels   map[string]engine.Text // scenario{ labels = ... }: the model's controls renamed
	// reference is the reference policy scenario{ reference = ... } names.
	reference Reference
	atPos     map[int]dsl.Pos // where the first at() of each minute past the end was called
	atText    map[int]string  // and what it said; both nil until one is
	diags     dsl.List
	// assumed says, by the problem it follows, what Check plays with in
	// place of a faulty value (assume.go); nil when nothing is faulty.
	assumed map[string]string
	// dropped names the outcomes outcome{} declares with a problem, which
	// a run leaves out but grade{} may name.
	dropped []string
}

// diagAt builds a diagnostic at pos with its source line.
func (p *Program) diagAt(pos dsl.Pos, context, msg string) dsl.Diagnostic {
	return dsl.Diagnostic{Pos: pos, Context: context, Message: msg, Snippet: dsl.LineOf(p.src, pos.Line)}
}

// scenarioTable declares the fields of scenario{...}.
var scenarioTable = table.Spec[declaration]{
	Fields: []table.Field[declaration]{
		table.To("id", table.ID, func(d *declaration, id string) { d.setup.ID = id }).
			Required(`id is missing: name the scenario, e.g. id = "my-drill" (lower-case letters, digits and -)`),
		table.To("title", table.Title, func(d *declaration, t engine.Text) { d.title = t }).
			Required(`title is missing: title = { en = "..." } (other languages: ` + strings.Join(i18n.Codes()[1:], ", ") + ")"),
		table.To("briefing", table.Text, func(d *declaration, t engine.Text) { d.briefing = t }).
			Required(`briefing is missing: briefing = { en = "what the player faces" }`),
		table.To("start", table.TimeOfDay, func(d *declaration, m int) { d.setup.Start = m }),
		table.To("duration", table.Duration, func(d *declaration, m int) { d.setup.Minutes = m }),
		table.To("budget_left", table.Share, func(d *declaration, x float64) { d.setup.BudgetLeft = x }),
		table.To("warm", table.Share, func(d *declaration, x float64) { d.setup.Warm = x }),
		table.To("instances", table.WholeNumber(0, 40, " (0: min_instances)"), func(d *declaration, n int) { d.setup.Instances = n }),
		table.Nested("constants", &constantsTable, func(d *declaration) *engine.Constants { return &d.setup.Constants },
			"takes a table of constants, e.g. constants = { boot_delay = 8 }"),
		table.Nested("controls", &controlsTable, func(d *declaration) *engine.Controls { return &d.setup.Controls },
			"takes a table of starting values, e.g. controls = { min_instances = 12 }"),
		table.To("page", pageValue, func(d *declaration, s string) { d.pageSrc = s }),
		referenceField,
		table.Nested("labels", &labelsTable, func(d *declaration) *map[string]engine.Text { return &d.labels },
			`takes a table of labels for the model's controls, e.g. labels = { feature = "Search suggestions" }`),
	},
	NotList: "takes named fields (id, title, briefing, start, duration, budget_left, warm, instances, constants, controls, page, reference, labels), not a list",
}

// pageValue reads the page rule's source; it compiles once the whole file
// has loaded.
func pageValue(v lua.LValue) (string, error) {
	s, ok := v.(lua.LString)
	if !ok || strings.TrimSpace(string(s)) == "" {
		return "", fmt.Errorf("takes an expression over the metrics as a string, e.g. page = \"burn_1h >= 14.4 && burn_5m >= 14.4\", not %s", luaText(v))
	}
	return string(s), nil
}

// constantsTable declares constants = { name = value }: any constant of the
// model, by name.
var constantsTable = table.Spec[engine.Constants]{
	Other: func(c *engine.Constants, key string, v lua.LValue, in *table.Reading) {
		if key == "dep_name" {
			name, err := table.DepName(v)
			if err == nil {
				err = c.SetDepName(name)
			}
			if err != nil {
				in.Add(in.Place().Value(key), "%v", err)
			}
			return
		}
		spec, err := engine.LookupConstant(key)
		if err != nil {
			in.Add(in.Place().Key(key), "%v", err)
			if m := meant(key, engine.ConstantNames()); m != "" {
				in.Assuming(m)
			}
			return
		}
		n, err := table.Number(v)
		if err == nil {
			err = c.Set(spec.Name, n)
		} else {
			err = fmt.Errorf("constant %s %v", key, err)
		}
		if err != nil {
			in.Add(in.Place().Value(key), "%v", err)
			in.Assuming(key)
		}
	},
	NotList: "constants takes named values, e.g. constants = { boot_delay = 8 }",
}

// controlsTable declares controls = { name = value }: the starting value of
// any control but the actions.
var controlsTable = table.Spec[engine.Controls]{
	Other: func(cs *engine.Controls, key string, v lua.LValue, in *table.Reading) {
		c, val, err := table.Control(key, v)
		if err == nil {
			err = cs.Set(c, val)
		}
		if err == nil {
			return
		}
		pos, name := in.Place().Value(key), key
		if _, unknown := engine.LookupControl(key); unknown != nil {
			pos, name = in.Place().Key(key), meant(key, engine.ControlNames())
		}
		in.Add(pos, "%v", err)
		if name != "" {
			in.Assuming(name)
		}
	},
	NotList: "controls takes named values, e.g. controls = { min_instances = 12 }",
}

// declare implements scenario{...}.
func (r *run) declare(L *lua.LState) int {
	if r.phase != phaseLoad {
		L.RaiseError("scenario{...} declares the scenario: call it once, at the top of the file")
	}
	if r.decl != nil {
		L.RaiseError("scenario{...} is called twice (first at line %d): declare the scenario once", r.decl.pos.Line)
	}
	t, ok := L.Get(1).(*lua.LTable)
	if !ok {
		L.RaiseError("scenario takes a table: scenario{ id = \"my-drill\", title = { en = \"My drill\" }, ... }, not %s", luaText(L.Get(1)))
	}
	r.readDeclaration(t)
	return 0
}

// readDeclaration reads the table scenario{} was called with, or takes
// seed 0's declaration when the table is the same (declared.go).
func (r *run) readDeclaration(t *lua.LTable) {
	line := r.callerLine()
	if d := r.p.reuse(line, t); d != nil {
		r.decl = d
		return
	}
	d := &declaration{
		pos:   dsl.Pos{File: r.p.file, Line: line},
		setup: engine.FreePlay(),
	}
	d.setup.ID = ""
	r.decl = d
	in := r.newReading("scenario{}", "scenario", line, &d.diags)
	in.Assume, in.Notes = assumeDefault, map[string]string{}
	scenarioTable.Read(d, t, in)
	d.diags.Sort()
	if err := d.setup.Validate(); err != nil {
		// Each field is in range (what is not was left at its default),
		// but not all of them together.
		notes := playable(&d.setup)
		for _, msg := range strings.Split(err.Error(), "\n") {
			field, _, _ := strings.Cut(msg, " ")
			pos := d.pos
			if field == "instances" || field == "min_instances" {
				pos = in.Place().In("controls").Value(field) // min_instances is a control
				if field == "instances" {
					pos = in.Place().Value(field)
				}
			}
			d.diags = append(d.diags, r.p.diagAt(pos, "scenario{}", msg))
			if note := notes[field]; note != "" {
				in.Notes[d.diags[len(d.diags)-1].Error()] = note
			}
		}
	}
	if len(in.Notes) > 0 {
		d.assumed = in.Notes
	}
	if r.p.declared == nil {
		r.keep(line, t, d)
	}
}
