package main

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oncall-sim/oncall/gameday"
	"github.com/oncall-sim/oncall/gameday/gamedaytest"
)

// process is an `oncall play` of the binary the tests build, on a free
// loopback port.
type process struct {
	cmd    *exec.Cmd
	url    string
	mu     sync.Mutex
	stderr bytes.Buffer
	done   chan struct{}
}

func (p *process) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.Write(b)
}

func (p *process) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// startPlay starts `oncall play --data data` and waits for its URL.
func startPlay(t *testing.T, bin, data string) *process {
	t.Helper()
	return startConsole(t, bin, "--data", data)
}

// startConsole starts `oncall play` with args on a free loopback port and
// waits for its URL.
func startConsole(t testing.TB, bin string, args ...string) *process {
	t.Helper()
	data := strings.Join(args, " ")
	p := &process{cmd: exec.Command(bin, append([]string{"play", "--addr", "127.0.0.1:0"}, args...)...), done: make(chan struct{})}
	p.cmd.Stderr = p
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if u := regexp.MustCompile(`http://\S+/`).FindString(sc.Text()); u != "" {
				urls <- strings.TrimSuffix(u, "/")
			}
		}
		io.Copy(io.Discard, out)
		p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() { p.kill() })
	select {
	case p.url = <-urls:
	case <-p.done:
		t.Fatalf("oncall play %s stopped before it served:\n%s", data, p.log())
	case <-time.After(2 * time.Minute): // a ceiling for a console that never serves
		t.Fatalf("oncall play %s printed no URL in 2 minutes:\n%s", data, p.log())
	}
	return p
}

// kill ends the process with SIGKILL, as a crash or `kill -9` would.
func (p *process) kill() {
	p.cmd.Process.Kill()
	<-p.done
}

// api sends a JSON request to the console and decodes the answer into out;
// it returns the status, or an error if no answer came.
func (p *process) api(method, path string, body, out any) (int, error) {
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, p.url+path, r)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, err
	}
	if out != nil && res.StatusCode < 300 {
		if err := json.Unmarshal(b, out); err != nil {
			return 0, fmt.Errorf("%s %s: %v: %s", method, path, err, b)
		}
	} else if res.StatusCode >= 300 {
		return res.StatusCode, fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, b)
	}
	return res.StatusCode, nil
}

type gameDayJSON struct {
	ID       string `json:"id"`
	Scenario string `json:"scenario"`
	Seed     uint32 `json:"seed"`
	Results  []struct {
		Name string `json:"name"`
	} `json:"results"`
}

func (p *process) createGameDay(t *testing.T, seed int) string {
	t.Helper()
	var g gameDayJSON
	if _, err := p.api("POST", "/api/gamedays", map[string]any{"scenario": "bad-deploy", "seed": seed}, &g); err != nil {
		t.Fatalf("%v\n%s", err, p.log())
	}
	return g.ID
}

// send posts a player's finished shift: a rollback at minute 20.
func (p *process) send(id, name string) error {
	_, err := p.api("POST", "/api/gamedays/"+id+"/results", map[string]any{"name": name, "decisions": []map[string]any{{"minute": 20, "control": "rollback"}}}, nil)
	return err
}

// names reads a game day's results through p.
func (p *process) names(t *testing.T, id string) map[string]bool {
	t.Helper()
	var g gameDayJSON
	if _, err := p.api("GET", "/api/gamedays/"+id, nil, &g); err != nil {
		t.Fatalf("%v\n%s", err, p.log())
	}
	out := map[string]bool{}
	for _, r := range g.Results {
		out[r.Name] = true
	}
	return out
}

// dataOf gives each test a fresh store of each kind.
func dataOf(t *testing.T, kind string) string {
	if kind == "PostgreSQL" {
		return gamedaytest.Postgres(t)
	}
	return filepath.Join(t.TempDir(), "gamedays.db")
}

