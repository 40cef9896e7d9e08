package expect

import (
	"slices"
	"sync"

	"github.com/oncall-sim/oncall/engine"
)

// The figures a check reads of each run, beyond its outcome figures: the
// split of its failed requests and the minute of the first event of each
// kind, −1 when the run has none.
const (
	dbErrors  = "db_error_requests"  // the requests the database failed
	appErrors = "app_error_requests" // the rest: the app's timeouts and overload
)

// eventKinds are the kinds whose first minute a check reads, as
// KIND_minute (deploy_minute, page_minute, rollback_done_minute).
var eventKinds = []engine.EventKind{
	engine.EventDeploy, engine.EventFlush, engine.EventSetConstant, engine.EventScale, engine.EventRamp,
	engine.EventSetControl, engine.EventSay, engine.EventAction, engine.EventLaunch, engine.EventRemove,
	engine.EventRollbackDone, engine.EventPage, engine.EventResolve, engine.EventLoseInstances, engine.EventLaunchFailed,
}

// FigureNames are the names a check reads of a run (NAME.figure): every
// outcome figure, db_error_requests and app_error_requests, and
// KIND_minute for each kind of event; a check also reads the figures its
// scenario declares with outcome{}.
var FigureNames = sync.OnceValue(func() []string {
	var names []string
	for _, s := range engine.OutcomeSpecs() {
		names = append(names, s.Name)
	}
	names = append(names, dbErrors, appErrors)
	for _, k := range eventKinds {
		if n := string(k) + "_minute"; !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
})

// figures are a run's figures by name.
func figures(sim *engine.Sim) map[string]float64 {
	o := sim.Outcome()
	m := make(map[string]float64, len(FigureNames()))
	for _, s := range engine.OutcomeSpecs() {
		m[s.Name] = s.Get(&o)
	}
	for _, k := range eventKinds {
		m[string(k)+"_minute"] = -1
	}
	var db float64
	for _, r := range sim.Rows() {
		db += r.Admitted * 60 * r.DBErrors
		for _, e := range r.Events {
			if n := string(e.Kind) + "_minute"; m[n] < 0 {
				m[n] = float64(r.Minute)
			}
		}
	}
	m[dbErrors] = db
	m[appErrors] = o.ErrorRequests - db
	for _, f := range o.Scenario { // the scenario's own figures (outcome{})
		m[f.Name] = f.Value
	}
	return m
}

// sampleEnv is an environment of the given policies' figures, to compile
// checks against.
func sampleEnv(policies []string) map[string]any {
	env := make(map[string]any, len(policies))
	for _, p := range policies {
		env[p] = map[string]float64{}
	}
	return env
}
