package builtins

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// zFormat is one compressed format the bzip2 and xz families handle
// through zRun: how to read (and, when the format can, write) it, and
// how its tool words its messages.
type zFormat struct {
	tool     string      // bzip2, xz: the name in messages about options
	suffixes [][2]string // compressed suffix → what replaces it
	reader   func(io.Reader) (io.Reader, error)
	writer   func(io.Writer) (io.WriteCloser, error) // nil: decompression only
	// bzip2 and xz word the same failures differently.
	noInput    func(name string, err error) string
	exists     func(out string) string
	notFormat  func(name string) string
	badData    func(name string, err error) string
	dataStatus int // bzip2 exits 2 for bad data, xz 1
}

const zUsage = `Usage: %[1]s [OPTION]... [FILE]...
%[2]s FILEs, or standard input when there is none or FILE is -.

  -z, --compress      force compression%[3]s
  -d, --decompress    force decompression
  -t, --test          test compressed file integrity
  -c, --stdout        write to standard output and don't delete input files
  -k, --keep          keep (don't delete) input files
  -f, --force         force overwrite of output file
  -q, --quiet         suppress noncritical error messages
  -v, --verbose       be verbose
  -1 .. -9            compression preset (accepted)
      --help          display this help and exit

The names bunzip2/unxz decompress and bzcat/xzcat decompress to standard
output. A decompressed file counts against --max-file-size and
--max-fs-bytes as it is written, so a decompression bomb stops there.
`

// zUsageFor is the --help text of one name of the family.
func zUsageFor(name, what, compress string) string { return fmt.Sprintf(zUsage, name, what, compress) }

var zGetopt = Getopt{Short: "zdtckfqvsL123456789eT:M:V", Long: []string{"compress", "decompress", "uncompress", "test", "stdout", "to-stdout",
	"keep", "force", "quiet", "verbose", "small", "fast", "best", "threads=", "memlimit=", "version"},
	LongAlias: map[string]string{"compress": "z", "decompress": "d", "uncompress": "d", "test": "t", "stdout": "c", "to-stdout": "c",
		"keep": "k", "force": "f", "quiet": "q", "verbose": "v", "small": "s", "fast": "1", "best": "9", "threads": "T", "memlimit": "M", "version": "V"}}

type zRun struct {
	ctx                      context.Context
	env                      *Env
	f                        *zFormat
	name                     string // as called
	decompress, stdout       bool
	keep, force, test, quiet bool
	status                   int
}

// zMain runs a bzip2/xz family command; decompress and stdout are what
// its name implies (bunzip2, xzcat).
func zMain(ctx context.Context, env *Env, f *zFormat, args []string, decompress, stdout bool) int {
	z := &zRun{ctx: ctx, env: env, f: f, name: args[0], decompress: decompress, stdout: stdout}
	opts, files, err := zGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(z.name, err, 1)
	}
	for _, o := range opts {
		switch o.Name {
		case "z":
			z.decompress = false
		case "d":
			z.decompress = true
		case "t":
			z.test, z.decompress = true, true
		case "c":
			z.stdout = true
		case "k":
			z.keep = true
		case "f":
			z.force = true
		case "q":
			z.quiet = true
		case "V":
			fmt.Fprintf(env.Stdout, "%s (sandsh)\n", f.tool)
			return 0
		}
	}
	if !z.decompress && f.writer == nil {
		env.Errorf(z.name, "compression is not available in the sandbox (decompression is: %s -d)", f.tool)
		return 1
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		if ctx.Err() != nil {
			return 130
		}
		z.one(name)
		if z.status == StatusBrokenPipe || z.status == 130 {
			break
		}
	}
	return z.status
}

func (z *zRun) fail(status int, msg string) {
	z.env.Errorf(z.name, "%s", msg)
	z.status = max(z.status, status)
}

