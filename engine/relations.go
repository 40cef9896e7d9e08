package engine

import (
	"fmt"
	"slices"
	"strings"
)

// Relation is one relation the model uses, with the sources it rests on.
// Formula is its formula and Text its English explanation, which the
// catalogue translates under the keys "formula.<ID>" (the formula's words,
// and its numbers in the language's digits) and "relation.<ID>". Both may hold
// placeholders, a quantity's name in braces ("{bad_error_rate}"), so that
// the model page prints the values in force rather than the defaults: a
// scenario that sets bad_error_rate = 0.15 reads "0.15·bad", not "0.05·bad".
type Relation struct {
	ID      string
	Formula string
	Text    string
	Sources []int // numbers in Sources()
}

// Source is a reference the model rests on.
type Source struct {
	N    int
	Text string
}

var relations = []Relation{
	{"demand", "λ(t) = base × (1 + {daily_swing}·sin(2π(h − 6)/24)) × surge(t), base = {base_demand} req/s", "Demand follows the time of day, peaking at 12:00, times the scenario's surge.", []int{6}},
	{"noise", "count = N(60λ, √(60λ)) × (1 + N(0, {noise_cv})), requests = count/60", "Each minute's arrivals are a Poisson-like count with a little extra day-to-day noise.", []int{6}},
	{"retries", "A = 1 + e′ + e′² + … + e′^{retries}, e′ = the last minute's error_rate; requests = A·count/60; retry_share = (A − 1)/A", "Clients retry a failed request at once: each request is sent at most 1 + {retries} times, so the load balancer sees the new requests and their retries. Retries amplify an overload, but alone they do not keep it going once its cause is gone: when the load without them fits, a storm of retries dies out.", []int{8}},
	{"wasted_work", "Z = {wasted_work}·(failed′ + timeouts′)·admitted′ (the last minute's); db_load and the queue's a take admitted + Z; wasted_share = Z/(admitted + Z)", "Servers that do not know their client gave up still serve {wasted_work} of the last minute's timed-out and refused requests: the work runs its queries and holds workers, but answers nobody and is no request, error or retry. With retries it keeps an overload alive after its trigger (a metastable failure) until the load falls under a threshold.", []int{8, 9}},
	{"shedding", "admitted = requests × (1 − {low_priority}·shed)", "Shedding rejects a share of the {low_priority} low-priority traffic at the load balancer; shed requests are not errors.", []int{6}},
	{"hit_rate", "hit = warm × rT/(1 + rT), r = admitted/{hot_objects}, T = TTL", "Hit ratio of a TTL cache under Poisson requests, scaled by how full the cache is.", []int{5, 6}},
	{"cache_age", "cache_age = TTL/2", "A cached answer is on average half a TTL old.", []int{5}},
	{"db_load", "db_load = admitted × q × (1 − hit) + {warmup_queries} during the {warmup_minutes} minutes of a warm-up, q = {queries} (+{feature_queries} with the feature)", "Every miss sends its queries to the database; the warm-up job adds its own load.", []int{6}},
	{"query_time", "query = {db_base_ms} ms/(1 − ρ_db), capped at {db_cap_ms} ms, ρ_db = db_load/{db_capacity}", "Query time grows as the database fills, as in a single-server queue.", []int{3, 6}},
	{"db_errors", "db_errors = (1 − hit)·(1 − 1/ρ_db) when ρ_db = db_load/{db_capacity} > 1, else 0", "A request that needs the database fails when the database is past its capacity: it serves at most its capacity and the excess waits past its timeout. More app instances do not help; the heavy feature off does. Shedding helps little: shedding 30 % of the traffic lowers the hit rate too, and saves less than a quarter of the failures.", []int{3, 4}},
	{"service_time", "S = ({app_ms} ms + {feature_ms} ms with the feature) × (1 + Σ share·(cpu − 1)) + Σ share·leak·age + (1 − hit)·q·query; the bad build's cpu = {bad_cpu_factor}", "Service time is CPU time plus the database time of the misses; a build may cost more CPU (the model's bad build {bad_cpu} more) or leak, adding time for every minute it runs.", []int{6}},
	{"dependency", "p_t = e^(−{dep_timeout_ms}/{dep_ms}), w = {dep_ms} ms·(1 − p_t), f = 1 − (1 − {dep_error_rate})(1 − p_t); breaker closed: S += {dep_share}·w, dep_errors = {dep_share}·f; open: dep_errors = {dep_share}", "A share {dep_share} of requests calls a dependency whose latency is exponential, cut at its timeout. While the breaker is closed a worker waits for each call, so a slow dependency holds the workers and fails requests that never call it; open, those calls fail at once and the workers are free.", []int{6, 8}},
	{"erlang_b", "B₀ = 1, Bₖ = a·Bₖ₋₁/(k + a·Bₖ₋₁), a = admitted·S, N = serving × {workers}", "Erlang B, the blocking probability of N workers under offered load a.", []int{3}},
	{"erlang_c", "C = B/((1 − ρ) + ρB), ρ = a/N", "Erlang C, the probability that a request waits.", []int{3}},
	{"timeouts", "E = 1/(e^(θD)/(ρB) + (e^(θD) − 1)/(1 − ρ) + 1), θ = (N − a)/S, D = {timeout_s} s", "Share of requests that would wait past the {timeout_s} timeout, in the M/M/N queue whose customers leave at their patience; timeouts below capacity, failures above.", []int{3, 7}},
	{"p99", "p99 = S·ln 100 + max(0, ln(C/0.01))/θ, capped at {timeout_s} s", "The 99th percentile adds the service-time and waiting-time quantiles: an approximation, close far from capacity and too high near it.", []int{3}},
	{"little", "busy workers = a = λ·S", "Little's law: the mean number of requests in service is arrival rate times service time.", []int{4}},
	{"capacity", "capacity = N/S = serving × {workers}/S", "The fleet completes at most N/S requests a second: N workers, each finishing a request every S. Above it, requests queue and fail.", []int{3, 4}},
	{"errors", "error_rate = 1 − (1 − timeouts − failed)(1 − db_errors)(1 − dep_errors)(1 − Σ share·error_rate); the bad build's error_rate = {bad_error_rate}", "A request fails if it times out, is refused on overload, fails on an overloaded database, fails at the dependency, or hits the bad build's {bad_error_rate} of errors.", []int{6}},
	{"logs", "count = round(60·admitted·share) for each cause with a share: timeouts, failed, db_errors, each build's errors, the dependency's timeouts and errors, the open breaker; shed: round(60·requests·shed_traffic)", "Each cause of failure writes one log line a minute, with the number of requests it failed; a request that fails for two causes counts under both, so the error lines sum to at least the failed requests.", []int{6}},
	{"budget", "error budget = 1 − SLO = 1 − {slo} = {error_budget}, over {slo_days} days", "The error budget is what the SLO allows to fail over {slo_days}.", []int{1}},
	{"burn", "burn = error_rate/{error_budget}, budget_left −= burn/{budget_minutes}", "Burn rate: how many times faster than allowed the budget is spent; one minute at burn 1 spends 1/{budget_minutes} of the error budget.", []int{1, 2}},
	{"page", DefaultPageRule, "Multiwindow, multi-burn-rate alert: a fast burn over 1 hour confirmed by 5 minutes, or a slow burn over 6 hours confirmed by 30 minutes.", []int{2}},
	{"cost", "cost/h = (serving + booting) × ${instance_price}, twice during a rollback's preparation", "Every instance that runs is billed, booting or serving.", []int{6}},
	{"refill", "warm += (1 − warm)(1 − e^(−1/{refill_tau}))·f (+{warmup_rate}·f during warm-up), f = min(1, {db_capacity}/db_load)", "The cache refills with a time constant of {refill_tau}, slower while the database is saturated.", []int{6}},
	{"autoscaler", "desired = max(min_instances, min({max_instances}, ⌈serving × u/target⌉)); a launched instance serves after {boot_delay} minutes", "Target tracking as in the Kubernetes Horizontal Pod Autoscaler; no new scale-out while an instance boots.", []int{6}},
	{"fleet_health", "an instance whose boot ends adds {launch_failure} to a running share and fails to start when it reaches 1, which then drops by 1; lose_instances: n, or ⌊s·k + ½⌋ of the k serving; flush_cache(s): warm × (1 − s)", "Incidents take capacity away: instances lost, launches that fail to start (a share {launch_failure} of them, spread evenly), part of the cache lost. Lost and failed instances stop being billed and are replaced as any shortfall; a failed one was billed while it booted.", []int{6}},
	{"scale_in", "after {scale_in_quiet_minutes} quiet minutes remove min(fleet − desired, max(1, ⌊{scale_in_share}·fleet⌋)); a minute with an instance booting or utilization 1 is not quiet", "Scale-in is cautious: at most {scale_in_share} of the fleet after {scale_in_quiet_minutes} of quiet, and never while the fleet is still growing or saturated.", []int{6}},
	{"rollout", "new_build = min(hold_at, (m − m₀ + 1)/R), held by pause_rollout() until resume_rollout(); bad_traffic = Σ share of the builds that fail requests, cost more CPU or leak", "A deploy takes a growing share of traffic over its rollout, up to its hold_at (a canary) until it is resumed; a build is bad only when it fails requests, costs more CPU or leaks.", []int{6}},
	{"rollback", "rollback: {rollback_minutes} minutes on a fresh fleet, billed twice, then every request on the mix of builds the latest deploy replaced", "A rollback reverts the latest deploy to the builds that served before it, whatever their quality, and switches traffic when it is ready; a good build rolled back is lost.", []int{6}},
}

