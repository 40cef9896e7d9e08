package engine

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Build is a version of the service that a deploy ships. Production shows
// its name and the share of traffic it serves; what it does to the requests
// it serves is in its properties, and a build is bad only through them
// (Bad).
type Build struct {
	Name string `json:"name"`
	// ErrorRate is the share of the requests it serves that the build fails.
	ErrorRate float64 `json:"error_rate,omitzero"`
	// ExtraCPU is the application time the build adds, as a share of it:
	// cpu − 1, so 0.25 is ×1.25 and −0.2 a build 20 % faster.
	ExtraCPU float64 `json:"extra_cpu,omitzero"`
	// LeakMSPerMin is the application time the build adds for every minute
	// it has run: a leak, whose cost grows until the build stops serving.
	LeakMSPerMin float64 `json:"leak_ms_per_min,omitzero"`
	// Message is what the build's failing requests write in the logs
	// (DefaultBuildMessage when empty).
	Message string `json:"message,omitempty"`
}

// DefaultBuildMessage is the log line of a failing build that has no
// message of its own.
const DefaultBuildMessage = "500 in a request handler"

// MaxBuildMessage is the longest message of a build, in runes.
const MaxBuildMessage = 200

// LogMessage returns the message the build's failures write in the logs.
func (b Build) LogMessage() string {
	if b.Message == "" {
		return DefaultBuildMessage
	}
	return b.Message
}

// The ranges of a build's properties.
const (
	MaxBuildName    = 64   // runes of a build's name
	MinBuildCPU     = 0.1  // cpu factor
	MaxBuildCPU     = 11   // cpu factor: 1 + bad_cpu at its largest
	MaxLeakMSPerMin = 1000 // ms a minute
)

// BadBuild is the build that deploy{build = "bad"} ships: the model's bad
// build, failing bad_error_rate of its requests and costing bad_cpu more
// CPU, as the constants in force give them when it ships.
func BadBuild(c *Constants) Build {
	return Build{Name: "bad", ErrorRate: c.BadErrorRate, ExtraCPU: c.BadCPU}
}

// Bad reports whether the build harms the requests it serves: it fails
// some, or costs more CPU, or leaks.
func (b Build) Bad() bool { return b.ErrorRate > 0 || b.ExtraCPU > 0 || b.LeakMSPerMin > 0 }

// CPU returns the build's CPU factor, 1 + ExtraCPU.
func (b Build) CPU() float64 { return 1 + b.ExtraCPU }

// Check validates the build's name and properties.
func (b Build) Check() error {
	if err := CheckBuildName(b.Name); err != nil {
		return err
	}
	switch cpu := b.CPU(); {
	case !(b.ErrorRate >= 0 && b.ErrorRate <= 1):
		return fmt.Errorf("build %s: error_rate = %s is out of range: it takes 0 to 1", b.Name, PersonNum(b.ErrorRate))
	case !(b.ExtraCPU >= MinBuildCPU-1 && b.ExtraCPU <= MaxBuildCPU-1):
		return fmt.Errorf("build %s: cpu = %s is out of range: it takes %s to %s (1: as the build before)", b.Name, PersonNum(cpu), PersonNum(MinBuildCPU), PersonNum(MaxBuildCPU))
	case !(b.LeakMSPerMin >= 0 && b.LeakMSPerMin <= MaxLeakMSPerMin):
		return fmt.Errorf("build %s: leak app_ms_per_min = %s is out of range: it takes 0 to %d ms a minute", b.Name, PersonNum(b.LeakMSPerMin), MaxLeakMSPerMin)
	}
	return checkLogText("build "+b.Name+": error", b.Message, MaxBuildMessage, true)
}

// CheckBuildName validates a build's name: 1 to MaxBuildName printable
// characters, none of them a space at either end, for it shows on the
// learner's timeline as production shows it.
func CheckBuildName(name string) error {
	n := utf8.RuneCountInString(name)
	if n == 0 || n > MaxBuildName || strings.TrimSpace(name) != name {
		return fmt.Errorf("build = %q: a build's name is 1 to %d characters, without spaces at its ends, e.g. \"4.2.1\"", name, MaxBuildName)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("build = %q: a build's name is plain text, without control characters", name)
		}
	}
	return nil
}