func (z *zRun) one(name string) {
	if name == "-" {
		z.stream(z.env.Stdin, "(stdin)", z.env.Stdout)
		return
	}
	in, err := z.env.Open(name)
	if err != nil {
		z.fail(1, z.f.noInput(name, err))
		return
	}
	defer in.Close()
	if z.stdout || z.test {
		z.stream(in, name, z.env.Stdout)
		return
	}
	out := z.outName(name)
	if out == "" {
		return
	}
	abs := z.env.Abs(out)
	if _, err := z.env.FS.Stat(abs); err == nil && !z.force {
		z.fail(1, z.f.exists(out))
		return
	}
	fi, _ := filesStat(z.env, name)
	w, err := filesCreate(z.env.FS, abs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		z.fail(1, fmt.Sprintf("%s: %s", out, ErrText(err)))
		return
	}
	ok := z.stream(in, name, w)
	if cerr := w.Close(); cerr != nil && ok {
		z.fail(1, fmt.Sprintf("%s: %s", out, ErrText(cerr)))
		ok = false
	}
	if !ok {
		z.env.FS.Remove(abs) // as both tools do: no half-written output
		return
	}
	if fi != nil {
		z.env.FS.Chmod(abs, fi.Mode().Perm())
		z.env.FS.Chtimes(abs, fi.ModTime(), fi.ModTime())
	}
	if !z.keep {
		if err := z.env.FS.Remove(z.env.Abs(name)); err != nil {
			z.fail(1, fmt.Sprintf("%s: %s", name, ErrText(err)))
		}
	}
}

// outName is the output file's name, or "" when the input is skipped.
func (z *zRun) outName(name string) string {
	if !z.decompress {
		return name + z.f.suffixes[0][0]
	}
	for _, s := range z.f.suffixes {
		if strings.HasSuffix(name, s[0]) && len(name) > len(s[0]) {
			return strings.TrimSuffix(name, s[0]) + s[1]
		}
	}
	if z.f.tool == "bzip2" {
		if !z.quiet {
			z.env.Errorf(z.name, "Can't guess original name for %s -- using %s.out", name, name)
		}
		return name + ".out"
	}
	z.fail(1, fmt.Sprintf("%s: Filename has an unknown suffix, skipping", name))
	return ""
}

// stream (de)compresses r into w, checking the run's context between
// pieces; it reports whether all went well.
func (z *zRun) stream(r io.Reader, name string, w io.Writer) bool {
	if z.test {
		w = io.Discard
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var err error
	if z.decompress {
		var dr io.Reader
		if dr, err = z.f.reader(bufio.NewReaderSize(r, 64<<10)); err != nil {
			z.fail(z.f.dataStatus, z.f.notFormat(name))
			return false
		}
		err = zCopy(z.ctx, bw, dr)
	} else {
		var cw io.WriteCloser
		if cw, err = z.f.writer(bw); err == nil {
			if err = zCopy(z.ctx, cw, r); err == nil {
				err = cw.Close()
			}
		}
	}
	if err == nil {
		err = bw.Flush()
	}
	var we zWriteErr
	switch {
	case err == nil:
		return true
	case ctxDone(err):
		z.status = 130
	case errors.As(err, &we), errors.Is(err, bufio.ErrBufferFull):
		if IsBrokenPipe(we.err) {
			z.status = StatusBrokenPipe
			return false
		}
		z.fail(1, fmt.Sprintf("%s: %s", name, ErrText(we.err)))
	case IsBrokenPipe(err):
		z.status = StatusBrokenPipe
	default:
		z.fail(z.f.dataStatus, z.f.badData(name, err))
	}
	return false
}

// zWriteErr marks a failed write (a limit, a closed pipe), to tell it
// from corrupt input.
type zWriteErr struct{ err error }

func (e zWriteErr) Error() string { return e.err.Error() }

// zCopy copies r to w in 64 KiB pieces, checking ctx between them.
func zCopy(ctx context.Context, w io.Writer, r io.Reader) error {
	buf := make([]byte, 64<<10)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, rerr := r.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return zWriteErr{werr}
			}
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return rerr
		}
	}
}

// zPeeker gives r a Peek.
func zPeeker(r io.Reader) *bufio.Reader {
	if br, ok := r.(*bufio.Reader); ok {
		return br
	}
	return bufio.NewReader(r)
}
