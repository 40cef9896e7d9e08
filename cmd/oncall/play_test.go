package main

import (
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// lineWriter collects output under a lock and hands each line to a channel.
type lineWriter struct {
	mu    sync.Mutex
	buf   strings.Builder
	lines chan string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for _, l := range strings.SplitAfter(string(p), "\n") {
		if strings.HasSuffix(l, "\n") {
			select {
			case w.lines <- strings.TrimSpace(l):
			default:
			}
		}
	}
	return len(p), nil
}

// TestPlay starts the console on a free loopback port, loads the page and a
// scenario list, then stops it through the interrupt channel.
func TestPlay(t *testing.T) {
	e := newTestEnv(t)
	out := &lineWriter{lines: make(chan string, 8)}
	stop := make(chan os.Signal, 1)
	e.Stdout, e.Interrupt = out, stop
	code := make(chan int, 1)
	go func() { code <- Main([]string{"play", "--addr", "127.0.0.1:0"}, &e.Env) }()
	var url string
	select {
	case line := <-out.lines:
		url = regexp.MustCompile(`http://\S+/`).FindString(line)
	case c := <-code:
		t.Fatalf("play exited with %d: %s", c, e.err.String())
	case <-time.After(20 * time.Second):
		t.Fatal("play printed no URL")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("URL %q", url)
	}
	for path, want := range map[string]string{"": "<!doctype html>", "api/meta": `"bad-deploy"`} {
		res, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Errorf("GET /%s: %d, %.100s", path, res.StatusCode, b)
		}
	}
	stop <- os.Interrupt
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit code %d: %s", c, e.err.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("play did not stop on interrupt")
	}
	if strings.Contains(e.err.String(), "warning") {
		t.Errorf("a warning on loopback: %s", e.err.String())
	}
}

// Listening beyond loopback is warned about.
func TestExposed(t *testing.T) {
	for addr, want := range map[string]bool{"127.0.0.1:8080": false, "[::1]:80": false, "0.0.0.0:8080": true, "[::]:80": true, "192.0.2.1:80": true} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := exposed(a); got != want {
			t.Errorf("%s: exposed %v, want %v", addr, got, want)
		}
	}
}

func TestPlayBadFlags(t *testing.T) {
	e := newTestEnv(t)
	if c := e.run("play", "--addr", "nonsense"); c != 2 || !strings.Contains(e.err.String(), "--addr nonsense") {
		t.Errorf("bad --addr: %d %s", c, e.err.String())
	}
	if c := e.run("play", "--scenarios", t.TempDir()+"/missing"); c != 2 || !strings.Contains(e.err.String(), "--scenarios") {
		t.Errorf("missing folder: %d %s", c, e.err.String())
	}
	bad := tempFile(t, "results.json", "not json")
	if c := e.run("play", "--data", bad); c != 2 || !strings.Contains(e.err.String(), "--data") {
		t.Errorf("bad --data: %d %s", c, e.err.String())
	}
}
