package web

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/oncall-sim/oncall/i18n"
)

// keyPattern finds the catalogue keys the page names literally: in t("..."),
// data-i18n="..." and the key lists of the script, and those the server
// writes for the page (the timeline's lines).
var keyPattern = regexp.MustCompile(`"((?:ui|switch|unit|model|metric|control|outcome|event|constant)\.[a-z0-9_.]*[a-z0-9_])"`)

func staticKeys(t *testing.T) map[string]bool {
	t.Helper()
	used := map[string]bool{}
	entries, err := staticFiles.ReadDir("static")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() { // the fonts
			continue
		}
		b, err := staticFiles.ReadFile("static/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range keyPattern.FindAllStringSubmatch(string(b), -1) {
			used[m[1]] = true
		}
	}
	sources, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range sources {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range keyPattern.FindAllStringSubmatch(string(b), -1) {
			used[m[1]] = true
		}
	}
	return used
}

// TestUIKeys: every ui.* key of ui.en.json is used by the page, and every
// key the page names exists in the catalogue.
func TestUIKeys(t *testing.T) {
	b, err := os.ReadFile("../i18n/catalog/ui.en.json")
	if err != nil {
		t.Fatal(err)
	}
	var ui map[string]string
	if err := json.Unmarshal(b, &ui); err != nil {
		t.Fatal(err)
	}
	used := staticKeys(t)
	var unused, missing []string
	for k := range ui {
		if base, _ := i18n.PluralBase(k); !used[base] { // a plural message is used by its base key
			unused = append(unused, k)
		}
	}
	for k := range used {
		if _, ok := ui[k]; !ok && !i18n.Has(k) && !i18n.Has(k+i18n.PluralSep+"other") {
			missing = append(missing, k)
		}
	}
	sort.Strings(unused)
	sort.Strings(missing)
	if len(unused) > 0 {
		t.Errorf("ui.en.json has keys the page never uses: %s", strings.Join(unused, ", "))
	}
	if len(missing) > 0 {
		t.Errorf("the page uses keys the catalogue lacks: %s", strings.Join(missing, ", "))
	}
	if len(used) < 50 {
		t.Errorf("found only %d keys in the page: is the scan broken?", len(used))
	}
}

// TestPageSize: what one page view loads — the page, its script, style and
// number formats, the metadata and one language, Urdu with its font and
// English beside it: the heaviest view — is at most 160 KB (150 before the
// dependency, the breaker, the rollout's controls and the log lines brought
// their texts; an English view is about 122 KB).
func TestPageSize(t *testing.T) {
	ts := newTestServer(t, Options{})
	total := 0
	for _, path := range []string{"/", "/static/app.js", "/static/chart.js", "/static/format.js", "/static/projection.js", "/static/app.css", "/api/meta", "/api/i18n/en", "/api/i18n/ur", "/static/fonts/naskh-regular.woff2"} {
		rec := ts.do("GET", path, "")
		if rec.Code != 200 {
			t.Fatalf("GET %s: %d", path, rec.Code)
		}
		t.Logf("%-20s %6d bytes", path, rec.Body.Len())
		total += rec.Body.Len()
	}
	t.Logf("total %d bytes (%.1f KB)", total, float64(total)/1024)
	if total > 160*1024 {
		t.Errorf("one page view loads %d bytes, more than 160 KB", total)
	}
}

// TestCataloguesComplete: every language's ui.<lang>.json has every key of
// ui.en.json and no other, so that no English shows through in another
// language (the catalogue itself fills a missing key with English).
func TestCataloguesComplete(t *testing.T) {
	read := func(lang string) map[string]string {
		b, err := os.ReadFile("../i18n/catalog/ui." + lang + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]string
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("ui.%s.json: %v", lang, err)
		}
		return m
	}
	en := read("en")
	for _, l := range i18n.Languages() {
		if l.Code == "en" {
			continue
		}
		cat := read(l.Code)
		var missing, extra []string
		// Plural forms differ by language; the catalogue's tests hold them
		// to CLDR's rules.
		for k := range en {
			if _, form := i18n.PluralBase(k); form == "" && strings.TrimSpace(cat[k]) == "" {
				missing = append(missing, k)
			}
		}
		for k := range cat {
			if _, ok := en[k]; !ok && !strings.Contains(k, i18n.PluralSep) {
				extra = append(extra, k)
			}
		}
		sort.Strings(missing)
		sort.Strings(extra)
		if len(missing)+len(extra) > 0 {
			t.Errorf("ui.%s.json lacks %v and has unused %v", l.Code, missing, extra)
		}
	}
}
