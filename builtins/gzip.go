package builtins

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"time"
)

const dataGzipUsage = `Usage: gzip [OPTION]... [FILE]...
Compress or uncompress FILEs (by default, compress FILES in-place).

  -c, --stdout      write on standard output, keep original files unchanged
  -d, --decompress  decompress
  -f, --force       force overwrite of output file
  -k, --keep        keep (don't delete) input files
  -l, --list        list compressed file contents
  -n, --no-name     do not save or restore the original name and timestamp
  -N, --name        save or restore the original name and timestamp
  -q, --quiet       suppress all warnings
  -r, --recursive   operate recursively on directories
  -S, --suffix=SUF  use suffix SUF on compressed files
  -t, --test        test compressed file integrity
  -v, --verbose     verbose mode
  -1, --fast        compress faster
  -9, --best        compress better

With no FILE, or when FILE is -, read standard input.
`

// dataGzip is one gzip/gunzip/zcat invocation.
type dataGzip struct {
	ctx                             context.Context
	env                             *Env
	name                            string
	stdout, decompress, force, keep bool
	list, noName, saveName, quiet   bool
	recursive, test, verbose        bool
	level                           int
	suffix                          string
	status                          int
	out                             *bufio.Writer
	listedHeader                    bool
	totalComp, totalUncomp, listed  int64
}

func runGzip(ctx context.Context, env *Env, args []string) int {
	return dataRunGzip(ctx, env, args, false, false)
}

var gzipGetopt = Getopt{Short: "cdfklnNqrS:tvV123456789", Long: []string{"stdout", "to-stdout", "decompress", "uncompress",
	"force", "keep", "list", "no-name", "name", "quiet", "recursive", "suffix=", "test", "verbose", "fast", "best"},
	LongAlias: map[string]string{"stdout": "c", "to-stdout": "c", "decompress": "d", "uncompress": "d", "force": "f",
		"keep": "k", "list": "l", "no-name": "n", "name": "N", "quiet": "q", "recursive": "r", "suffix": "S",
		"test": "t", "verbose": "v", "fast": "1", "best": "9"}}

func dataRunGzip(ctx context.Context, env *Env, args []string, decompress, toStdout bool) int {
	g := gzipGetopt
	opts, files, err := g.Parse(args[1:])
	z := &dataGzip{ctx: ctx, env: env, name: args[0], decompress: decompress, stdout: toStdout, level: 6, suffix: ".gz"}
	if err != nil {
		fmt.Fprintf(env.Stderr, "%s: %v\nTry `%s --help' for more information.\n", z.name, err, z.name)
		return 1
	}
	for _, o := range opts {
		switch o.Name {
		case "c":
			z.stdout = true
		case "d":
			z.decompress = true
		case "f":
			z.force = true
		case "k":
			z.keep = true
		case "l":
			z.list = true
		case "n":
			z.noName = true
		case "N":
			z.saveName = true
		case "q":
			z.quiet = true
		case "r":
			z.recursive = true
		case "S":
			z.suffix = o.Value
		case "t":
			z.test = true
		case "v":
			z.verbose = true
		case "V":
			fmt.Fprintln(env.Stdout, "gzip 1.12")
			return 0
		default:
			z.level = int(o.Name[0] - '0')
		}
	}
	if z.suffix == "" {
		env.Errorf(z.name, "invalid suffix ''")
		return 1
	}
	if z.decompress || z.list || z.test {
		z.out = dataWriter(env)
	} else {
		// Compressed output reaches stdout in 16 KiB pieces, like GNU
		// gzip's output buffer: with very compressible input a larger
		// buffer means reading much more before a closed pipe is seen.
		z.out = bufio.NewWriterSize(env.Stdout, dataGzipOutBuf)
	}
	defer z.out.Flush()
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, f := range files {
		if ctx.Err() != nil {
			return 130
		}
		z.handle(f)
	}
	if z.list && z.listed > 1 && !z.quiet {
		z.listLine(z.totalComp, z.totalUncomp, "(totals)")
	}
	if z.status == StatusBrokenPipe {
		return z.status
	}
	if err := z.out.Flush(); err != nil {
		return env.WriteError(z.name, err)
	}
	return z.status
}

func (z *dataGzip) warn(status int, format string, a ...any) {
	z.out.Flush()
	if !z.quiet {
		fmt.Fprintf(z.env.Stderr, "%s: %s\n", z.name, fmt.Sprintf(format, a...))
	}
	if status > z.status && !(status == 2 && z.quiet) {
		z.status = status
	}
}

func (z *dataGzip) fail(format string, a ...any) {
	if _, err := z.out.Write(nil); IsBrokenPipe(err) {
		z.status = StatusBrokenPipe // the reader went away: quiet, like SIGPIPE
		return
	}
	if z.ctx.Err() != nil {
		// The run was cancelled (timeout, interrupt): the error is a
		// consequence, not news. Quiet, like a tool killed by a signal.
		z.status = 130
		return
	}
	z.out.Flush()
	fmt.Fprintf(z.env.Stderr, "%s: %s\n", z.name, fmt.Sprintf(format, a...))
	z.status = 1
}

