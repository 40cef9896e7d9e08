package web

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUrduFontCovers: the Urdu font the page ships holds every Arabic
// letter of the catalogue and of the built-in scenarios, as fontsubset.sh
// cut it from static/fonts/urdu-chars.txt; a letter added to a text without
// running the script again would show as a box on a system with no Urdu
// font.
func TestUrduFontCovers(t *testing.T) {
	have, err := fs.ReadFile(staticFiles, "static/fonts/urdu-chars.txt")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, pattern := range []string{"../i18n/catalog/*ur*.json", "../scenarios/*.lua", "../scenarios/*/*.lua"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	if len(files) < 3 {
		t.Fatalf("found only %v", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range string(b) {
			if r >= 0x0600 && r <= 0x06FF && !strings.ContainsRune(string(have), r) {
				t.Errorf("%s uses %q (U+%04X), which the page's Urdu font lacks: run sh web/fontsubset.sh", f, r, r)
			}
		}
	}
	for _, name := range []string{"naskh-regular.woff2"} {
		b, err := fs.ReadFile(staticFiles, "static/fonts/"+name)
		if err != nil {
			t.Fatal(err)
		}
		if string(b[:4]) != "wOF2" || len(b) > 40<<10 {
			t.Errorf("%s: %d bytes starting %q, not a subset woff2 of at most 40 KB", name, len(b), b[:4])
		}
	}
}