// DefaultPageRule is the page rule of the model as the model page writes it;
// a scenario's own rule replaces it.
const DefaultPageRule = "page = (burn_1h ≥ 14.4 ∧ burn_5m ≥ 14.4) ∨ (burn_6h ≥ 6 ∧ burn_30m ≥ 6)"

var sources = []Source{
	{1, "Beyer, Jones, Petoff, Murphy (eds.), Site Reliability Engineering, O'Reilly 2016, ch. 3 \"Embracing Risk\" and ch. 4 \"Service Level Objectives\"."},
	{2, "Beyer, Murphy, Rensin, Kawahara, Thorne (eds.), The Site Reliability Workbook, O'Reilly 2018, ch. 5 \"Alerting on SLOs\"."},
	{3, "Kleinrock, Queueing Systems, Vol. 1, Wiley 1975; Harchol-Balter, Performance Modeling and Design of Computer Systems, Cambridge 2013, ch. 14."},
	{4, "Little, \"A proof for the queuing formula L = λW\", Operations Research 9(3), 1961."},
	{5, "Jung, Berger, Balakrishnan, \"Modeling TTL-based Internet caches\", IEEE INFOCOM 2003."},
	{6, "Assumption: worker count, service times, database capacity, cache size, refill speed, prices and the bad build's error rate are illustrative values for a mid-sized web service; target tracking follows the Kubernetes Horizontal Pod Autoscaler rule desired = ⌈current × metric/target⌉."},
	{7, "Baccelli, Hébuterne, \"On queues with impatient customers\", Performance '81, 1981."},
	{8, "Bronson, Aghayev, Charapko, Zhu, \"Metastable Failures in Distributed Systems\", HotOS 2021; Nygard, Release It!, 2nd ed., Pragmatic 2018, ch. 5 (circuit breakers and timeouts)."},
	{9, "Huang, Magnusson, Muralikrishna, Estyak, Isaacs, Aghayev, Zhu, Charapko, \"Metastable Failures in the Wild\", OSDI 2022."},
}

