package untrusted

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// DefaultMax is the largest file Read reads when given no cap: scenarios,
// policies, reference files and traces are kilobytes to a few megabytes.
const DefaultMax = 16 << 20

// Kind is why a file was refused.
type Kind int

// The kinds of refusal.
const (
	Link     Kind = iota + 1 // a symbolic link
	Folder                   // a directory
	FIFO                     // a named pipe
	Device                   // a character or block device
	Socket                   // a Unix socket
	Other                    // anything else that is not a regular file
	TooLarge                 // above the cap, or grown past it while read
	Swapped                  // replaced between its examination and its opening
)

// Error is a file refused: its name, why, and what to do.
type Error struct {
	Path string
	Kind Kind
	Size int64 // TooLarge: the size seen
	Max  int64 // TooLarge: the cap
}

func (e *Error) Error() string {
	switch e.Kind {
	case Link:
		return fmt.Sprintf("%s is a symbolic link: oncall reads a file itself, never a link, so that no file can stand for another (name the file it points to, or copy that file in its place)", e.Path)
	case Folder:
		return fmt.Sprintf("%s is a folder, not a file", e.Path)
	case FIFO:
		return fmt.Sprintf("%s is a named pipe (FIFO), not a file: oncall reads regular files only, which end", e.Path)
	case Device:
		return fmt.Sprintf("%s is a device, not a file: oncall reads regular files only", e.Path)
	case Socket:
		return fmt.Sprintf("%s is a socket, not a file: oncall reads regular files only", e.Path)
	case TooLarge:
		if e.Size > e.Max {
			return fmt.Sprintf("%s is %s: the largest file oncall reads here is %s", e.Path, sizeText(e.Size), sizeText(e.Max))
		}
		return fmt.Sprintf("%s grew past %s while it was read: the largest file oncall reads here is %s", e.Path, sizeText(e.Max), sizeText(e.Max))
	case Swapped:
		return fmt.Sprintf("%s changed while it was opened (replaced by another file, a link or a pipe): read it again once nothing writes it", e.Path)
	}
	return fmt.Sprintf("%s is not a regular file: oncall reads regular files only", e.Path)
}

// Is makes a folder match syscall.EISDIR, as the error of reading one with
// os.ReadFile does.
func (e *Error) Is(target error) bool {
	return e.Kind == Folder && target == syscall.EISDIR
}

// ReadFile reads the regular file name, at most max bytes (0 or less:
// DefaultMax). A file that is not regular (Kind says what it is), above
// the cap, or swapped while opened is an *Error naming it; a file that
// does not exist gives an error that matches fs.ErrNotExist.
func ReadFile(name string, max int64) ([]byte, error) {
	if max <= 0 {
		max = DefaultMax
	}
	st, err := Stat(name, max)
	if err != nil {
		return nil, err
	}
	f, err := open(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && isLinkErr(pe.Err) {
			return nil, &Error{Path: name, Kind: Swapped}
		}
		return nil, err
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !opened.Mode().IsRegular() || !os.SameFile(st, opened) {
		return nil, &Error{Path: name, Kind: Swapped}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &Error{Path: name, Kind: TooLarge, Max: max}
	}
	return data, nil
}

// Stat examines name without following it and without opening it: the
// regular file's information, or an *Error saying what it is instead
// (max, when above 0, caps its size).
func Stat(name string, max int64) (fs.FileInfo, error) {
	st, err := os.Lstat(name)
	if err != nil {
		return nil, err
	}
	if err := Refuse(name, st.Mode()); err != nil {
		return nil, err
	}
	if max > 0 && st.Size() > max {
		return nil, &Error{Path: name, Kind: TooLarge, Size: st.Size(), Max: max}
	}
	return st, nil
}

// Refuse returns the *Error of a file of the given mode, as Lstat or a
// directory's listing gives it, or nil for a regular file.
func Refuse(name string, mode fs.FileMode) error {
	var k Kind
	switch {
	case mode.IsRegular():
		return nil
	case mode&fs.ModeSymlink != 0:
		k = Link
	case mode.IsDir():
		k = Folder
	case mode&fs.ModeNamedPipe != 0:
		k = FIFO
	case mode&fs.ModeDevice != 0 || mode&fs.ModeCharDevice != 0:
		k = Device
	case mode&fs.ModeSocket != 0:
		k = Socket
	default:
		k = Other
	}
	return &Error{Path: name, Kind: k}
}

// sizeText writes a size in KiB or MiB, as the messages give it.
func sizeText(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
}
