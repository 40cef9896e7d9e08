package untrusted

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadFileRefusesWhatIsNotAFile: each kind of entry that is not a
// regular file is refused before it is opened, with its name and what it
// is; a link is refused wherever it points, inside the folder too.
func TestReadFileRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.rules")
	if err := os.WriteFile(file, []byte("rule \"r\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := func(name, target string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "pipe.rules")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		kind Kind
		says string
	}{
		{link("passwd.rules", "/etc/passwd"), Link, "is a symbolic link"},
		{link("zero.rules", "/dev/zero"), Link, "is a symbolic link"},
		{link("inside.rules", "a.rules"), Link, "is a symbolic link"},
		{link("loop.rules", "loop.rules"), Link, "is a symbolic link"},
		{link("dir.rules", dir), Link, "is a symbolic link"},
		{link("nowhere.rules", "missing"), Link, "is a symbolic link"},
		{fifo, FIFO, "is a named pipe (FIFO)"},
		{"/dev/zero", Device, "is a device"},
		{dir, Folder, "is a folder"},
	} {
		_, err := ReadFile(c.path, 0)
		var e *Error
		if !errors.As(err, &e) || e.Kind != c.kind || !strings.Contains(err.Error(), c.path+" "+c.says) {
			t.Errorf("%s: %v, want %q naming the file", c.path, err, c.says)
		}
	}
	if _, err := ReadFile(dir, 0); !errors.Is(err, syscall.EISDIR) {
		t.Errorf("a folder: %v, want an error matching EISDIR", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
	if b, err := ReadFile(file, 0); err != nil || string(b) != "rule \"r\"\n" {
		t.Errorf("a regular file: %q, %v", b, err)
	}
}

// TestReadFileCapsTheSize: a file above the cap is refused from its size,
// naming the file, its size and the cap; one at the cap is read.
func TestReadFileCapsTheSize(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(p, make([]byte, 3<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(p, 2<<10)
	var e *Error
	if !errors.As(err, &e) || e.Kind != TooLarge || err.Error() != p+" is 3.0 KiB: the largest file oncall reads here is 2.0 KiB" {
		t.Errorf("%v", err)
	}
	if b, err := ReadFile(p, 3<<10); err != nil || len(b) != 3<<10 {
		t.Errorf("at the cap: %d bytes, %v", len(b), err)
	}
}

// TestOpenNeverWaitsForAWriter: the open ReadFile makes of a FIFO it was
// not told of (one swapped in after the examination) returns at once
// rather than waiting for a writer, and what it opened is then refused.
func TestOpenNeverWaitsForAWriter(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := open(fifo)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Mode().IsRegular() {
		t.Fatalf("%v %v", st, err)
	}
}
