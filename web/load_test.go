package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"
	"time"
)

// loadClient steps many sessions at once over loopback HTTP.
type loadClient struct {
	url    string
	client *http.Client
}

func newLoad(tb testing.TB, sessions int) (*loadClient, []string) {
	tb.Helper()
	ts := newTestServer(tb, Options{})
	srv := httptest.NewServer(ts.h)
	tb.Cleanup(srv.Close)
	tr := &http.Transport{MaxIdleConns: sessions * 2, MaxIdleConnsPerHost: sessions * 2}
	tb.Cleanup(tr.CloseIdleConnections)
	// The timeout is a ceiling for a request that never ends, far above
	// what a hundred steps at once take on a loaded machine.
	lc := &loadClient{url: srv.URL, client: &http.Client{Transport: tr, Timeout: 2 * time.Minute}}
	ids := make([]string, sessions)
	for i := range ids {
		id, err := lc.create(i)
		if err != nil {
			tb.Fatal(err)
		}
		ids[i] = id
	}
	return lc, ids
}

func (lc *loadClient) post(path, body string) ([]byte, int, error) {
	res, err := lc.client.Post(lc.url+path, "application/json", bytes.NewBufferString(body))
	if err != nil {
		return nil, 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return b, res.StatusCode, err
}

func (lc *loadClient) create(seed int) (string, error) {
	b, code, err := lc.post("/api/sessions", fmt.Sprintf(`{"scenario":"free-play","seed":%d}`, seed))
	if err != nil || code != http.StatusCreated {
		return "", fmt.Errorf("create: %d %v %s", code, err, b)
	}
	var st struct{ ID string }
	return st.ID, json.Unmarshal(b, &st)
}

// round steps every session one minute at once and returns the latencies.
func (lc *loadClient) round(ids []string) ([]time.Duration, error) {
	lat := make([]time.Duration, len(ids))
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			began := time.Now()
			b, code, err := lc.post("/api/sessions/"+id+"/step", `{"minutes":1}`)
			lat[i] = time.Since(began)
			if err == nil && code != http.StatusOK {
				err = fmt.Errorf("step: %d %s", code, b)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return lat, nil
}

func percentile(lat []time.Duration, p float64) time.Duration {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return lat[min(len(lat)-1, int(p*float64(len(lat))))]
}

// BenchmarkStep100Sessions: 100 sessions step one minute each at the same
// time over loopback; it reports the 50th and 99th percentile of a step.
func BenchmarkStep100Sessions(b *testing.B) {
	lc, ids := newLoad(b, 100)
	if _, err := lc.round(ids); err != nil { // open the connections
		b.Fatal(err)
	}
	var all []time.Duration
	played := 1
	b.ResetTimer()
	for range b.N {
		if played == 1400 { // free play lasts 1440 minutes: start new shifts
			b.StopTimer()
			for i := range ids {
				id, err := lc.create(i)
				if err != nil {
					b.Fatal(err)
				}
				ids[i] = id
			}
			played = 0
			b.StartTimer()
		}
		lat, err := lc.round(ids)
		if err != nil {
			b.Fatal(err)
		}
		played++
		all = append(all, lat...)
	}
	b.ReportMetric(float64(percentile(all, 0.50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(all, 0.99).Microseconds())/1000, "p99-ms")
}

// players steps every session once per tick, each with its own phase, as
// 100 pages playing at the console's fastest speed do (a request every
// 50 ms), and returns the latencies.
func (lc *loadClient) players(ids []string, ticks int, tick time.Duration) ([]time.Duration, error) {
	lat := make([][]time.Duration, len(ids))
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(tick * time.Duration(i) / time.Duration(len(ids)))
			next := time.Now()
			for range ticks {
				began := time.Now()
				b, code, err := lc.post("/api/sessions/"+id+"/step", `{"minutes":1}`)
				lat[i] = append(lat[i], time.Since(began))
				if err == nil && code != http.StatusOK {
					err = fmt.Errorf("step: %d %s", code, b)
				}
				if err != nil {
					errs[i] = err
					return
				}
				next = next.Add(tick)
				time.Sleep(time.Until(next))
			}
		}()
	}
	wg.Wait()
	var all []time.Duration
	for i := range ids {
		if errs[i] != nil {
			return nil, errs[i]
		}
		all = append(all, lat[i]...)
	}
	return all, nil
}

// BenchmarkStep100Players: 100 sessions played at once as pages play them
// at the fastest speed, one step every 50 ms each (2,000 steps a second in
// all); it reports the 50th and 99th percentile of a step. Each iteration
// is one tick of every player.
func BenchmarkStep100Players(b *testing.B) {
	lc, ids := newLoad(b, 100)
	if _, err := lc.round(ids); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	all, err := lc.players(ids, min(b.N, 1400), 50*time.Millisecond)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(percentile(all, 0.50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(all, 0.99).Microseconds())/1000, "p99-ms")
}

// TestLoad is the bounded load test: 100 sessions, 30 rounds of one-minute
// steps at once, no error. It logs the percentiles; the 5 ms budget is
// shown by BenchmarkStep100Sessions, not asserted on a shared machine.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test skipped in -short mode")
	}
	lc, ids := newLoad(t, 100)
	if _, err := lc.round(ids); err != nil { // open the connections
		t.Fatal(err)
	}
	var all []time.Duration
	for range 30 {
		lat, err := lc.round(ids)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, lat...)
	}
	t.Logf("all at the same instant, %d steps: p50 %v, p99 %v", len(all), percentile(all, 0.5), percentile(all, 0.99))
	all, err := lc.players(ids, 20, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("playing at the fastest speed, %d steps: p50 %v, p99 %v", len(all), percentile(all, 0.5), percentile(all, 0.99))
}

// BenchmarkStepHandler is the server's own cost of a one-minute step,
// without the network: decode, step the engine, write the row.
func BenchmarkStepHandler(b *testing.B) {
	ts := newTestServer(b, Options{})
	var st state
	ts.doJSON(b, "POST", "/api/sessions", map[string]any{"scenario": "free-play", "seed": 1}, &st)
	path := "/api/sessions/" + st.ID + "/step"
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if i%1400 == 1399 {
			b.StopTimer()
			ts.doJSON(b, "POST", "/api/sessions", map[string]any{"scenario": "free-play", "seed": i}, &st)
			path = "/api/sessions/" + st.ID + "/step"
			b.StartTimer()
		}
		rec := httptest.NewRecorder()
		ts.h.ServeHTTP(rec, pageRequest("POST", path, `{"minutes":1}`))
		if rec.Code != http.StatusOK {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
}
