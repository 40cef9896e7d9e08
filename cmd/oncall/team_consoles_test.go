package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// stream is a member's live stream of a team's entries, read as a browser
// reads it: each event's number, kind and when it came.
type stream struct {
	mu   sync.Mutex
	seqs []int64
	kind []string
	at   map[int64]time.Time
}

func (s *stream) got(seq int64) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.at[seq]
	return t, ok
}

func (s *stream) last() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seqs) == 0 {
		return 0
	}
	return s.seqs[len(s.seqs)-1]
}

// openStream reads a team's stream on a console until the test ends.
func openStream(t testing.TB, url, token string) *stream {
	t.Helper()
	s := &stream{at: map[int64]time.Time{}}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"/api/teams/"+token+"/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("opening the stream: %v %v", res, err)
	}
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		var id int64
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				id, _ = strconv.ParseInt(line[4:], 10, 64)
			case strings.HasPrefix(line, "data: "):
				var ev struct{ Kind string }
				json.Unmarshal([]byte(line[6:]), &ev)
				s.mu.Lock()
				s.seqs, s.kind = append(s.seqs, id), append(s.kind, ev.Kind)
				s.at[id] = time.Now()
				s.mu.Unlock()
			}
		}
	}()
	return s
}

// postAct sends a member's action to a console as its page does, and
// returns the entry's number, when it was acknowledged, and the status.
func postAct(p *process, token, member, body string) (int64, time.Time, int) {
	req, _ := http.NewRequest("POST", p.url+"/api/teams/"+token+"/act", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Oncall-Member", member)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, time.Time{}, 0
	}
	defer res.Body.Close()
	acked := time.Now()
	var a struct {
		Entry struct {
			Seq int64 `json:"seq"`
		} `json:"entry"`
	}
	json.NewDecoder(res.Body).Decode(&a)
	return a.Entry.Seq, acked, res.StatusCode
}

// teamAPI sends a member's action to a console and returns the entry's
// number and when it was acknowledged.
func teamAPI(t *testing.T, p *process, token, member, path string, body any) (int64, time.Time) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", p.url+"/api/teams/"+token+path, strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	if member != "" {
		req.Header.Set("X-Oncall-Member", member)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	acked := time.Now()
	var a struct {
		Token string `json:"token"`
		Entry struct {
			Seq int64 `json:"seq"`
		} `json:"entry"`
		Error string `json:"error"`
	}
	json.NewDecoder(res.Body).Decode(&a)
	if res.StatusCode/100 != 2 {
		t.Fatalf("POST %s on %s: %d %s", path, p.url, res.StatusCode, a.Error)
	}
	if path == "/join" {
		return 0, acked
	}
	return a.Entry.Seq, acked
}

func joinOn(t testing.TB, p *process, token, name, role string) string {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"name": name, "role": role})
	res, err := http.Post(p.url+"/api/teams/"+token+"/join", "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var a struct{ Token string }
	json.NewDecoder(res.Body).Decode(&a)
	if res.StatusCode != 201 {
		t.Fatalf("joining as %s on %s: %d", role, p.url, res.StatusCode)
	}
	return a.Token
}

