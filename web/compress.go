package web

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/oncall-sim/oncall/i18n"
)

// What a page view loads (the page, its scripts and style, the metadata and
// the catalogues) goes out gzip-compressed to a browser that accepts it, as
// servers send text: the English view is about 126 KB as written and 40 KB
// on the wire. The answers are the same bytes for every request of a path
// (the embedded files, the catalogues and the metadata change only with the
// binary), so each is compressed once and kept; the font, already
// compressed, and every answer of the API that plays a shift go out as
// written.

// compressible says whether a GET of path is one of the page's fixed
// answers.
func compressible(path string) bool {
	return path == "/" || path == "/api/meta" ||
		(strings.HasPrefix(path, "/static/") && !strings.HasSuffix(path, ".woff2")) ||
		strings.HasPrefix(path, "/api/i18n/")
}

// gzipped is the compressed form of each fixed answer, by path, made the
// first time a browser asks for it.
type gzipped struct {
	mu     sync.Mutex
	byPath map[string]gzipAnswer
}

type gzipAnswer struct {
	status int
	header http.Header
	body   []byte
}

// acceptsGzip reads Accept-Encoding as RFC 9110 §12.5.3 writes it: gzip
// listed with no q, or a q above 0.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		q := strings.TrimSpace(params)
		if v, ok := strings.CutPrefix(q, "q="); ok {
			f, err := strconv.ParseFloat(v, 64)
			return err == nil && f > 0
		}
		return true
	}
	return false
}

// compress serves the page's fixed answers compressed where the browser
// accepts it; everything else passes through.
func (g *gzipped) compress(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method != http.MethodGet && r.Method != http.MethodHead) || !compressible(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Accept-Encoding")
		if !acceptsGzip(r) {
			next.ServeHTTP(w, r)
			return
		}
		key := r.URL.Path
		if key == "/api/meta" {
			// The metadata names the language the browser asks for
			// first; the key holds the catalogue's answer, one of six,
			// rather than the header, which a client writes as it likes.
			key += " " + i18n.Match(r.Header.Get("Accept-Language"))
		}
		g.mu.Lock()
		a, ok := g.byPath[key]
		g.mu.Unlock()
		if !ok {
			rec := &recorder{header: http.Header{}, status: http.StatusOK}
			get := r.Clone(r.Context())
			get.Method = http.MethodGet
			next.ServeHTTP(rec, get)
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			zw.Write(rec.body.Bytes())
			zw.Close()
			a = gzipAnswer{rec.status, rec.header, buf.Bytes()}
			if rec.status == http.StatusOK {
				g.mu.Lock()
				if g.byPath == nil {
					g.byPath = map[string]gzipAnswer{}
				}
				g.byPath[key] = a
				g.mu.Unlock()
			}
		}
		h := w.Header()
		for k, v := range a.header {
			h[k] = v
		}
		h.Set("Content-Encoding", "gzip")
		h.Set("Content-Length", strconv.Itoa(len(a.body)))
		w.WriteHeader(a.status)
		if r.Method != http.MethodHead {
			w.Write(a.body)
		}
	})
}

// recorder keeps an answer to compress it.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (c *recorder) Header() http.Header         { return c.header }
func (c *recorder) WriteHeader(status int)      { c.status = status }
func (c *recorder) Write(b []byte) (int, error) { return c.body.Write(b) }
