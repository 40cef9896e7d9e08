package i18n

import (
	"math"
	"strconv"
	"strings"

	"golang.org/x/text/unicode/bidi"

	"github.com/oncall-sim/oncall/engine"
)

// Named keys: the texts that belong to no table of the engine. Each is used
// by the command line or the web console by this name.
const (
	KeyIntro               = "intro"                // the product's first paragraph
	KeyModelTitle          = "model.title"          // heading of the model page
	KeyModelIntro          = "model.intro"          // "Every relation the simulator uses, with its source…"
	KeyModelApproximations = "model.approximations" // heading of the approximations
	KeyModelSources        = "model.sources"        // heading of the sources
	KeyModelRandomness     = "model.randomness"     // how the simulator draws its random numbers
	KeyModelDisclaimer     = "model.disclaimer"     // "Educational model — not for operational decisions…"
	KeyModelConstants      = "model.constants"      // heading of the line of constants
	KeyModelConstantsLine  = "model.constants.line" // the line of constants, a placeholder per quantity
	KeyModelDepartures     = "model.departures"     // heading of where the model departs from the original
	KeyDepartureSaturation = "model.departure.saturation"
	KeyDepartureDBOverload = "model.departure.db_overload"
	KeyDepartureScenario   = "model.departure.scenario"
	KeyScenario            = "model.scenario"             // heading of the values in force for a scenario: {title}
	KeyScenarioStart       = "model.scenario.start"       // {start} {duration} {budget} {warm} {instances}
	KeyScenarioSeed        = "model.scenario.seed"        // {seed}: the seed chosen
	KeyScenarioSeeds       = "model.scenario.seeds"       // {first} {last}: what a range means
	KeyScenarioLegend      = "model.scenario.legend"      // what * means
	KeyScenarioValue       = "model.scenario.value"       // {label} {value} {default}
	KeyScenarioEvent       = "model.scenario.event"       // {time} {event}
	KeyScenarioEventsVary  = "model.scenario.events_vary" // the events differ from seed to seed
	KeyScenarioBuild       = "model.scenario.build"       // {build} {time} {rollout} {error_rate} {cpu} {leak}
	KeyScenarioSurge       = "model.scenario.surge"       // {peak} {time}
	KeyScenarioPage        = "model.scenario.page"        // {rule}
	KeySwitchOn            = "switch.on"                  // a switch control that is on
	KeySwitchOff           = "switch.off"                 // a switch control that is off
	KeyUnitQueries         = "unit.queries_per_s"         // database queries a second after a number: "{n} queries/s"
	KeyUnitDays            = "unit.days"                  // days after a number, a plural message (N): "{n} days"

	// The model page of a shift being played, whose seed's draws stay
	// hidden until it ends (modelpage.BuildHidden).
	KeyScenarioHidden      = "model.scenario.hidden"       // {seed}: the seed of the shift
	KeyScenarioBriefing    = "model.scenario.briefing"     // {briefing}: the scenario's briefing
	KeyScenarioEventsLater = "model.scenario.events_later" // the events differ from seed to seed; the shift's show on its timeline
)

// NamedKeys lists the named keys above.
func NamedKeys() []string {
	return []string{KeyIntro, KeyModelTitle, KeyModelIntro, KeyModelApproximations, KeyModelSources,
		KeyModelRandomness, KeyModelDisclaimer, KeyModelConstants, KeyModelConstantsLine, KeyModelDepartures,
		KeyDepartureSaturation, KeyDepartureDBOverload, KeyDepartureScenario, KeyScenario, KeyScenarioStart,
		KeyScenarioSeed, KeyScenarioSeeds, KeyScenarioLegend, KeyScenarioValue, KeyScenarioEvent,
		KeyScenarioEventsVary, KeyScenarioBuild, KeyScenarioSurge, KeyScenarioPage, KeySwitchOn, KeySwitchOff, KeyUnitQueries, KeyUnitDays,
		KeyScenarioHidden, KeyScenarioBriefing, KeyScenarioEventsLater}
}

// ControlLabelKey and the functions below name the keys derived from the
// engine's tables, so that the command line, the web server and the tests
// spell them one way.

// ControlLabelKey is the key of a control's short name: "control.shed.label".
func ControlLabelKey(name string) string { return "control." + name + ".label" }

// ControlHelpKey is the key of a control's one-line explanation.
func ControlHelpKey(name string) string { return "control." + name + ".help" }

// MetricLabelKey is the key of a metric's name on the dashboard and charts.
func MetricLabelKey(name string) string { return "metric." + name + ".label" }

