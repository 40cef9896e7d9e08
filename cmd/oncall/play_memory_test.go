package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// heavyPolicy is a pasted policy of 100 rules with names of 150
// characters that fire every minute: each minute adds a hundred firings
// to the session's trace and its timeline in every language, so that a
// day's session would weigh hundreds of megabytes.
func heavyPolicy() string {
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, "rule \"rule %03d %s\"\n  when minute >= 0\n  do set_shed(0)\n", i, strings.Repeat("x", 140))
	}
	return b.String()
}

// crowd is what a crowd of players got from a console: the answers by
// status, and the console's peak resident size.
type crowd struct {
	status  map[int]int
	retry   int    // 503s without Retry-After
	strange string // the first answer that is neither a step, a refusal for weight, nor a 503
	peak    int64  // VmHWM, bytes
	cpu     time.Duration
}

// playCrowd has n players start a day of free play under heavyPolicy on
// the console at once, each then stepping it ten minutes a request until
// its session is refused for its weight (422) or steps of it ran, a 503
// being tried again soon after: all of them stepping at once, which the
// console must hold within its --max-memory.
func playCrowd(tb testing.TB, p *process, n, steps int) crowd {
	client := &http.Client{Timeout: 5 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: n, MaxConnsPerHost: n}}
	post := func(path, body string) (int, []byte, string) {
		for {
			res, err := client.Post(p.url+path, "application/json", strings.NewReader(body))
			if err != nil {
				return 0, []byte(err.Error()), ""
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			ra := res.Header.Get("Retry-After")
			if res.StatusCode == http.StatusServiceUnavailable && ra != "" {
				time.Sleep(100 * time.Millisecond) // sooner than it asks: the crowd presses
			}
			return res.StatusCode, b, ra
		}
	}
	src, _ := json.Marshal(heavyPolicy())
	var mu sync.Mutex
	c := crowd{status: map[int]int{}}
	note := func(code int, body []byte, ra string) {
		mu.Lock()
		defer mu.Unlock()
		c.status[code]++
		switch {
		case code == http.StatusServiceUnavailable && ra == "":
			c.retry++
		case code != http.StatusOK && code != http.StatusCreated && code != http.StatusServiceUnavailable &&
			!(code == http.StatusUnprocessableEntity && bytes.Contains(body, []byte("memory budget"))) && c.strange == "":
			c.strange = fmt.Sprintf("%d %.300s", code, body)
		}
	}
	var start sync.WaitGroup
	start.Add(1)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			start.Wait()
			body := fmt.Sprintf(`{"scenario":"free-play","seed":%d,"autopilot":{"source":%s,"until":-1}}`, i, src)
			var id string
			for tries := 0; id == ""; tries++ {
				code, b, ra := post("/api/sessions", body)
				note(code, b, ra)
				if code == http.StatusCreated {
					var st struct{ ID string }
					json.Unmarshal(b, &st)
					id = st.ID
				} else if code != http.StatusServiceUnavailable || tries > 200 {
					return
				}
			}
			for done := 0; done < steps; {
				code, b, ra := post("/api/sessions/"+id+"/step", `{"minutes":10}`)
				note(code, b, ra)
				switch code {
				case http.StatusOK:
					done++
				case http.StatusServiceUnavailable:
				default:
					return
				}
			}
		})
	}
	start.Done()
	wg.Wait()
	c.peak, c.cpu = processPeak(tb, p.cmd.Process.Pid)
	return c
}

// processPeak reads a process's peak resident size (VmHWM) and its CPU
// time so far from /proc.
func processPeak(tb testing.TB, pid int) (int64, time.Duration) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Skipf("no /proc to read the console's peak from: %v", err)
	}
	defer f.Close()
	var peak int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			peak = kb << 10
		}
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return peak, 0
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+2:]))
	ut, _ := strconv.ParseInt(fields[11], 10, 64)
	st, _ := strconv.ParseInt(fields[12], 10, 64)
	return peak, time.Duration(ut+st) * (time.Second / 100) // clock ticks of 1/100 s, Linux's USER_HZ
}