// Properties renders what the build does, as the instructor's trace shows
// it: "error_rate 0.15, cpu 1.25, leak 1.5 ms/min"; "" for a build that
// changes nothing.
func (b Build) Properties() string {
	var parts []string
	if b.ErrorRate != 0 {
		parts = append(parts, "error_rate "+PersonNum(b.ErrorRate))
	}
	if b.ExtraCPU != 0 {
		parts = append(parts, "cpu "+PersonNum(b.CPU()))
	}
	if b.LeakMSPerMin != 0 {
		parts = append(parts, "leak "+PersonNum(b.LeakMSPerMin)+" ms/min")
	}
	return strings.Join(parts, ", ")
}

// deployed is a build as it serves: the deploy that shipped it (its number
// in the run and its minute, from which a leak grows) and, among the
// builds that share the traffic the newest deploy does not take, its
// weight.
type deployed struct {
	build  Build
	seq    int
	from   float64 // a whole minute, but for builds merged (see merge)
	weight float64
}

// shipment is a deploy as a rollback sees it: the build it shipped, and
// the mix of builds in force when it started (weights summing to 1), which
// a rollback of it restores.
type shipment struct {
	seq    int
	build  Build
	before []deployed
}

// fleetBuilds is what the fleet runs: the newest deploy, which takes a
// share of the traffic that grows over its rollout (share), and the builds
// that serve the rest (rest, weights summing to 1); and the deploys a
// rollback can revert, latest last, each with the mix it replaced.
type fleetBuilds struct {
	rest    []deployed
	newest  deployed
	rolling bool    // a newest deploy serves traffic
	rollout float64 // its rollout, minutes
	// The newest deploy's share at minute m is start + (m − since + 1)/rollout,
	// at most limit (hold_at, or 1), or start itself while held.
	start, since, limit float64
	held                bool
	shipped             []shipment
	seq                 int

	// cached is effects for the newest deploy's share cachedShare (its
	// bits), kept while no build of the mix leaks; deploy and rollBack,
	// which change the mix, drop it.
	cached      buildEffects
	cachedShare uint64
	haveCached  bool
}

// negligible is the weight under which an older build is dropped from the
// mix, so that deploys over unfinished rollouts do not pile up builds that
// serve nothing.
const negligible = 1e-9

// maxMix is how many builds the newest deploy replaces that the mix keeps
// apart; past it, a deploy merges them (merge), so that a scenario
// shipping build after build over each other's rollouts costs the same
// each minute however many it ships. Real incidents stay far below it.
const maxMix = 16

func newFleetBuilds() fleetBuilds {
	return fleetBuilds{rest: []deployed{{weight: 1}}}
}

// share returns the newest deploy's share of traffic at minute m.
func (f *fleetBuilds) share(m int) float64 {
	switch {
	case !f.rolling:
		return 0
	case f.held:
		return f.start
	}
	return min(f.limit, f.start+(float64(m)-f.since+1)/f.rollout)
}

// mixAt returns the builds serving minute m, each weighted by its share
// of the traffic, the newest deploy last: what a deploy at m+1 replaces.
func (f *fleetBuilds) mixAt(m int) []deployed {
	s := f.share(m)
	mix := make([]deployed, 0, len(f.rest)+1)
	for _, d := range f.rest {
		if d.weight *= 1 - s; d.weight >= negligible {
			mix = append(mix, d)
		}
	}
	if old := f.newest; f.rolling && s > 0 {
		old.weight = s
		mix = append(mix, old)
	}
	return mix
}