// TestTeamTwoConsoles: one team whose members are split across two
// consoles on one store, a SQLite file and a PostgreSQL database. Each
// entry acknowledged on one console reaches the members of both, in one
// order that every member sees, without loss or repeat; the clock held by
// one console runs the shift to its end, and both consoles and the share
// link give the same trace, byte for byte. It logs how long an entry took
// from its acknowledgement on one console to the members of the other.
func TestTeamTwoConsoles(t *testing.T) {
	bin := oncallBinary(t)
	for _, kind := range []string{"SQLite", "PostgreSQL"} {
		t.Run(kind, func(t *testing.T) {
			data := dataOf(t, kind)
			a, b := startPlay(t, bin, data), startPlay(t, bin, data)
			var day struct {
				Facilitator string
				Teams       []struct{ Token string }
			}
			if _, err := a.api("POST", "/api/teamdays", map[string]any{"scenario": "bad-deploy", "seed": 11, "teams": []string{"Blue"}}, &day); err != nil {
				t.Fatal(err)
			}
			tok := day.Teams[0].Token
			cmd := joinOn(t, a, tok, "Alex", "commander")
			ops := joinOn(t, a, tok, "Budi", "operations")
			com := joinOn(t, b, tok, "Citra", "communications")
			scr := joinOn(t, b, tok, "Dana", "scribe")
			streams := map[string]*stream{"A1": openStream(t, a.url, tok), "A2": openStream(t, a.url, tok), "B1": openStream(t, b.url, tok), "B2": openStream(t, b.url, tok)}
			var lat []time.Duration
			measure := func(seq int64, acked time.Time, on string) {
				for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
					all := true
					var lastAt time.Time
					for name, s := range streams {
						if !strings.HasPrefix(name, on) {
							continue
						}
						at, ok := s.got(seq)
						all = all && ok
						if at.After(lastAt) {
							lastAt = at
						}
					}
					if all {
						lat = append(lat, lastAt.Sub(acked))
						return
					}
					if time.Now().After(deadline) {
						t.Fatalf("entry %d acknowledged did not reach the members on console %s in a minute", seq, on)
					}
				}
			}
			for i := range 20 {
				var seq int64
				var acked time.Time
				switch i % 4 {
				case 0:
					seq, acked = teamAPI(t, a, tok, cmd, "/act", map[string]any{"kind": "step"})
					measure(seq, acked, "B")
				case 1:
					seq, acked = teamAPI(t, a, tok, ops, "/act", map[string]any{"kind": "decision", "control": "min_instances", "value": 10 + i})
					measure(seq, acked, "B")
				case 2:
					seq, acked = teamAPI(t, b, tok, com, "/act", map[string]any{"kind": "status", "state": "investigating", "text": fmt.Sprint("update ", i)})
					measure(seq, acked, "A")
				case 3:
					seq, acked = teamAPI(t, b, tok, scr, "/act", map[string]any{"kind": "note", "text": fmt.Sprint("note ", i)})
					measure(seq, acked, "A")
				}
			}
			if _, err := b.api("POST", "/api/facilitate/"+day.Facilitator+"/act", map[string]any{"kind": "inject", "inject": "hotfix-fails"}, nil); err != nil {
				t.Fatal(err)
			}
			teamAPI(t, a, tok, cmd, "/act", map[string]any{"kind": "start", "speed": 60})
			var st struct{ Done bool }
			for deadline := time.Now().Add(2 * time.Minute); !st.Done; time.Sleep(50 * time.Millisecond) {
				b.api("GET", "/api/teams/"+tok, nil, &st)
				if time.Now().After(deadline) {
					t.Fatal("the shift did not end in two minutes at an hour a second")
				}
			}
			last := int64(0)
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
				done := true
				for _, s := range streams {
					last = max(last, s.last())
					done = done && s.last() == last && last > 0
				}
				if done {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the streams did not all reach the last entry")
				}
			}
			for name, s := range streams {
				s.mu.Lock()
				for i, seq := range s.seqs {
					if seq != int64(i+1) {
						t.Errorf("member %s received %v: lost or repeated", name, s.seqs)
						break
					}
				}
				s.mu.Unlock()
			}
			ta, tb := get(t, a.url+"/api/teams/"+tok+"/trace"), get(t, b.url+"/api/teams/"+tok+"/trace")
			if ta != tb || strings.Count(ta, "\n") != 121 {
				t.Errorf("the consoles' traces differ (%d and %d bytes)", len(ta), len(tb))
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			t.Logf("%s: %d entries across two consoles, from one's acknowledgement to the other's members: median %v, worst %v", kind, len(lat), lat[len(lat)/2], lat[len(lat)-1])
			if t.Failed() {
				t.Logf("console A:\n%s\nconsole B:\n%s", a.log(), b.log())
			}
		})
	}
}
