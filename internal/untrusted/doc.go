// Package untrusted reads the files a user names on behalf of someone
// else: a student's policy in a class folder, a reference file handed to
// an autograder, a claims file and the files it names, a trace replayed.
// Such a file is a file, or it is refused with its name and why, before a
// byte of it is read:
//
//   - its own entry is examined with Lstat, never followed: a symbolic
//     link is refused, wherever it points (inside the folder too, so that
//     one student's file cannot stand for another's and have its lines
//     shown in a report), and so are folders, named pipes (FIFOs),
//     devices and sockets;
//   - it is opened with O_NOFOLLOW and O_NONBLOCK, and what was opened is
//     checked again to be the regular file examined, so that a file
//     swapped for a link or a FIFO between the two is refused too and
//     never hangs the reader;
//   - its size is checked against a cap before it is read, and the read
//     stops one byte past the cap, so that a file that grows while it is
//     read is refused rather than read without end.
//
// The folders on the way to the file are the caller's own (a course folder
// that is itself a link is followed as the operating system follows it):
// what is refused is an entry that stands for something other than itself.
//
// The package is a leaf: it imports only the standard library.
package untrusted
