package engine

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var updateHealthy = flag.Bool("update-healthy", false, "record testdata/healthy-fleet.txt from this engine")

// healthyCases is how many runs TestHealthyFleetTracesAreAsTheyWere draws.
const healthyCases = 160

// healthyCase draws run i of TestHealthyFleetTracesAreAsTheyWere from the
// scenario stream of seed i, which no version of the engine changes: a
// setup, a scenario of deploys, whole flushes, constants set, scaled and
// ramped, a surge, and decisions of every control, with at most one
// rollback press and no hold_at or pause (whose sequences the model has
// since made exact, docs/model.md "Sequences, exactly"). What it draws
// uses only what the engine had before fleet health, so that the file the
// test reads could be recorded by that engine.
func healthyCase(i int) (Setup, *script, map[int][]Action, uint32, bool) {
	r := NewRand(uint32(i)*2654435761 + 1)
	pick := func(n int) int { return int(r.Float64() * float64(n)) }
	s := FreePlay()
	s.Start, s.Minutes = pick(1440), 30+pick(211)
	s.Warm, s.BudgetLeft = r.Float64(), r.Float64()
	s.Controls.MinInstances = 1 + pick(20)
	s.Controls.Autoscaling = pick(4) > 0
	s.Controls.TTL = float64(pick(300))
	s.Instances = pick(25)
	s.Constants.BootDelay = float64(pick(13))
	s.Constants.DBCapacity = 1000 + float64(pick(7000))
	surge := make([]float64, 1+pick(40))
	for j := range surge {
		surge[j] = 0.5 + 2*r.Float64()
	}
	sc := &script{events: map[int][]Event{}, surge: func(m int) float64 { return surge[m%len(surge)] }}
	for range pick(8) {
		m := pick(s.Minutes)
		var ev Event
		switch pick(6) {
		case 0:
			ev = Event{Kind: EventDeploy, Name: "bad", Value: float64(1 + pick(10))}
		case 1:
			ev = Event{Kind: EventDeploy, Name: "b", Value: float64(1 + pick(10)), Build: Build{Name: "b", ErrorRate: r.Float64() / 2, LeakMSPerMin: float64(pick(3))}}
		case 2:
			ev = Event{Kind: EventFlush}
		case 3:
			ev = Event{Kind: EventSetConstant, Name: "boot_delay", Value: float64(pick(13))}
		case 4:
			ev = Event{Kind: EventScale, Name: "db_capacity", Value: 0.2 + r.Float64()}
		default:
			ev = Event{Kind: EventRamp, Name: "app_ms", Value: 20 + float64(pick(200)), Over: float64(1 + pick(30))}
		}
		sc.events[m] = append(sc.events[m], ev)
	}
	decisions := map[int][]Action{}
	rolledBack := false
	for range pick(20) {
		m := pick(s.Minutes)
		a := Action{Control: Control(pick(int(Breaker) + 1))}
		switch a.Control {
		case MinInstances:
			a.Value = float64(1 + pick(30))
		case Autoscaling, Feature, Breaker:
			a.Value = float64(pick(2))
		case TargetUtilization:
			a.Value = 0.1 + 0.85*r.Float64()
		case TTL:
			a.Value = float64(pick(3601))
		case Shed:
			a.Value = r.Float64()
		case Rollback:
			if rolledBack {
				continue
			}
			rolledBack = true
		case PauseRollout, ResumeRollout:
			continue
		}
		decisions[m] = append(decisions[m], a)
	}
	return s, sc, decisions, uint32(i), pick(2) == 1
}

// healthyTrace runs case i and returns its instructor's trace as CSV.
func healthyTrace(t *testing.T, i int) []byte {
	setup, sc, decisions, seed, noise := healthyCase(i)
	s, err := New(Options{Setup: setup, Scenario: sc, Seed: seed, Noise: noise})
	if err != nil {
		t.Fatalf("case %d: %v", i, err)
	}
	for !s.Done() {
		m := s.Minute()
		if _, err := s.Step(); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		for _, a := range decisions[m] {
			if err := s.Decide(a); err != nil {
				t.Fatalf("case %d, after minute %d: %v", i, m, err)
			}
		}
	}
	var b bytes.Buffer
	if err := Instructor.WriteCSV(&b, s.Rows()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// digest is the SHA-256 of the trace's columns named in columns, in that
// order, so that a column added to the trace since does not change it.
func digest(t *testing.T, trace []byte, columns []string) string {
	records, err := csv.NewReader(bytes.NewReader(trace)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]int{}
	for j, name := range records[0] {
		at[name] = j
	}
	h := sha256.New()
	for _, rec := range records {
		for _, name := range columns {
			j, ok := at[name]
			if !ok {
				t.Fatalf("the trace has no column %s", name)
			}
			fmt.Fprintf(h, "%s,", rec[j])
		}
		h.Write([]byte{'\n'})
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// With launch_failure 0 and no instance lost, every trace is byte for
// byte what it was: testdata/healthy-fleet.txt holds the digests of
// healthyCases runs drawn at random (healthyCase), recorded by the engine
// as it was before fleet health (launch failures, lost instances, partial
// flushes) was added, with the columns it had then. A change of the
// model that moves these traces on purpose re-records it, as it does the
// goldens: go test ./engine -run HealthyFleet -update-healthy.
func TestHealthyFleetTracesAreAsTheyWere(t *testing.T) {
	const file = "testdata/healthy-fleet.txt"
	if *updateHealthy {
		columns := strings.Split(strings.TrimSpace(strings.SplitN(string(healthyTrace(t, 0)), "\n", 2)[0]), ",")
		var b strings.Builder
		fmt.Fprintf(&b, "columns %s\n", strings.Join(columns, ","))
		for i := range healthyCases {
			fmt.Fprintf(&b, "%d %s\n", i, digest(t, healthyTrace(t, i), columns))
		}
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var columns []string
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "columns "); ok {
			columns = strings.Split(rest, ",")
			continue
		}
		var i int
		var want string
		if _, err := fmt.Sscanf(line, "%d %s", &i, &want); err != nil {
			t.Fatalf("%s: %q: %v", file, line, err)
		}
		if got := digest(t, healthyTrace(t, i), columns); got != want {
			t.Errorf("case %d: the trace moved (digest %s, recorded %s)", i, got[:12], want[:12])
		}
		n++
	}
	if n != healthyCases {
		t.Errorf("%s holds %d cases, want %d", file, n, healthyCases)
	}
}