// MetricUnitKey is the key of a metric's unit when the unit is a word
// (WordUnit); symbols such as "ms", "req/s" or "$/h" are not translated.
func MetricUnitKey(name string) string { return "metric." + name + ".unit" }

// OutcomeLabelKey is the key of an outcome figure's name.
func OutcomeLabelKey(name string) string { return "outcome." + name + ".label" }

// OutcomeUnitKey is the key of an outcome figure's unit when it is a word.
func OutcomeUnitKey(name string) string { return "outcome." + name + ".unit" }

// ConstantLabelKey is the key of a constant's name (engine.ConstantSpecs),
// which a scenario may change during a shift.
func ConstantLabelKey(name string) string { return "constant." + name + ".label" }

// FormulaKey is the key of a relation's formula (engine.Relation.Formula),
// its words in the language and its numbers' placeholders as the engine's.
func FormulaKey(id string) string { return "formula." + id }

// RelationKey is the key of a relation's explanation (engine.Relation.Text).
func RelationKey(id string) string { return "relation." + id }

// OffID is the id whose keys (FormulaKey, RelationKey) hold how a relation
// reads with its mechanism off (engine.Relation.Off): "retries.off".
func OffID(id string) string { return id + ".off" }

// SourceKey is the key of a source's text, for the sources that are prose
// (TranslatedSource); references to books and papers stay as they are.
func SourceKey(n int) string { return "source." + strconv.Itoa(n) }

// ApproximationKey is the key of engine.Approximations[i], numbered from 1.
func ApproximationKey(i int) string { return "approximation." + strconv.Itoa(i+1) }

// WordUnit reports whether a unit of the engine's tables is a word, which
// the catalogue translates, rather than a symbol. The unit key names the
// unit alone, for an axis or a column heading, not after a number.
func WordUnit(unit string) bool {
	switch unit {
	case "instances", "queries/s", "min", "requests":
		return true
	}
	return false
}

// TranslatedSource reports whether a source is prose to translate (the
// assumptions) rather than a bibliographic reference.
func TranslatedSource(s engine.Source) bool { return strings.HasPrefix(s.Text, "Assumption") }

// eventVariants lists, for the kinds of event whose message depends on who
// or what, the suffixes of their keys; other kinds have one key,
// "event.<kind>".
func eventVariants(kind engine.EventKind) []string {
	switch kind {
	case engine.EventSetControl:
		return []string{"set", "press"}
	case engine.EventAction:
		return []string{"player.set", "player.press", "scenario.set", "scenario.press", "rule.set", "rule.press"}
	case engine.EventLaunch, engine.EventRemove:
		return []string{"autoscaler", "min_instances"}
	case engine.EventFlush:
		return []string{"whole", "partial"}
	}
	return nil
}

// EventKeys returns the keys of every event message.
func EventKeys() []string {
	var keys []string
	for _, kind := range engine.EventKinds() {
		vs := eventVariants(kind)
		if vs == nil {
			keys = append(keys, "event."+string(kind))
		}
		for _, v := range vs {
			keys = append(keys, "event."+string(kind)+"."+v)
		}
	}
	return keys
}

// EventKey returns the key of an event's message:
//
//	deploy        event.deploy                                  {build} {rollout}: its name, as production shows it
//	set_control   event.set_control.set | .press                {control} {value}
//	action        event.action.<who>.set | .press               {control} {value} ({rule} for a rule)
//	              who: player, scenario, or rule (any other By: a policy rule's name)
//	launch        event.launch.autoscaler | .min_instances      {n}
//	flush_cache   event.flush_cache.whole | .partial            {share}: of the cache lost, as a percentage
//	lose_instances, launch_failed                               {n}
//	remove        event.remove.autoscaler | .min_instances      {n}
//	set_constant  event.set_constant                            {constant} {value}: its label, ConstantValue
//	scale         event.scale                                   {constant} {factor}
//	ramp          event.ramp                                    {constant} {value} {over}
//	say           event.say                                     {text}
//	others        event.<kind>
func EventKey(e engine.Event) string {
	k := "event." + string(e.Kind)
	switch e.Kind {
	case engine.EventSetControl:
		return k + "." + setOrPress(e.Name)
	case engine.EventAction:
		who := "rule"
		if e.By == "player" || e.By == "scenario" {
			who = e.By
		}
		return k + "." + who + "." + setOrPress(e.Name)
	case engine.EventLaunch, engine.EventRemove:
		if e.By == "autoscaler" {
			return k + ".autoscaler"
		}
		return k + ".min_instances"
	case engine.EventFlush:
		if e.Share > 0 && e.Share < 1 {
			return k + ".partial"
		}
		return k + ".whole"
	}
	return k
}