// TestAConsoleOfHeavySessionsHoldsItsMaxMemory: 300 players stepping at
// once a day of free play under a pasted policy whose rules fire every
// minute keep the console within its --max-memory of 256 MiB (its peak
// resident size, read from /proc): the steps past the share of the work
// under way wait their turn or get a 503 with Retry-After (a session past
// its budget a 422 naming it), and steps run. Without the bound a crowd of
// the kind took the console to 3 GiB.
func TestAConsoleOfHeavySessionsHoldsItsMaxMemory(t *testing.T) {
	bin := oncallBinary(t)
	const limit = 256 << 20
	p := startConsole(t, bin, "--max-memory", "256MiB")
	c := playCrowd(t, p, 300, 2)
	t.Logf("300 heavy players: %v; peak RSS %.1f MiB of --max-memory %d MiB; CPU %.1f s", c.status, float64(c.peak)/(1<<20), limit>>20, c.cpu.Seconds())
	if c.peak > limit {
		t.Errorf("the console's peak RSS %.1f MiB is over its --max-memory of %d MiB", float64(c.peak)/(1<<20), limit>>20)
	}
	if c.strange != "" || c.retry > 0 {
		t.Errorf("an answer neither a step, a refusal for weight nor a 503 with Retry-After: %s (%d 503s without it)", c.strange, c.retry)
	}
	if c.status[http.StatusOK] == 0 {
		t.Errorf("no step ran: %v", c.status)
	}
}

// BenchmarkConsoleOfHeavySessions is the console's peak resident size
// with 300 players stepping at once a day of free play under a pasted
// heavy policy, against its --max-memory (peak-share: the peak over the
// bound), and the CPU the console spent.
func BenchmarkConsoleOfHeavySessions(b *testing.B) {
	bin, err := buildBinary()
	if err != nil {
		b.Fatal(err)
	}
	const limit = 256 << 20
	var total atomic.Int64
	for b.Loop() {
		b.StopTimer()
		p := startConsole(b, bin, "--max-memory", "256MiB")
		b.StartTimer()
		c := playCrowd(b, p, 300, 4)
		b.StopTimer()
		total.Add(1)
		b.ReportMetric(float64(c.peak)/(1<<20), "peak-MiB")
		b.ReportMetric(float64(c.peak)/limit, "peak-share")
		b.ReportMetric(c.cpu.Seconds(), "console-cpu-s")
		b.ReportMetric(float64(c.status[http.StatusServiceUnavailable]), "503s")
		p.kill()
		b.StartTimer()
	}
}

// TestAConsoleOfStalledBodiesHoldsItsMaxMemory: 3,000 connections each
// sending the start of a 261 KB body in chunks and then nothing keep the
// console within its --max-memory of 256 MiB: past the share of what
// requests send, a body gets a 503 with Retry-After before a byte of it
// is read, past the share of connections a connection gets one at once,
// and once they are gone the console serves. Without the bounds the same
// bodies took 956 MiB.
func TestAConsoleOfStalledBodiesHoldsItsMaxMemory(t *testing.T) {
	bin := oncallBinary(t)
	const limit = 256 << 20
	p := startConsole(t, bin, "--max-memory", "256MiB")
	addr := strings.TrimPrefix(p.url, "http://")
	head := "POST /api/sessions HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
	chunk := fmt.Sprintf("%x\r\n%s\r\n", 200<<10, strings.Repeat(" ", 200<<10))
	var wg sync.WaitGroup
	var mu sync.Mutex
	status := map[string]int{}
	var conns []net.Conn
	for range 3000 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		conns = append(conns, c)
		wg.Go(func() {
			c.SetDeadline(time.Now().Add(5 * time.Second))
			c.Write([]byte(head + chunk)) // then nothing: the body stalls
			line, err := bufio.NewReader(c).ReadString('\n')
			key := strings.TrimSpace(line)
			if err != nil {
				key = "no answer yet"
			}
			mu.Lock()
			status[key]++
			mu.Unlock()
		})
	}
	wg.Wait()
	peak, _ := processPeak(t, p.cmd.Process.Pid)
	for _, c := range conns {
		c.Close()
	}
	t.Logf("3,000 stalled bodies: %v; peak RSS %.1f MiB of --max-memory %d MiB", status, float64(peak)/(1<<20), limit>>20)
	if peak > limit {
		t.Errorf("the console's peak RSS %.1f MiB is over its --max-memory of %d MiB", float64(peak)/(1<<20), limit>>20)
	}
	if status["HTTP/1.1 503 Service Unavailable"] == 0 {
		t.Errorf("no body or connection was answered 503: %v", status)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		var meta map[string]any
		code, err := p.api("GET", "/api/meta", nil, &meta)
		if code == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the console does not serve once the bodies are gone: %d %v", code, err)
		}
	}
}