// deploy ships b at the start of minute m over rollout minutes, to stop at
// the share holdAt (1: the whole traffic). A newest deploy that was still
// rolling out keeps the share it had reached and joins the builds the new
// one replaces; the mix it replaces is recorded for a rollback.
func (f *fleetBuilds) deploy(b Build, m int, rollout, holdAt float64) {
	mix := f.mixAt(m - 1)
	f.seq++
	f.shipped = append(f.shipped, shipment{seq: f.seq, build: b, before: mix})
	if len(mix) > maxMix {
		mix = merge(mix)
	}
	f.rest = mix
	f.newest, f.rolling, f.rollout = deployed{build: b, seq: f.seq, from: float64(m)}, true, rollout
	f.start, f.since, f.limit, f.held = 0, float64(m), holdAt, false
	f.haveCached = false
}

// rollout says what a rollout is doing at the start of minute m, before
// it serves: in progress (its share grows), held (by pause_rollout or at
// its hold_at) or neither (none, or finished).
func (f *fleetBuilds) rolloutAt(m int) (inProgress, held bool) {
	if !f.rolling {
		return false, false
	}
	s := f.share(m - 1)
	if f.held || (s >= f.limit && f.limit < 1) {
		return false, true
	}
	return s < 1, false
}

// pause holds the rollout in progress at the share it served at minute
// m − 1; it reports false, changing nothing, when none is in progress.
func (f *fleetBuilds) pause(m int) bool {
	if in, _ := f.rolloutAt(m); !in {
		return false
	}
	f.start, f.held = f.share(m-1), true
	return true
}

// resume continues a held rollout at its rate from minute m, from the
// share it holds: to its hold_at when it was paused before reaching it
// (pausing never skips the canary stage), else to the whole traffic. It
// reports false, changing nothing, when none is held.
func (f *fleetBuilds) resume(m int) bool {
	if _, held := f.rolloutAt(m); !held {
		return false
	}
	from := f.share(m - 1)
	if from >= f.limit {
		f.limit = 1 // resumed at its hold_at: on to the whole traffic
	}
	f.start, f.since, f.held = from, float64(m), false
	return true
}

// target is what a rollback whose press takes effect at the start of
// minute m will restore, fixed then: the mix the latest deploy replaced,
// and that deploy's number (seq 0, with the mix that served minute m − 1,
// when no deploy is left to revert); and from, the number of the first
// deploy its switch reverts: that deploy's, or, with none, the next
// deploy's, so that the deploys shipped while it prepares are reverted
// with it.
func (f *fleetBuilds) target(m int) (seq, from int, mix []deployed) {
	if n := len(f.shipped); n > 0 {
		return f.shipped[n-1].seq, f.shipped[n-1].seq, f.shipped[n-1].before
	}
	return 0, f.seq + 1, f.mixAt(m - 1)
}

// rollBack moves every request to mix, whatever the quality of any of its
// builds, and reverts every deploy numbered from on: they are no longer
// revertible. It returns the build of the deploy seq, the rollback's
// target (ok false when seq is 0: it targeted none).
func (f *fleetBuilds) rollBack(seq, from int, mix []deployed) (reverted Build, ok bool) {
	kept := f.shipped[:0]
	for _, sh := range f.shipped {
		if sh.seq < from {
			kept = append(kept, sh)
		} else if sh.seq == seq {
			reverted, ok = sh.build, true
		}
	}
	f.shipped = kept
	if len(mix) > maxMix {
		mix = merge(mix)
	}
	f.rest = append([]deployed(nil), mix...)
	f.rolling, f.held = false, false
	f.haveCached = false
	return reverted, ok
}

// merge returns builds that do to the requests what ds do together: one
// good build with their weight, and one bad build whose properties are
// theirs weighted by the traffic each serves. effects adds each build's
// weight times its properties, and a leak's weight·leak·(m − from), all
// linear: the merged bad build has the weighted mean error rate, CPU and
// leak, and as its start the mean of the starts weighted by weight·leak,
// so that its effects are theirs, to rounding, at every later minute.
// badShare stays exact, since a good build and a bad one never merge.
func merge(ds []deployed) []deployed {
	var good, bad deployed
	var wl, wlf, heaviest float64
	for _, d := range ds {
		if !d.build.Bad() {
			good.weight += d.weight
			continue
		}
		if d.weight*d.build.ErrorRate >= heaviest {
			// The merged build's log line is that of the build that fails
			// the most requests among them.
			heaviest = d.weight * d.build.ErrorRate
			bad.build.Name, bad.build.Message = d.build.Name, d.build.Message
		}
		bad.weight += d.weight
		bad.build.ErrorRate += d.weight * d.build.ErrorRate
		bad.build.ExtraCPU += d.weight * d.build.ExtraCPU
		wl += d.weight * d.build.LeakMSPerMin
		wlf += d.weight * d.build.LeakMSPerMin * d.from
	}
	var out []deployed
	if good.weight > 0 {
		out = append(out, good)
	}
	if bad.weight > 0 {
		bad.build.ErrorRate /= bad.weight
		bad.build.ExtraCPU /= bad.weight
		bad.build.LeakMSPerMin = wl / bad.weight
		if wl > 0 {
			bad.from = wlf / wl
		}
		out = append(out, bad)
	}
	return out
}