// setOrPress says whether a control takes a value ("set") or is an action
// pressed ("press").
func setOrPress(control string) string {
	if c, err := engine.LookupControl(control); err == nil && c.Spec().Kind == engine.KindAction {
		return "press"
	}
	return "set"
}

// Labels are a scenario's own words for its controls, by name: the labels
// of its switches ("switch.<id>") and those it gives the model's controls
// ("feature"), each by language, English where a language is missing.
type Labels map[string]engine.Text

// Label is the label of a control or a switch by its name in lang: the
// scenario's, else the catalogue's (a switch the scenario has no words for
// goes by its id).
func (ls Labels) Label(lang, name string) string {
	if t, ok := ls[name]; ok {
		return t.In(canonical(lang))
	}
	if id, ok := engine.SwitchID(name); ok {
		return id
	}
	return T(lang, ControlLabelKey(name))
}

// EventText renders an event as a line of the timeline in lang: the message
// of EventKey with its placeholders filled, numbers in lang's format, each
// value isolated in a right-to-left language (Isolate).
func EventText(lang string, e engine.Event) string { return EventTextIn(lang, e, nil) }

// EventTextIn is EventText for a scenario that names its controls in words
// of its own (labels): a switch of its own, or a control it relabels, is
// called by its label.
func EventTextIn(lang string, e engine.Event, labels Labels) string {
	args := []any{
		"n", Number(lang, math.Abs(e.Value), 0),
		"rollout", Minutes(lang, int(math.Round(e.Value))),
		"rule", e.By,
		"text", e.Text.In(canonical(lang)),
		"build", e.Name,
		"over", Minutes(lang, int(math.Round(e.Over))),
		"factor", Number(lang, e.Value, shortDecimals(e.Value)),
		"share", Percent(lang, e.Share, shortDecimals(e.Share*100)),
	}
	switch e.Kind {
	case engine.EventSetControl, engine.EventAction:
		if _, ok := engine.SwitchID(e.Name); ok {
			args = append(args, "control", labels.Label(lang, e.Name), "value", ControlValue(lang, engine.ScenarioSwitch, e.Value))
		} else if c, err := engine.LookupControl(e.Name); err == nil {
			args = append(args, "control", labels.Label(lang, e.Name), "value", ControlValue(lang, c, e.Value))
		} else {
			args = append(args, "control", e.Name, "value", Number(lang, e.Value, shortDecimals(e.Value)))
		}
	case engine.EventSetConstant, engine.EventScale, engine.EventRamp:
		if c, err := engine.LookupConstant(e.Name); err == nil && e.Kind == engine.EventScale {
			args = append(args, "constant", T(lang, ConstantLabelKey(e.Name)))
		} else if err == nil {
			args = append(args, "constant", T(lang, ConstantLabelKey(e.Name)), "value", ConstantValue(lang, c, e.Value))
		} else {
			args = append(args, "constant", e.Name, "value", Number(lang, e.Value, shortDecimals(e.Value)))
		}
	}
	for i := 1; i < len(args); i += 2 {
		args[i] = Isolate(lang, args[i].(string))
	}
	return T(lang, EventKey(e), args...)
}

// Isolate prepares a value to fill into a message of lang: in a
// right-to-left language it is set apart in the direction of its first
// strong letter, between LRI and PDI (U+2066, U+2069) when that letter is
// Latin or there is none, so that "4.00 $/h", "09:16" or a Latin name keeps
// its order inside an Urdu sentence, and between RLI and PDI (U+2067) when
// it is Urdu, so that "7 منٹ" reads as Urdu writes it, the number first,
// on the right of its unit; elsewhere it is unchanged. This is what FSI
// would choose, written out, so that a reader that does not resolve FSI
// (a terminal) sees the same order. The web page does the same for the
// values it fills itself.
func Isolate(lang, value string) string {
	if l, ok := Lookup(lang); !ok || l.Dir != "rtl" {
		return value
	}
	if firstStrongRTL(value) {
		return "\u2067" + value + "\u2069"
	}
	return "\u2066" + value + "\u2069"
}

// firstStrongRTL reports whether the first character of s with a strong
// direction (Unicode's bidirectional classes L, R and AL) is right to left.
// Digits, spaces and signs have no strong direction.
func firstStrongRTL(s string) bool {
	for _, r := range s {
		switch p, _ := bidi.LookupRune(r); p.Class() {
		case bidi.R, bidi.AL:
			return true
		case bidi.L:
			return false
		}
	}
	return false
}