func (z *dataGzip) handle(file string) {
	if file == "-" {
		z.stream(z.env.Stdin, "stdin", time.Time{})
		return
	}
	fi, err := z.env.FS.Stat(z.env.Abs(file))
	if err != nil {
		z.fail("%s: %s", file, ErrText(err))
		return
	}
	if fi.IsDir() {
		if !z.recursive {
			z.warn(2, "%s is a directory -- ignored", file)
			return
		}
		names, err := dataDirNames(z.env, file)
		if err != nil {
			z.fail("%s: %s", file, ErrText(err))
			return
		}
		for _, n := range names {
			z.handle(path.Join(file, n))
		}
		return
	}
	if z.decompress || z.list || z.test {
		z.decompressFile(file, fi)
	} else {
		z.compressFile(file, fi)
	}
}

// stream handles standard input: compress or decompress to stdout.
func (z *dataGzip) stream(r io.Reader, name string, mtime time.Time) {
	switch {
	case z.list:
		z.listStream(r, name)
	case z.decompress || z.test:
		n, err := z.inflate(r, z.target(), name)
		_ = n
		z.report(name, err)
	default:
		if err := z.deflate(r, z.out, "", mtime); err != nil {
			if IsBrokenPipe(err) {
				z.status = StatusBrokenPipe
				return
			}
			z.fail("%s: %s", name, ErrText(err))
		}
	}
}

func (z *dataGzip) target() io.Writer {
	if z.test {
		return io.Discard
	}
	return z.out
}

func (z *dataGzip) deflate(r io.Reader, w io.Writer, name string, mtime time.Time) error {
	zw, err := gzip.NewWriterLevel(w, z.level)
	if err != nil {
		return err
	}
	if !z.noName {
		zw.Name = name
		if !mtime.IsZero() {
			zw.ModTime = mtime
		}
	}
	if _, err := io.CopyBuffer(zw, dataCtxReader{z.ctx, r}, make([]byte, dataBufSize)); err != nil {
		return err
	}
	return zw.Close()
}

var errDataGzipGarbage = errors.New("trailing garbage")

// dataGzipOutBuf is the size of gzip's output buffer when compressing.
const dataGzipOutBuf = 16 << 10

// inflate decompresses every gzip member of r into w. Like GNU gzip, it
// writes out each member's data when the member ends, so that a stream
// of small members flows (and a closed pipe is noticed) as it goes.
func (z *dataGzip) inflate(r io.Reader, w io.Writer, name string) (int64, error) {
	br := bufio.NewReaderSize(dataCtxReader{z.ctx, r}, dataBufSize)
	var total int64
	var zr *gzip.Reader
	buf := make([]byte, dataBufSize)
	first := true
	for {
		magic, err := br.Peek(2)
		if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
			if first {
				return 0, gzip.ErrHeader
			}
			if err == io.EOF && len(magic) == 0 {
				return total, nil
			}
			return total, errDataGzipGarbage
		}
		first = false
		// One reader serves every member: a stream of many small
		// members must not cost a new decompressor each.
		if zr == nil {
			zr, err = gzip.NewReader(br)
		} else {
			err = zr.Reset(br)
		}
		if err != nil {
			return total, err
		}
		zr.Multistream(false)
		n, err := io.CopyBuffer(w, zr, buf)
		total += n
		if err != nil {
			return total, err
		}
		if bw, ok := w.(*bufio.Writer); ok {
			if err := bw.Flush(); err != nil {
				return total, err
			}
		}
	}
}

func (z *dataGzip) report(name string, err error) {
	switch {
	case err == nil:
	case IsBrokenPipe(err):
		z.status = StatusBrokenPipe
	case errors.Is(err, errDataGzipGarbage):
		z.warn(2, "%s: decompression OK, trailing garbage ignored", name)
	case errors.Is(err, gzip.ErrHeader):
		z.fail("%s: not in gzip format", name)
	case errors.Is(err, io.ErrUnexpectedEOF):
		z.fail("%s: unexpected end of file", name)
	case errors.Is(err, gzip.ErrChecksum):
		z.fail("%s: invalid compressed data--crc error", name)
	case z.ctx.Err() != nil:
		z.status = 130
	default:
		z.fail("%s: invalid compressed data--format violated", name)
	}
}

