package fingerprint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/oncall-sim/oncall/engine"
	"github.com/oncall-sim/oncall/grade"
	"github.com/oncall-sim/oncall/internal/budget"
)

// Options say how to compute a fingerprint.
type Options struct {
	// Adjust, when set, changes the setup of every probe after its
	// scenario made it: a test changes a constant of the model this way
	// and sees the fingerprint move.
	Adjust func(*engine.Setup) error
	// Jobs is how many probes run at once; 0: one per core.
	Jobs int
}

// Result is a fingerprint with the digest of each probe, in order.
type Result struct {
	Model  grade.Model
	Probes []Digest
}

// Digest is one probe's digest.
type Digest struct {
	Probe  string
	SHA256 string
}

// probeLimits bound a probe's code: the step and memory budgets as any
// run's, and time enough that a busy machine never stops a probe, whose
// code is oncall's own.
var probeLimits = budget.Limits{Time: 10 * time.Minute}

// Compute runs every probe and returns the fingerprint. A probe that stops
// on an error is an error: the fingerprint of a model that cannot run its
// own probes would be no model's.
func Compute(ctx context.Context, o Options) (Result, error) {
	probes, err := Probes()
	if err != nil {
		return Result{}, err
	}
	digests := make([]Digest, len(probes))
	errs := make([]error, len(probes))
	jobs := o.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, len(probes)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				digests[i].Probe = probes[i].Name
				digests[i].SHA256, errs[i] = run(ctx, probes[i], o.Adjust)
			}
		}()
	}
	for i := range probes {
		next <- i
	}
	close(next)
	wg.Wait()
	h := sha256.New()
	io.WriteString(h, "oncall model fingerprint 1\n")
	for i, d := range digests {
		if errs[i] != nil {
			return Result{}, fmt.Errorf("probe %s: %w", d.Probe, errs[i])
		}
		fmt.Fprintf(h, "%s %s\n", d.Probe, d.SHA256)
	}
	sum := h.Sum(nil)
	return Result{Model: grade.Model{Name: Name(sum), Fingerprint: hex.EncodeToString(sum)}, Probes: digests}, nil
}

// run runs one probe and returns its digest.
func run(ctx context.Context, p Probe, adjust func(*engine.Setup) error) (string, error) {
	sh := p.Shift
	sh.Limits = probeLimits
	sh.Adjust = func(s *engine.Setup) error {
		s.Minutes = min(s.Minutes, MaxMinutes)
		if adjust != nil {
			return adjust(s)
		}
		return nil
	}
	sim, err := sh.Run(ctx)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if err := engine.Instructor.WriteCSV(h, sim.Rows()); err != nil {
		return "", err
	}
	o := sim.Outcome()
	for _, s := range engine.OutcomeSpecs() {
		fmt.Fprintf(h, "%s %s\n", s.Name, engine.FormatFixed(s.Get(&o), s.Decimals))
	}
	for _, f := range o.Scenario {
		fmt.Fprintf(h, "%s %s\n", f.Name, engine.FormatFixed(f.Value, 6))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// current is the fingerprint of this build, computed once.
var current = sync.OnceValues(func() (grade.Model, error) {
	r, err := Compute(context.Background(), Options{})
	return r.Model, err
})

// Current returns the fingerprint of the model this oncall computes,
// computing it the first time it is asked for in the process.
func Current() (grade.Model, error) { return current() }
