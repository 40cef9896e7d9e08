package engine

import "testing"

// Queue is the minute's own computation: the reference figures of free play
// at minute 0 come out of it.
func TestQueueReference(t *testing.T) {
	q := Queue(1125, 0.0742478, 160, 2)
	if q.Timeouts != 0 || q.Failed != 0 {
		t.Errorf("errors at the reference load: %+v", q)
	}
	if d := q.P99MS - 341.92; d < -0.01 || d > 0.01 {
		t.Errorf("p99 = %v, want 341.92", q.P99MS)
	}
	over := Queue(1.05*160/0.075, 0.075, 160, 2)
	if d := over.Failed - 0.047619; d < -1e-6 || d > 1e-6 || over.P99MS != 2000 {
		t.Errorf("at ρ = 1.05: %+v, want failed 0.047619, p99 2000", over)
	}
}
