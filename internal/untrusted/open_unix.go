//go:build unix

package untrusted

import (
	"errors"
	"os"
	"syscall"
)

// open opens name for reading without following a link in its last
// element and without waiting for a writer, should it have become a FIFO.
func open(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}

// isLinkErr reports whether an error of open says its file is a link
// (O_NOFOLLOW's ELOOP).
func isLinkErr(err error) bool { return errors.Is(err, syscall.ELOOP) }
