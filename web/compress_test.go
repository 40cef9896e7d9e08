package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

// TestCompressed: a browser that accepts gzip gets each of the page's
// fixed answers compressed, and it decompresses to the very bytes sent to
// one that does not; the font, HEAD requests, a refusal by q=0 and the API
// that plays a shift are sent as written.
func TestCompressed(t *testing.T) {
	ts := newTestServer(t, Options{})
	for _, path := range pageView {
		plain := ts.do("GET", path, "")
		for round := 0; round < 2; round++ { // the second from the kept answer
			req := pageRequest("GET", path, "")
			req.Header.Set("Accept-Encoding", "gzip")
			rec := ts.send(req)
			if rec.Code != 200 {
				t.Fatalf("GET %s: %d", path, rec.Code)
			}
			if path == "/static/fonts/naskh-regular.woff2" {
				if rec.Header().Get("Content-Encoding") != "" || !bytes.Equal(rec.Body.Bytes(), plain.Body.Bytes()) {
					t.Errorf("the font, compressed already, was sent compressed again")
				}
				continue
			}
			if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("GET %s: Vary %q, want Accept-Encoding", path, got)
			}
			if rec.Header().Get("Content-Encoding") != "gzip" {
				t.Fatalf("GET %s with gzip accepted: Content-Encoding %q", path, rec.Header().Get("Content-Encoding"))
			}
			if rec.Header().Get("Content-Type") != plain.Header().Get("Content-Type") || rec.Header().Get("Content-Security-Policy") == "" {
				t.Errorf("GET %s: compressed answer's headers %v differ from %v", path, rec.Header(), plain.Header())
			}
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				t.Fatalf("GET %s: %v", path, err)
			}
			got, err := io.ReadAll(zr)
			if err != nil {
				t.Fatalf("GET %s: %v", path, err)
			}
			if !bytes.Equal(got, plain.Body.Bytes()) {
				t.Errorf("GET %s: decompressed %d bytes differ from the %d sent plain", path, len(got), plain.Body.Len())
			}
			if rec.Body.Len() >= plain.Body.Len() {
				t.Errorf("GET %s: %d bytes compressed, %d plain", path, rec.Body.Len(), plain.Body.Len())
			}
		}
	}
	for _, ae := range []string{"", "identity", "gzip;q=0", "br"} {
		req := pageRequest("GET", "/static/app.js", "")
		req.Header.Set("Accept-Encoding", ae)
		if rec := ts.send(req); rec.Header().Get("Content-Encoding") != "" {
			t.Errorf("Accept-Encoding %q: sent %q", ae, rec.Header().Get("Content-Encoding"))
		}
	}
	req := pageRequest("HEAD", "/static/app.js", "")
	req.Header.Set("Accept-Encoding", "gzip")
	if rec := ts.send(req); rec.Code != 200 || rec.Body.Len() != 0 {
		t.Errorf("HEAD: %d with %d bytes", rec.Code, rec.Body.Len())
	}
	req = pageRequest("POST", "/api/sessions", `{"scenario":"bad-deploy","seed":1}`)
	req.Header.Set("Accept-Encoding", "gzip")
	if rec := ts.send(req); rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("POST /api/sessions was compressed")
	}
	// Two languages asked for the metadata get their own answers.
	for _, lang := range []string{"fr", "ur"} {
		req := pageRequest("GET", "/api/meta", "")
		req.Header.Set("Accept-Encoding", "gzip")
		req.Header.Set("Accept-Language", lang)
		rec := ts.send(req)
		zr, err := gzip.NewReader(rec.Body)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(zr)
		plain := pageRequest("GET", "/api/meta", "")
		plain.Header.Set("Accept-Language", lang)
		if want := ts.send(plain).Body.Bytes(); !bytes.Equal(got, want) {
			t.Errorf("meta in %s: compressed answer is another language's", lang)
		}
	}
}