// TestPlayTwoProcesses: two consoles on one SQLite file, and two on one
// PostgreSQL database. A game day made on one is joined on the other, and
// 50 players sending through both at once lose no result: every result
// acknowledged is read back, through either.
func TestPlayTwoProcesses(t *testing.T) {
	bin := oncallBinary(t)
	for _, kind := range []string{"SQLite", "PostgreSQL"} {
		t.Run(kind, func(t *testing.T) {
			data := dataOf(t, kind)
			a, b := startPlay(t, bin, data), startPlay(t, bin, data)
			id := a.createGameDay(t, 99)
			var g gameDayJSON
			if _, err := b.api("GET", "/api/gamedays/"+id, nil, &g); err != nil || g.Scenario != "bad-deploy" || g.Seed != 99 {
				t.Fatalf("the game day made on one console, read on the other: %+v %v", g, err)
			}
			var wg sync.WaitGroup
			errs := make(chan error, 50)
			for i := range 50 {
				wg.Go(func() {
					if err := []*process{a, b}[i%2].send(id, fmt.Sprintf("player %02d", i)); err != nil {
						errs <- err
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Errorf("a result was refused: %v", err)
			}
			for _, p := range []*process{a, b} {
				got := p.names(t, id)
				for i := range 50 {
					if name := fmt.Sprintf("player %02d", i); !got[name] {
						t.Errorf("%s's result is lost", name)
					}
				}
				if len(got) != 50 {
					t.Errorf("%d results, want 50", len(got))
				}
			}
			if t.Failed() {
				t.Logf("console A:\n%s\nconsole B:\n%s", a.log(), b.log())
			}
		})
	}
}

// TestPlayKill9: a console killed with SIGKILL while results arrive, 20
// times. Each time it starts again on the same data, and every result it
// had acknowledged before it died is there.
func TestPlayKill9(t *testing.T) {
	bin := oncallBinary(t)
	for _, kind := range []string{"SQLite", "PostgreSQL"} {
		t.Run(kind, func(t *testing.T) {
			data := dataOf(t, kind)
			rng := rand.New(rand.NewPCG(20, 26))
			acked := map[string][]string{} // game day → names acknowledged
			total := 0
			for round := range 20 {
				p := startPlay(t, bin, data)
				checkAcked(t, p, acked, round)
				id := p.createGameDay(t, round)
				acked[id] = nil
				var mu sync.Mutex
				var wg sync.WaitGroup
				for w := range 4 {
					wg.Go(func() {
						for n := 0; ; n++ {
							name := fmt.Sprintf("r%d w%d n%d", round, w, n)
							if p.send(id, name) != nil {
								return // the console died: this result was never acknowledged
							}
							mu.Lock()
							acked[id] = append(acked[id], name)
							mu.Unlock()
						}
					})
				}
				// The kill comes at a random moment once the console has
				// acknowledged a few results of this round: a state, so
				// that a slow machine kills a loaded console too.
				few := 1 + rng.IntN(8)
				for ceiling := time.Now().Add(2 * time.Minute); ; time.Sleep(5 * time.Millisecond) {
					mu.Lock()
					n := len(acked[id])
					mu.Unlock()
					if n >= few {
						break
					}
					if time.Now().After(ceiling) {
						p.kill()
						wg.Wait()
						t.Fatalf("round %d: %d results acknowledged in 2 minutes, want %d:\n%s", round, n, few, p.log())
					}
				}
				time.Sleep(time.Duration(rng.IntN(100)) * time.Millisecond)
				p.kill()
				wg.Wait()
				total += len(acked[id])
			}
			p := startPlay(t, bin, data)
			checkAcked(t, p, acked, 20)
			t.Logf("%s: %d results acknowledged before 20 kills, all read back", kind, total)
		})
	}
}

// checkAcked reads every game day back and fails for each acknowledged
// result that is missing.
func checkAcked(t *testing.T, p *process, acked map[string][]string, round int) {
	t.Helper()
	for id, names := range acked {
		got := p.names(t, id)
		for _, name := range names {
			if !got[name] {
				t.Errorf("after kill %d: %s's result in game day %s was acknowledged and is lost", round, name, id)
			}
		}
	}
}

// TestPlayRefusesData: a --data file that is damaged, another program's,
// or a malformed JSON file of game days stops play at start (exit 2) with
// the file and what is wrong, and the file is left as it was.
func TestPlayRefusesData(t *testing.T) {
	foreign := filepath.Join(t.TempDir(), "grades.db")
	db, err := sql.Open("sqlite", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE grades (student TEXT, grade TEXT)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	cases := []struct{ name, path, says string }{
		{"another program's database", foreign, "belongs to another program (tables: grades"},
		{"a damaged database", tempFile(t, "cut.db", "SQLite format 3\x00"+strings.Repeat("\x00\xff", 300)), "is damaged"},
		{"a null entry", tempFile(t, "gameday.json", "[null]\n"), "gameday.json:1: entry 1 is null"},
		{"duplicate ids", tempFile(t, "twice.json", `[{"id":"a","scenario":"surge","seed":1},`+"\n"+`{"id":"a","scenario":"surge","seed":2}]`), "twice.json:2: entry 2 has the id a of entry 1: ids must be unique"},
		{"neither", tempFile(t, "notes.txt", "game day\n"), "neither a SQLite database nor a JSON file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, _ := os.ReadFile(c.path)
			e := newTestEnv(t)
			if code := e.run("play", "--addr", "127.0.0.1:0", "--data", c.path); code != 2 || !strings.Contains(e.err.String(), c.says) || !strings.Contains(e.err.String(), c.path) {
				t.Errorf("exit %d: %s", code, e.err.String())
			}
			if after, _ := os.ReadFile(c.path); !bytes.Equal(before, after) {
				t.Error("the file was changed")
			}
			if _, err := os.Stat(gameday.ImportPath(c.path)); strings.HasSuffix(c.path, ".json") && err == nil {
				t.Error("a database was made from a file that does not import")
			}
		})
	}
}