// Relations returns every relation of the model, in the order of a minute.
func Relations() []Relation { return append([]Relation(nil), relations...) }

// Off is how a relation reads when the mechanism it describes is off,
// that is when the quantity When is 0: clients that do not retry send each
// request once, which "up to 0 times" and e′^0 would say badly. The
// catalogue translates it under "formula.<ID>.off" and "relation.<ID>.off".
type Off struct {
	When    string // the quantity whose 0 turns the mechanism off
	Formula string
	Text    string
}

var offs = map[string]Off{
	"retries": {"retries", "A = 1: retries = 0, clients do not retry; requests = count/60; retry_share = 0", "Clients do not retry a failed request: the load balancer sees each request once. A scenario that sets retries makes a failed request come back at once."},
}

// Off returns how the relation reads when its mechanism is off, if it has
// such a wording.
func (r Relation) Off() (Off, bool) {
	o, ok := offs[r.ID]
	return o, ok
}

// Sources returns the references the relations cite.
func Sources() []Source { return append([]Source(nil), sources...) }

// Approximations are the simplifications the model page states.
var Approximations = []string{
	"Adding the service and waiting quantiles is not the exact p99 of their sum: close far from capacity, it is too high near it, by up to about 40 % against a simulation of the requests.",
	"The queue is treated as steady within each minute, because requests last milliseconds; close to capacity it takes several minutes to settle, so a single minute can be far from the formulas.",
	"Failed requests still reach the database (one pass, no fixed point).",
	"The burn windows average per-minute error rates rather than weighting them by traffic.",
}

