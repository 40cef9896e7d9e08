package sandbox

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"github.com/oncall-sim/oncall/internal/budget"
)

// host draws nothing: the scripts here do not call math.random.
type host struct{}

func (host) Random() float64 { return 0 }

// runScript runs src on a fresh state of lib under a memory budget of mem
// and returns the error that stopped it (nil if none) and the steps it
// took.
func runScript(t *testing.T, lib *Library, src string, mem int64) (error, int64) {
	t.Helper()
	chunk, err := parseChunk(src)
	if err != nil {
		t.Fatal(err)
	}
	st := lib.NewState()
	bud := budget.New(budget.Limits{Steps: 1 << 50, Time: time.Minute, Memory: mem})
	m := st.Start(bud, host{}, nil, false)
	st.L.Push(st.L.NewFunctionFromProto(chunk))
	m.Enter()
	err = st.L.PCall(0, 0, nil)
	if lerr := m.Leave(false); err == nil {
		err = lerr
	}
	if err == nil {
		err = m.Err()
	}
	st.L.Close()
	return err, bud.Steps()
}

func parseChunk(src string) (*lua.FunctionProto, error) {
	stmts, err := parse.Parse(strings.NewReader(src), "test.lua")
	if err != nil {
		return nil, err
	}
	RewriteLength(stmts)
	return lua.Compile(stmts, "test.lua")
}

// allocating keeps n goroutines allocating until stop is closed: the rest
// of a process, a batch's other runs.
func allocating(n int) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var keep [][]byte
			for {
				select {
				case <-done:
					return
				default:
				}
				keep = append(keep, make([]byte, 64<<10))
				if len(keep) > 64 {
					keep = keep[:0]
				}
			}
		}()
	}
	return func() { close(done); wg.Wait() }
}

// What a run holds is measured by what the run makes, never by what the
// process allocates: a run that grows a table without end is stopped at
// the same instruction, with the same message, alone (as oncall check
// runs it) and beside goroutines that allocate all the while (as a batch
// runs it); and around the budget's edge, scripts that build a table of n
// items and drop it are stopped, or not, the same way in both.
func TestMemoryStopsAtTheSameInstruction(t *testing.T) {
	lib := Open(Config{})
	lib.Seal()
	const mem = 2 << 20
	// The scripts are of one line, and edge is built by the size of its
	// table where it stands, not a chunk of testdata.
	grow := `local t = {} for i = 1, 1e9 do t[i] = { i } end`
	edge := func(n int) string {
		return fmt.Sprintf(`for round = 1, 2 do local t = {} for i = 1, %d do t[i] = { i } end t = nil end`, n)
	}
	type result struct {
		err   string
		steps int64
	}
	play := func() []result {
		var out []result
		err, steps := runScript(t, lib, grow, mem)
		if err == nil || !strings.Contains(err.Error(), "memory budget") {
			t.Fatalf("a table growing without end ended with %v", err)
		}
		out = append(out, result{err.Error(), steps})
		for n := 10000; n <= 26000; n += 2000 {
			err, _ := runScript(t, lib, edge(n), mem)
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			out = append(out, result{msg, 0})
		}
		return out
	}
	alone := play()
	stops := 0
	for _, r := range alone[1:] {
		if r.err != "" {
			stops++
		}
	}
	if stops == 0 || stops == len(alone)-1 {
		t.Fatalf("%d of %d scripts around the edge were stopped: the sizes do not straddle the budget", stops, len(alone)-1)
	}
	stop := allocating(2)
	beside := play()
	stop()
	for i := range alone {
		if alone[i] != beside[i] {
			t.Errorf("script %d: alone %+v, beside allocating goroutines %+v", i, alone[i], beside[i])
		}
	}
}
