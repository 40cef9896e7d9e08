package main

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkTeamGameDay: 30 teams of 5 members each play a whole day of
// free play at an hour a second, live, on real `oncall play` processes:
// one console on a SQLite file, and two consoles on one PostgreSQL
// database with every team's members split between them. Operations of
// each team decides twice a second. It reports:
//
//   - p50-ms, p99-ms: from a decision's acknowledgement to the moment the
//     last of its team's five members received it;
//   - cpu-µs/team-min: the consoles' CPU time (user and system, from
//     /proc) per minute of a team's shift;
//   - KiB/member: what the consoles' resident size grew by once every
//     member's stream was open, a member.
//
// Run it with: go test ./cmd/oncall -run '^$' -bench TeamGameDay -benchtime 1x
// (ONCALL_TEST_POSTGRES for the second). The figures are of this machine,
// shared and noisy: the note quotes them, no test holds them.
func BenchmarkTeamGameDay(b *testing.B) {
	for _, c := range []struct {
		name     string
		kind     string
		consoles int
	}{{"one-console-SQLite", "SQLite", 1}, {"two-consoles-PostgreSQL", "PostgreSQL", 2}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				benchTeamDay(b, c.kind, c.consoles)
			}
		})
	}
}

const (
	benchTeams   = 30
	benchMembers = 5
)

func benchTeamDay(b *testing.B, kind string, n int) {
	bin := oncallBinary(b)
	data := dataOf(b, kind)
	var cs []*process
	for range n {
		cs = append(cs, startPlay(b, bin, data))
	}
	names := make([]string, benchTeams)
	for i := range names {
		names[i] = fmt.Sprint("Team ", i+1)
	}
	var day struct {
		Facilitator string
		Teams       []struct{ Token string }
	}
	if _, err := cs[0].api("POST", "/api/teamdays", map[string]any{"scenario": "free-play", "seed": 3, "teams": names, "max_members": benchMembers}, &day); err != nil {
		b.Fatal(err)
	}
	before := rss(cs)
	roles := []string{"commander", "operations", "communications", "scribe", "observer"}
	type teamRun struct {
		token, ops string
		ops0       *process
		streams    []*stream
	}
	teams := make([]*teamRun, benchTeams)
	for i, tm := range day.Teams {
		tr := &teamRun{token: tm.Token}
		for j, r := range roles {
			p := cs[(i+j)%n]
			tok := joinOn(b, p, tm.Token, fmt.Sprint(r, i), r)
			if r == "operations" {
				tr.ops, tr.ops0 = tok, p
			}
			tr.streams = append(tr.streams, openStream(b, p.url, tm.Token))
		}
		teams[i] = tr
	}
	time.Sleep(time.Second)
	after := rss(cs)
	cpu0 := cpuTime(cs)
	start := time.Now()
	if _, err := cs[0].api("POST", "/api/facilitate/"+day.Facilitator+"/act", map[string]any{"kind": "start", "speed": 60}, nil); err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	for i, tr := range teams {
		wg.Go(func() {
			for k := 0; ; k++ {
				time.Sleep(500 * time.Millisecond)
				seq, acked, ok := tryDecide(tr.ops0, tr.token, tr.ops, 10+(i+k)%2)
				if !ok {
					return // the shift is over
				}
				for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
					var last time.Time
					all := true
					for _, s := range tr.streams {
						at, ok := s.got(seq)
						all = all && ok
						if at.After(last) {
							last = at
						}
					}
					if all {
						mu.Lock()
						lat = append(lat, last.Sub(acked))
						mu.Unlock()
						break
					}
					if time.Now().After(deadline) {
						b.Errorf("entry %d of a team did not reach its members in a minute", seq)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	cpu := cpuTime(cs) - cpu0
	if len(lat) == 0 {
		b.Fatal("no decision was measured")
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "p99-ms")
	b.ReportMetric(float64(cpu.Microseconds())/float64(benchTeams*1440), "cpu-µs/team-min")
	b.ReportMetric(float64(after-before)/1024/float64(benchTeams*benchMembers), "KiB/member")
	b.Logf("%d decisions measured over %v; consoles' CPU %v; resident %d KiB before the members, %d KiB after", len(lat), took.Round(time.Millisecond), cpu.Round(time.Millisecond), before>>10, after>>10)
}

// tryDecide sends operations' decision; false once the shift is over.
func tryDecide(p *process, token, member string, v int) (int64, time.Time, bool) {
	req := fmt.Sprintf(`{"kind":"decision","control":"min_instances","value":%d}`, v)
	seq, acked, status := postAct(p, token, member, req)
	return seq, acked, status == 200
}

// rss sums the consoles' resident sizes, in bytes (/proc/PID/status).
func rss(cs []*process) int64 {
	var n int64
	for _, p := range cs {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				n += kb << 10
			}
		}
	}
	return n
}

// cpuTime sums the consoles' user and system time (/proc/PID/stat).
func cpuTime(cs []*process) time.Duration {
	var ticks int64
	for _, p := range cs {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); i >= 0 {
			f := strings.Fields(s[i+1:])
			if len(f) > 13 {
				u, _ := strconv.ParseInt(f[11], 10, 64)
				k, _ := strconv.ParseInt(f[12], 10, 64)
				ticks += u + k
			}
		}
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ
}