// failing calls fn for each build of minute m that fails requests, with the
// share of the minute's requests it fails, in the order they serve: the
// builds the newest deploy replaces, then the newest.
func (f *fleetBuilds) failing(m int, fn func(b *Build, share float64)) {
	s := f.share(m)
	for i := range f.rest {
		if d := &f.rest[i]; d.build.ErrorRate > 0 {
			fn(&d.build, (1-s)*d.weight*d.build.ErrorRate)
		}
	}
	if f.rolling && f.newest.build.ErrorRate > 0 {
		fn(&f.newest.build, s*f.newest.build.ErrorRate)
	}
}

// buildEffects is what the builds serving minute m do to its requests.
type buildEffects struct {
	newShare  float64 // the newest deploy's share
	badShare  float64 // the share served by bad builds
	errorRate float64 // the share of requests the builds fail
	extraCPU  float64 // the application time they add, as a share
	leakMS    float64 // the application time their leaks add, ms
}

// effects mixes the builds' properties by the traffic each serves at
// minute m. Each build adds its share times its property, so that a build
// that changes nothing adds exact zeros: with one bad build over a clean
// fleet, error_rate and the service time are those of docs/model.md's bad
// build to the last bit.
//
// The minute enters the mix through the share alone but for the leaks'
// term w·leak·(m − from): with no build leaking (leak ±0, m − from finite)
// each such term is ±0, or NaN for a NaN share, whatever the minute, and
// a zero's sign never reaches leakMS, which starts at +0 (+0 + −0 = +0).
// So while the mix and the share stay as they were, as they do once a
// rollout is complete, the effects are the last minute's to the bit and
// are kept rather than mixed again (TestPropertyCachedEffectsAreMixed).
func (f *fleetBuilds) effects(m int) buildEffects { return *f.effectsAt(m) }

// effectsAt is effects in place: the result is f's own, and the next call
// may overwrite it.
func (f *fleetBuilds) effectsAt(m int) *buildEffects {
	s := f.share(m)
	if f.haveCached && math.Float64bits(s) == f.cachedShare {
		return &f.cached
	}
	e, leaks := f.mix(s, m)
	f.cached, f.cachedShare, f.haveCached = e, math.Float64bits(s), !leaks
	return &f.cached
}

// mix is effects computed afresh for the newest deploy's share s; leaks
// reports whether a build of the mix leaks.
func (f *fleetBuilds) mix(s float64, m int) (e buildEffects, leaks bool) {
	if f.rolling {
		e.add(&f.newest, s, m)
		leaks = f.newest.build.LeakMSPerMin != 0
	}
	for i := range f.rest {
		e.add(&f.rest[i], (1-s)*f.rest[i].weight, m)
		leaks = leaks || f.rest[i].build.LeakMSPerMin != 0
	}
	e.newShare = s
	return e, leaks
}

// add adds a build serving the share w of minute m's traffic, read in
// place: this runs for every build every minute.
func (e *buildEffects) add(d *deployed, w float64, m int) {
	if d.build.Bad() {
		e.badShare += w
	}
	e.errorRate += w * d.build.ErrorRate
	e.extraCPU += w * d.build.ExtraCPU
	e.leakMS += w * d.build.LeakMSPerMin * (float64(m) - d.from)
}