// Quantity is a number the relations print: a constant, or a figure the
// constants determine (the error budget is 1 − SLO). Unit is a
// ConstantSpec's unit, or "factor" for a multiplier.
type Quantity struct {
	Name string
	Unit string
	Of   []string // the constants it is computed from
	get  func(*Constants) float64
}

// Value returns the quantity's value under the constants c.
func (q Quantity) Value(c *Constants) float64 { return q.get(c) }

// derived are the quantities that are not constants themselves.
var derived = []Quantity{
	{"error_budget", "share", []string{"slo"}, func(c *Constants) float64 { return 1 - c.SLO }},
	{"budget_minutes", "count", []string{"slo_days"}, func(c *Constants) float64 { return c.SLODays * 1440 }},
	{"bad_cpu_factor", "factor", []string{"bad_cpu"}, func(c *Constants) float64 { return 1 + c.BadCPU }},
}

// Quantities returns every quantity a relation may name: the constants in
// canonical order, then the derived figures.
func Quantities() []Quantity {
	qs := make([]Quantity, 0, len(constantSpecs)+len(derived))
	for _, s := range constantSpecs {
		qs = append(qs, Quantity{s.Name, s.Unit, []string{s.Name}, s.Get})
	}
	return append(qs, derived...)
}

// LookupQuantity finds a quantity by name.
func LookupQuantity(name string) (Quantity, error) {
	for _, q := range Quantities() {
		if q.Name == name {
			return q, nil
		}
	}
	return Quantity{}, fmt.Errorf("unknown quantity %q", name)
}

// PlaceholderNames returns the names in braces in a template, in order of
// first appearance: "{a} and {b}, {a}" gives a, b.
func PlaceholderNames(template string) []string {
	var names []string
	for rest := template; ; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			return names
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return names
		}
		name := rest[i+1 : i+j]
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
		rest = rest[i+j+1:]
	}
}

// FillTemplate replaces each placeholder of a template by value(name).
func FillTemplate(template string, value func(name string) string) string {
	var b strings.Builder
	for rest := template; ; {
		i := strings.IndexByte(rest, '{')
		j := -1
		if i >= 0 {
			j = strings.IndexByte(rest[i:], '}')
		}
		if j < 0 {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:i])
		b.WriteString(value(rest[i+1 : i+j]))
		rest = rest[i+j+1:]
	}
}
