package builtins

// Helpers shared by the data group (jq, diff, cmp, patch, od, xxd,
// hexdump, strings, base64, checksums, tar, gzip, zip).

import (
	"bufio"
	"context"
	"io"
	"io/fs"
	"os"
	"sort"
	"syscall"
)

// dataBufSize is the buffer size for streaming reads and writes.
const dataBufSize = 64 << 10

// dataOpen opens a user-named input; "-" is standard input, which is
// never closed.
func dataOpen(env *Env, name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(env.Stdin), nil
	}
	return env.Open(name)
}

// dataWriter buffers stdout; callers Flush at the end and before reads
// that may block.
func dataWriter(env *Env) *bufio.Writer { return bufio.NewWriterSize(env.Stdout, dataBufSize) }

// dataCancelled reports whether ctx is done.
func dataCancelled(ctx context.Context) bool { return ctx.Err() != nil }

// dataCtxReader makes a long copy stop promptly when ctx is cancelled.
type dataCtxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c dataCtxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// dataIsDir reports whether err says a directory was given where a file
// was expected.
func dataIsDir(err error) bool {
	var pe *fs.PathError
	if e, ok := err.(*fs.PathError); ok {
		pe = e
	}
	return pe != nil && pe.Err == syscall.EISDIR
}

// dataReadFull reads into buf until it is full or input ends; it returns
// the count and a non-EOF error.
func dataReadFull(r io.Reader, buf []byte) (int, error) {
	n, err := io.ReadFull(r, buf)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	return n, err
}

// dataCLocale reports whether messages are in the C/POSIX locale.
func dataCLocale(env *Env) bool {
	loc := env.Getenv("LC_ALL")
	if loc == "" {
		loc = env.Getenv("LC_MESSAGES")
	}
	if loc == "" {
		loc = env.Getenv("LANG")
	}
	return loc == "" || loc == "C" || loc == "POSIX"
}

// errDataNotDir is ENOTDIR for paths that exist but are not directories.
var errDataNotDir = syscall.ENOTDIR

// dataCreateFlags open a file for writing from scratch.
const dataCreateFlags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC

func dataSortStrings(s []string) { sort.Strings(s) }

// dataWriteErr reports a write error a bufio.Writer is holding: Write of
// nothing returns it without writing.
func dataWriteErr(w *bufio.Writer) error {
	_, err := w.Write(nil)
	return err
}