func (z *dataGzip) compressFile(file string, fi fs.FileInfo) {
	if !z.stdout && strings.HasSuffix(file, z.suffix) {
		z.warn(0, "%s already has %s suffix -- unchanged", file, z.suffix)
		return
	}
	in, err := z.env.Open(file)
	if err != nil {
		z.fail("%s: %s", file, ErrText(err))
		return
	}
	defer in.Close()
	if z.stdout {
		if err := z.deflate(in, z.out, path.Base(file), fi.ModTime()); err != nil {
			if IsBrokenPipe(err) {
				z.status = StatusBrokenPipe
				return
			}
			z.fail("%s: %s", file, ErrText(err))
		}
		return
	}
	outName := file + z.suffix
	var buf bytes.Buffer
	if err := z.deflate(in, &buf, path.Base(file), fi.ModTime()); err != nil {
		z.fail("%s: %s", file, ErrText(err))
		return
	}
	if !z.writeOutput(outName, buf.Bytes(), fi) {
		return
	}
	if z.verbose {
		ratio := 0.0
		if fi.Size() > 0 {
			ratio = 100 * (1 - float64(buf.Len()-18-len(path.Base(file))-1)/float64(fi.Size()))
		}
		z.out.Flush()
		fmt.Fprintf(z.env.Stderr, "%s:\t%5.1f%% -- created %s\n", file, ratio, outName)
	}
	z.removeInput(file)
}

// writeOutput creates outName unless it exists and -f was not given.
func (z *dataGzip) writeOutput(outName string, data []byte, src fs.FileInfo) bool {
	abs := z.env.Abs(outName)
	if _, err := z.env.FS.Stat(abs); err == nil && !z.force {
		z.warn(2, "%s already exists;\tnot overwritten", outName)
		return false
	}
	f, err := z.env.FS.OpenFile(abs, dataCreateFlags, src.Mode().Perm())
	if err != nil {
		z.fail("%s: %s", outName, ErrText(err))
		return false
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		z.fail("%s: %s", outName, ErrText(err))
		return false
	}
	z.env.FS.Chtimes(abs, src.ModTime(), src.ModTime())
	return true
}

func (z *dataGzip) removeInput(file string) {
	if z.keep {
		return
	}
	if err := z.env.FS.Remove(z.env.Abs(file)); err != nil {
		z.fail("%s: %s", file, ErrText(err))
	}
}

// stripSuffix returns the decompressed name of file, or "" if it has no
// known suffix.
func (z *dataGzip) stripSuffix(file string) string {
	for _, s := range []string{z.suffix, ".gz", ".z", "-gz", "-z", "_z"} {
		if strings.HasSuffix(file, s) && len(file) > len(s) {
			return strings.TrimSuffix(file, s)
		}
	}
	for _, s := range []string{".tgz", ".taz"} {
		if strings.HasSuffix(file, s) && len(file) > len(s) {
			return strings.TrimSuffix(file, s) + ".tar"
		}
	}
	return ""
}

func (z *dataGzip) decompressFile(file string, fi fs.FileInfo) {
	outName := z.stripSuffix(file)
	if outName == "" && !z.stdout && !z.test && !z.list {
		z.warn(2, "%s: unknown suffix -- ignored", file)
		return
	}
	in, err := z.env.Open(file)
	if err != nil {
		z.fail("%s: %s", file, ErrText(err))
		return
	}
	defer in.Close()
	if z.list {
		z.listStream(in, outName)
		return
	}
	if z.stdout || z.test {
		_, err := z.inflate(in, z.target(), file)
		z.report(file, err)
		return
	}
	var buf bytes.Buffer
	_, err = z.inflate(in, &buf, file)
	if err != nil && !errors.Is(err, errDataGzipGarbage) {
		z.report(file, err)
		return
	}
	if !z.writeOutput(outName, buf.Bytes(), fi) {
		return
	}
	z.report(file, err)
	if z.verbose {
		z.out.Flush()
		fmt.Fprintf(z.env.Stderr, "%s:\t -- replaced with %s\n", file, outName)
	}
	z.removeInput(file)
}

// listStream prints gzip -l's line for one compressed input.
func (z *dataGzip) listStream(r io.Reader, name string) {
	data, err := z.env.ReadAll(z.ctx, r)
	if err != nil {
		z.fail("%s: %s", name, ErrText(err))
		return
	}
	if len(data) < 18 || data[0] != 0x1f || data[1] != 0x8b {
		z.fail("%s: not in gzip format", name)
		return
	}
	// The trailer holds the uncompressed size modulo 2^32, like gzip shows.
	t := data[len(data)-4:]
	uncomp := int64(t[0]) | int64(t[1])<<8 | int64(t[2])<<16 | int64(t[3])<<24
	if name == "" || name == "stdin" {
		name = "stdout"
	}
	if !z.listedHeader && !z.quiet {
		z.out.WriteString("         compressed        uncompressed  ratio uncompressed_name\n")
		z.listedHeader = true
	}
	z.listLine(int64(len(data)), uncomp, name)
	z.totalComp += int64(len(data))
	z.totalUncomp += uncomp
	z.listed++
}

func (z *dataGzip) listLine(comp, uncomp int64, name string) {
	ratio := 0.0
	if uncomp > 0 {
		ratio = 100 * float64(uncomp-(comp-18)) / float64(uncomp)
	}
	fmt.Fprintf(z.out, "%19d %19d %5.1f%% %s\n", comp, uncomp, ratio, name)
}

// dataDirNames lists a directory's entries sorted.
func dataDirNames(env *Env, dir string) ([]string, error) {
	f, err := env.FS.Open(env.Abs(dir))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	dataSortStrings(names)
	return names, nil
}
