package sandbox

import (
	"strings"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/internal/budget"
)

// The library's messages name the script as its user calls it, and add
// what the user's API offers in place of what the sandbox removes; without
// a Config they speak of a script, and of nothing the sandbox does not
// provide. Its steps are charged to the user's party.
func TestMessagesSayWhatTheUserCallsTheScript(t *testing.T) {
	for _, tc := range []struct {
		conf      Config
		src, want string // want: what the error says
	}{
		{Config{}, "io.write('x')", "io is not available in a script: scripts have no file, process or network access"},
		{Config{}, "print('x')", "print is not available in a script"},
		{Config{}, "math.randomseed(1)", "math.randomseed is not available: the script stream is seeded by the run's seed"},
		{Config{}, "require('x')", "require is not available in a script: a script is one file and cannot load code"},
		{Config{Noun: "drill"}, "string.dump(function() end)", "string.dump is not available: a drill cannot load code"},
		{Config{Noun: "drill", Instead: map[string]string{"os": "use now()"}}, "os.time()", "os is not available in a drill: drills have no file, process or network access; use now()"},
		{Config{Noun: "drill", Instead: map[string]string{"print": "use say()"}}, "print('x')", "print is not available in a drill: use say()"},
	} {
		lib := Open(tc.conf)
		lib.Seal()
		err, _ := runScript(t, lib, tc.src, 8<<20)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.src, err, tc.want)
		}
	}
	lib := Open(Config{Party: budget.Policy})
	lib.Seal()
	st := lib.NewState()
	bud := budget.New(budget.Limits{Steps: 1 << 30, Time: time.Minute, Memory: 8 << 20})
	m := st.Start(bud, host{}, nil, false)
	chunk, err := parseChunk("local x = 0 for i = 1, 100 do x = x + i end")
	if err != nil {
		t.Fatal(err)
	}
	st.L.Push(st.L.NewFunctionFromProto(chunk))
	m.Enter()
	if err := st.L.PCall(0, 0, nil); err != nil {
		t.Fatal(err)
	}
	if err := m.Leave(false); err != nil {
		t.Fatal(err)
	}
	if bud.StepsOf(budget.Policy) == 0 || bud.StepsOf(budget.Scenario) != 0 {
		t.Errorf("steps charged: %d to the policy, %d to the scenario; want them all to the Config's party", bud.StepsOf(budget.Policy), bud.StepsOf(budget.Scenario))
	}
}