// ControlValue writes a control's value as the console shows it: a switch
// as on or off, a share as a percentage, the TTL in seconds, the floor as a
// whole number; an action has no value.
func ControlValue(lang string, c engine.Control, v float64) string {
	switch s := c.Spec(); {
	case s.Kind == engine.KindAction:
		return ""
	case s.Kind == engine.KindBool:
		if v == 1 {
			return T(lang, KeySwitchOn)
		}
		return T(lang, KeySwitchOff)
	case s.Unit == "share":
		return Percent(lang, v, min(shortDecimals(v*100), 2))
	case s.Unit == "s":
		return Number(lang, v, shortDecimals(v)) + " s"
	default:
		return Number(lang, v, shortDecimals(v))
	}
}

// ConstantValue writes a constant's value with its unit as lang writes it:
// "8 min", "2.000 upita/s", "0,40 $/h", "99,9 %".
func ConstantValue(lang string, c engine.ConstantSpec, v float64) string {
	d := shortDecimals(v)
	switch c.Unit {
	case "share":
		return Percent(lang, v, min(shortDecimals(v*100), 3))
	case "share/min":
		return Percent(lang, v, min(shortDecimals(v*100), 3)) + "/min"
	case "$/h":
		return MoneyPerHour(lang, v)
	case "min":
		f := FormatOf(canonical(lang))
		return f.apply(f.Minutes, v, d)
	case "queries/s":
		return T(lang, KeyUnitQueries, "n", Number(lang, v, d))
	case "days":
		return nOf(lang, KeyUnitDays, v, d)
	case "ms", "s", "req/s":
		return Number(lang, v, d) + " " + c.Unit
	}
	return Number(lang, v, d)
}

// shortDecimals is the number of decimals v needs, at most 4, so that 0.6
// reads "0.6", 60 reads "60" and 0.333·100 reads "33.3", not the float's
// "33.300000000000004".
func shortDecimals(v float64) int {
	s := strings.TrimRight(strconv.FormatFloat(math.Abs(v), 'f', 4, 64), "0")
	return len(s) - 1 - strings.IndexByte(s, '.')
}

// DerivedKeys returns every key that the engine's tables call for, in the
// order of the tables: controls, metrics, outcomes, constants, relations, sources,
// approximations, events.
func DerivedKeys() []string {
	var keys []string
	for _, s := range engine.ControlSpecs() {
		keys = append(keys, ControlLabelKey(s.Name), ControlHelpKey(s.Name))
	}
	for _, s := range engine.MetricSpecs() {
		keys = append(keys, MetricLabelKey(s.Name))
		if WordUnit(s.Unit) {
			keys = append(keys, MetricUnitKey(s.Name))
		}
	}
	for _, s := range engine.OutcomeSpecs() {
		keys = append(keys, OutcomeLabelKey(s.Name))
		if WordUnit(s.Unit) {
			keys = append(keys, OutcomeUnitKey(s.Name))
		}
	}
	for _, s := range engine.ConstantSpecs() {
		keys = append(keys, ConstantLabelKey(s.Name))
	}
	for _, r := range engine.Relations() {
		keys = append(keys, FormulaKey(r.ID), RelationKey(r.ID))
		if _, ok := r.Off(); ok {
			keys = append(keys, FormulaKey(OffID(r.ID)), RelationKey(OffID(r.ID)))
		}
	}
	for _, s := range engine.Sources() {
		if TranslatedSource(s) {
			keys = append(keys, SourceKey(s.N))
		}
	}
	for i := range engine.Approximations {
		keys = append(keys, ApproximationKey(i))
	}
	for _, c := range engine.LogCauses() {
		keys = append(keys, LogKey(c))
	}
	return append(keys, EventKeys()...)
}

// LogKey returns the key of the message of an engine's log line of the
// cause c: "log.<cause>".
func LogKey(cause string) string { return "log." + cause }

// LogText renders a log line's message in lang: an engine's line by its
// cause, with the build's message or the dependency's name and timeout it
// names; a scenario's own line (no cause) as it was written.
func LogText(lang string, l engine.LogLine) string {
	if l.Cause == "" {
		return l.Message
	}
	msg := l.Message
	if l.Cause == engine.LogBuild {
		msg, _, _ = strings.Cut(l.Message, " (build ")
	}
	timeout := ""
	switch l.Cause {
	case engine.LogTimeout:
		s := l.TimeoutMS / 1000
		timeout = Number(lang, s, shortDecimals(s)) + " s"
	case engine.LogDepTimeout:
		timeout = Number(lang, l.TimeoutMS, shortDecimals(l.TimeoutMS)) + " ms"
	}
	return T(lang, LogKey(l.Cause), "name", Isolate(lang, l.Name), "message", Isolate(lang, msg), "timeout", Isolate(lang, timeout))
}
