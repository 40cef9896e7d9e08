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

// servePlay runs oncall play with the arguments on a free loopback port
// and returns the URL it prints and a function that stops it, checking
// that it exits with 0. Its waits have a ceiling of two minutes, for a
// console that never serves or never stops, far above what a loaded
// machine takes.
func servePlay(t *testing.T, args ...string) (*testEnv, string, func()) {
	t.Helper()
	e := newTestEnv(t)
	out := &lineWriter{lines: make(chan string, 8)}
	stop := make(chan os.Signal, 1)
	e.Stdout, e.Interrupt = out, stop
	code := make(chan int, 1)
	go func() { code <- Main(append([]string{"play", "--addr", "127.0.0.1:0"}, args...), &e.Env) }()
	var url string
	select {
	case line := <-out.lines:
		url = regexp.MustCompile(`http://\S+/`).FindString(line)
	case c := <-code:
		t.Fatalf("play exited with %d: %s", c, e.err.String())
	case <-time.After(2 * time.Minute):
		t.Fatal("play printed no URL in 2 minutes")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("URL %q", url)
	}
	return e, url, func() {
		t.Helper()
		stop <- os.Interrupt
		select {
		case c := <-code:
			if c != 0 {
				t.Errorf("exit code %d: %s", c, e.err.String())
			}
		case <-time.After(2 * time.Minute):
			t.Fatal("play did not stop on interrupt in 2 minutes")
		}
	}
}

// TestPlay starts the console on a free loopback port, loads the page and a
// scenario list, then stops it through the interrupt channel.
func TestPlay(t *testing.T) {
	e, url, stop := servePlay(t)
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
	stop()
	if strings.Contains(e.err.String(), "warning") {
		t.Errorf("a warning on loopback: %s", e.err.String())
	}
}

// TestPlayAllowHost: the console answers the names of --allow-host and
// refuses any other with a 421.
func TestPlayAllowHost(t *testing.T) {
	_, url, stop := servePlay(t, "--allow-host", "oncall.school.example,lab.example", "--allow-host", "Other.Example")
	defer stop()
	for host, want := range map[string]int{"oncall.school.example": 200, "lab.example:8080": 200, "other.example": 200, "localhost": 200, "evil.example": 421, "sub.lab.example": 421} {
		req, err := http.NewRequest("GET", url+"api/meta", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("Host %s: %d, want %d: %.200s", host, res.StatusCode, want, b)
		}
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
	for _, name := range []string{"http://oncall.example", "oncall.example:80", "oncall.example/x"} {
		if c := e.run("play", "--allow-host", name); c != 2 || !strings.Contains(e.err.String(), "--allow-host "+name+": ") || !strings.Contains(e.err.String(), "without scheme, port or path") {
			t.Errorf("--allow-host %s: %d %s", name, c, e.err.String())
		}
	}
	bad := tempFile(t, "results.json", "not json")
	if c := e.run("play", "--data", bad); c != 2 || !strings.Contains(e.err.String(), "--data") {
		t.Errorf("bad --data: %d %s", c, e.err.String())
	}
	for _, size := range []string{"1MiB", "31MiB"} {
		if c := e.run("play", "--max-memory", size); c != 2 || !strings.Contains(e.err.String(), "--max-memory") || !strings.Contains(e.err.String(), "it takes 32.0 MiB or more") {
			t.Errorf("--max-memory %s: %d %s", size, c, e.err.String())
		}
	}
	if c := e.run("play", "--max-memory", "lots"); c != 2 || !strings.Contains(e.err.String(), "--max-memory lots") {
		t.Errorf("--max-memory lots: %d %s", c, e.err.String())
	}
}

// TestConsoleURLs: a console on every address prints addresses a class can
// type (loopback first, then the machine's), never http://[::]:port/.
func TestConsoleURLs(t *testing.T) {
	ifaces := func() ([]net.Addr, error) {
		return []net.Addr{
			&net.IPNet{IP: net.ParseIP("127.0.0.1"), Mask: net.CIDRMask(8, 32)},
			&net.IPNet{IP: net.ParseIP("192.168.1.20").To4(), Mask: net.CIDRMask(24, 32)},
			&net.IPNet{IP: net.ParseIP("fe80::1"), Mask: net.CIDRMask(64, 128)},
			&net.IPNet{IP: net.ParseIP("2001:db8::5"), Mask: net.CIDRMask(64, 128)},
		}, nil
	}
	for _, c := range []struct {
		addr string
		want []string
	}{
		{"127.0.0.1:8080", []string{"http://127.0.0.1:8080/"}},
		{"[::]:45117", []string{"http://127.0.0.1:45117/", "http://192.168.1.20:45117/", "http://[2001:db8::5]:45117/"}},
		{"0.0.0.0:8080", []string{"http://127.0.0.1:8080/", "http://192.168.1.20:8080/"}},
		{"192.168.1.20:80", []string{"http://192.168.1.20:80/"}},
	} {
		a, err := net.ResolveTCPAddr("tcp", c.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := consoleURLs(a, ifaces); strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: %v, want %v", c.addr, got, c.want)
		}
	}
	if got := consoleURLs(&net.TCPAddr{IP: net.IPv6unspecified, Port: 9}, func() ([]net.Addr, error) { return nil, io.EOF }); len(got) != 1 || got[0] != "http://127.0.0.1:9/" {
		t.Errorf("without the interfaces: %v", got)
	}
}
