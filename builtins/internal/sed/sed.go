// Package sed is a GNU-compatible sed engine: a parser that compiles
// scripts into a flat program of commands, and an executor that runs the
// program over a stream of input lines.
//
// The engine never touches the host: every file it reads or writes (input
// files, r/R/w/W targets, in-place edits) and every command it runs (the e
// command and the s///e flag) goes through the functions in IO.
package sed

import (
	"context"
	"fmt"
	"io"
)

// Posixicity is how strictly the engine follows POSIX, as in GNU sed.
type Posixicity int

const (
	// PosixExtended is the default: every GNU extension is on.
	PosixExtended Posixicity = iota
	// PosixCorrect is set by the POSIXLY_CORRECT environment variable.
	PosixCorrect
	// PosixBasic is --posix: GNU extensions are refused.
	PosixBasic
)

// Options are the command-line switches that change how a script is
// compiled and run.
type Options struct {
	Quiet      bool // -n
	Extended   bool // -E, -r
	Separate   bool // -s (implied by -i)
	NullData   bool // -z
	Unbuffered bool // -u
	Sandbox    bool // --sandbox: refuse e, r and w
	Posix      Posixicity
	// LineWrap is the default wrap width of the l command (-l N); 0 means
	// never wrap.
	LineWrap int
	// InPlace turns on -i; InPlaceSuffix is the backup suffix ("" for
	// none). A '*' in the suffix stands for the file's name.
	InPlace       bool
	InPlaceSuffix string
	// UTF8 makes y and case conversion work on UTF-8 characters instead of
	// bytes, as GNU sed does in a UTF-8 locale.
	UTF8 bool
	// MaxLine bounds the pattern and hold spaces (and a line read into
	// them); past it sed stops with a fatal error. 0 means no bound.
	MaxLine int
}

// Script is one piece of program text: an -e expression or the contents
// of an -f file. Pieces are compiled in order as one program.
type Script struct {
	Text []byte
	File string // name of the -f file; "" for an -e expression
	// Opt, when not nil, holds the options given before this piece on the
	// command line: GNU sed compiles each -e and -f as it meets it, so
	// "sed -e 's/(a)/x/' -E" uses basic regular expressions.
	Opt *Options
}

// InPlaceFile receives the new contents of a file edited with -i.
type InPlaceFile interface {
	io.Writer
	// Commit replaces the original file by the new contents, first
	// renaming the original to backup when backup is not "".
	Commit(backup string) error
	// Abort discards the new contents.
	Abort()
}

// IO is everything the engine may use to reach the outside world.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	// Open opens a file for reading: an input file, or the file of an r or
	// R command.
	Open func(name string) (io.ReadCloser, error)
	// Create creates or truncates the file of a w or W command or of the w
	// flag of s.
	Create func(name string) (io.WriteCloser, error)
	// Edit starts editing name in place. It fails when name is not a
	// regular file.
	Edit func(name string) (InPlaceFile, error)
	// Exec runs a shell command line with its standard output going to
	// stdout, and returns its exit status.
	Exec func(ctx context.Context, cmdline string, stdout io.Writer) int
	// ErrText renders an error the way GNU tools do ("No such file or
	// directory"); err.Error() is used when it is nil.
	ErrText func(error) string
	// Name is the program name used in messages ("sed").
	Name string
}

// Error is a failure that ends sed: a bad script, or a fatal runtime
// problem. Status is the exit status GNU sed uses for it.
type Error struct {
	Msg    string
	Status int
}

func (e *Error) Error() string { return e.Msg }

// Exit statuses, as in GNU sed.
const (
	exitBadUsage = 1
	exitBadInput = 2
	exitPanic    = 4
)

func (io *IO) errText(err error) string {
	if io.ErrText != nil {
		return io.ErrText(err)
	}
	return err.Error()
}

func (io *IO) name() string {
	if io.Name != "" {
		return io.Name
	}
	return "sed"
}

// warnf prints a "sed: ..." message on stderr.
func (io *IO) warnf(format string, a ...any) {
	fmt.Fprintf(io.Stderr, "%s: %s\n", io.name(), fmt.Sprintf(format, a...))
}
