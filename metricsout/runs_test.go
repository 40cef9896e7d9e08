package metricsout

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/oncall-sim/oncall/engine"
)

// TestManyRunsAsOneExposition: seeds of a scenario written by
// WriteOpenMetricsRuns are the bytes WriteOpenMetrics writes of them all
// at once, whether they fit what it may hold or it writes the families a
// group at a time, making the runs again for each; promtool loads the
// exposition and finds every sample of every run under its seed.
func TestManyRunsAsOneExposition(t *testing.T) {
	runs := []Run{runOf(t, "bad-deploy", 1, 0, engine.Learner), runOf(t, "bad-deploy", 2, 0, engine.Learner), runOf(t, "bad-deploy", 3, 0, engine.Learner)}
	var all bytes.Buffer
	if err := WriteOpenMetrics(&all, runs...); err != nil {
		t.Fatal(err)
	}
	for _, held := range []int{0, 1, 1000, 20000} {
		made := 0
		var got bytes.Buffer
		err := WriteOpenMetricsRuns(&got, len(runs), func(i int) (Run, error) { made++; return runs[i], nil }, held)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), all.Bytes()) {
			t.Errorf("held %d: the exposition differs from WriteOpenMetrics' (%d bytes, %d)", held, got.Len(), all.Len())
		}
		t.Logf("held %d: %d runs made", held, made)
		if held == 0 && made != len(runs) {
			t.Errorf("three runs that fit were made %d times", made)
		}
		if held == 1000 && made <= 2*len(runs) {
			t.Errorf("three runs of some 18,000 samples, held 1,000 at a time, were made %d times: in one group", made)
		}
	}
	loadBack(t, all.Bytes(), runs...)
	boom := errors.New("boom")
	err := WriteOpenMetricsRuns(&bytes.Buffer{}, 3, func(i int) (Run, error) {
		if i == 2 {
			return Run{}, boom
		}
		return runs[i], nil
	}, 0)
	if !errors.Is(err, boom) {
		t.Errorf("a run that fails: %v", err)
	}
}

func TestGroups(t *testing.T) {
	for _, c := range []struct {
		counts []int
		held   int
		want   [][]int
	}{
		{[]int{5, 5, 5}, 10, [][]int{{0, 1}, {2}}},
		{[]int{20, 1, 1}, 10, [][]int{{0}, {1, 2}}},
		{[]int{1, 20, 1}, 10, [][]int{{0}, {1}, {2}}},
		{[]int{0, 0}, 1, [][]int{{0, 1}}},
	} {
		if got := groups(c.counts, c.held); !reflect.DeepEqual(got, c.want) {
			t.Errorf("groups(%v, %d) = %v, want %v", c.counts, c.held, got, c.want)
		}
	}
}
