package builtins

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
)

const ddUsage = `Usage: dd [OPERAND]...
Copy a file, converting and formatting according to the operands.

  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);
                  overrides ibs and obs
  count=N         copy only N input blocks
  ibs=BYTES       read up to BYTES bytes at a time (default: 512)
  if=FILE         read from FILE instead of stdin
  obs=BYTES       write BYTES bytes at a time (default: 512)
  of=FILE         write to FILE instead of stdout
  seek=N          skip N obs-sized output blocks
  skip=N          skip N ibs-sized input blocks
  status=LEVEL    none, noxfer or progress (taken as the default)
  conv=CONVS      convert the file as per the comma separated symbol list:
    excl, nocreat, notrunc, lcase, ucase, sync, fsync, fdatasync

N and BYTES may be followed by c (1), w (2), b (512), kB (1000), K (1024),
MB, M, GB, G and so on, or be products such as 2x512. A block is held in
memory at once, so BYTES is bounded by --max-capture (64 MiB by default).
`

type ddRun struct {
	ctx                  context.Context
	env                  *Env
	ibs, obs             int64
	count, skip, seek    int64 // count -1: all
	in, out              string
	notrunc, excl, nocrt bool
	ucase, lcase, sync   bool
	status               string
	fullIn, partIn       int64
	fullOut, partOut     int64
	bytes                int64
	start                time.Time
}

func runDd(ctx context.Context, env *Env, args []string) int {
	d := &ddRun{ctx: ctx, env: env, ibs: 512, obs: 512, count: -1, start: time.Now()}
	for _, a := range args[1:] {
		key, val, ok := strings.Cut(a, "=")
		if !ok {
			return env.UsageError("dd", fmt.Errorf("unrecognized operand %s", fileutil.Quote(a)), 1)
		}
		switch key {
		case "if":
			d.in = val
		case "of":
			d.out = val
		case "bs", "ibs", "obs":
			n, ok := ddNumber(val)
			if !ok || n <= 0 {
				env.Errorf("dd", "invalid number: %s", fileutil.Quote(val))
				return 1
			}
			if max := int64(env.InputMax()); max > 0 && n > max {
				env.Errorf("dd", "%s=%s: a block is held in memory, and this is over --max-capture (%d bytes)", key, val, max)
				return 1
			}
			switch key {
			case "bs":
				d.ibs, d.obs = n, n
			case "ibs":
				d.ibs = n
			case "obs":
				d.obs = n
			}
		case "count", "skip", "seek", "iseek", "oseek":
			n, ok := ddNumber(val)
			if !ok {
				env.Errorf("dd", "invalid number: %s", fileutil.Quote(val))
				return 1
			}
			switch key {
			case "count":
				d.count = n
			case "skip", "iseek":
				d.skip = n
			default:
				d.seek = n
			}
		case "conv":
			for _, c := range strings.Split(val, ",") {
				switch c {
				case "notrunc":
					d.notrunc = true
				case "excl":
					d.excl = true
				case "nocreat":
					d.nocrt = true
				case "ucase":
					d.ucase = true
				case "lcase":
					d.lcase = true
				case "sync":
					d.sync = true
				case "fsync", "fdatasync", "noerror":
				default:
					return env.UsageError("dd", fmt.Errorf("invalid conversion: %s", fileutil.Quote(c)), 1)
				}
			}
			if d.ucase && d.lcase {
				return env.UsageError("dd", errors.New("cannot combine lcase and ucase"), 1)
			}
		case "status":
			switch val {
			case "none", "noxfer", "progress":
				d.status = val
			default:
				return env.UsageError("dd", fmt.Errorf("invalid status level: %s", fileutil.Quote(val)), 1)
			}
		case "iflag", "oflag":
			// Direct, sync and the like mean nothing to the sandbox's
			// files; they are accepted and have no effect.
		default:
			return env.UsageError("dd", fmt.Errorf("unrecognized operand %s", fileutil.Quote(a)), 1)
		}
	}
	st := d.copy()
	d.report()
	return st
}

// ddNumber parses N with dd's suffixes and products (2x512); it fails
// past int64.
func ddNumber(s string) (int64, bool) {
	n := int64(1)
	for _, f := range strings.Split(s, "x") {
		v, ok := ddFactor(f)
		if !ok || v != 0 && n > (1<<63-1)/v {
			return 0, false
		}
		n *= v
	}
	return n, true
}

func ddFactor(s string) (int64, bool) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "c"):
		s = s[:len(s)-1]
	case strings.HasSuffix(s, "w"):
		s, mult = s[:len(s)-1], 2
	case strings.HasSuffix(s, "b") && !strings.HasSuffix(s, "kb"):
		s, mult = s[:len(s)-1], 512
	}
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, false
	}
	var v int64
	if i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }); i < 0 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, false
		}
		v = n
	} else {
		n, ok := dataParseSize(s)
		if !ok || n == 1<<63-1 {
			return 0, false
		}
		v = n
	}
	if v != 0 && mult > (1<<63-1)/v {
		return 0, false
	}
	return v * mult, true
}

func (d *ddRun) copy() int {
	var r io.Reader = d.env.Stdin
	if d.in != "" {
		f, err := d.env.Open(d.in)
		if err != nil {
			d.env.Errorf("dd", "failed to open %s: %s", fileutil.Quote(d.in), ErrText(err))
			return 1
		}
		defer f.Close()
		r = f
	}
	var w io.Writer = d.env.Stdout
	if d.out != "" {
		flag := os.O_WRONLY | os.O_CREATE
		if d.excl {
			flag |= os.O_EXCL
		}
		if d.nocrt {
			flag &^= os.O_CREATE
		}
		f, err := d.env.FS.OpenFile(d.env.Abs(d.out), flag, 0o666&^filesUmask(d.env.FS))
		if err != nil {
			d.env.Errorf("dd", "failed to open %s: %s", fileutil.Quote(d.out), ErrText(err))
			return 1
		}
		defer f.Close()
		off := d.seek * d.obs
		if d.seek > 0 && off/d.seek != d.obs {
			d.env.Errorf("dd", "offset overflow while reading file %s", fileutil.Quote(d.out))
			return 1
		}
		if !d.notrunc {
			if err := f.Truncate(off); err != nil {
				d.env.Errorf("dd", "failed to truncate to %d bytes in output file %s: %s", off, fileutil.Quote(d.out), ErrText(err))
				return 1
			}
		}
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			d.env.Errorf("dd", "%s: cannot seek: %s", fileutil.Quote(d.out), ErrText(err))
			return 1
		}
		w = f
	} else if d.seek > 0 {
		// Standard output is a stream here: it cannot seek.
		d.env.Errorf("dd", "'standard output': cannot seek: Illegal seek")
		return 1
	}
	if d.skip > 0 {
		if st := d.skipInput(r); st != 0 {
			return st
		}
	}
	buf := make([]byte, d.ibs)
	var pending []byte // output not yet a whole obs block
	flush := func(all bool) error {
		for int64(len(pending)) >= d.obs || all && len(pending) > 0 {
			n := min(int64(len(pending)), d.obs)
			if _, err := w.Write(pending[:n]); err != nil {
				return err
			}
			if n == d.obs {
				d.fullOut++
			} else {
				d.partOut++
			}
			d.bytes += n
			pending = pending[n:]
		}
		return nil
	}
	for d.count < 0 || d.fullIn+d.partIn < d.count {
		if err := d.ctx.Err(); err != nil {
			return 130
		}
		n, err := r.Read(buf)
		if n > 0 {
			blk := buf[:n]
			if int64(n) == d.ibs {
				d.fullIn++
			} else {
				d.partIn++
				if d.sync {
					blk = append(blk, make([]byte, d.ibs-int64(n))...)
				}
			}
			switch {
			case d.ucase:
				blk = []byte(strings.ToUpper(string(blk)))
			case d.lcase:
				blk = []byte(strings.ToLower(string(blk)))
			}
			if d.ibs == d.obs && len(pending) == 0 {
				// The common case: each block read is written as is.
				if _, werr := w.Write(blk); werr != nil {
					return d.writeFail(werr)
				}
				if int64(len(blk)) == d.obs {
					d.fullOut++
				} else {
					d.partOut++
				}
				d.bytes += int64(len(blk))
			} else {
				pending = append(pending, blk...)
				if werr := flush(false); werr != nil {
					return d.writeFail(werr)
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			if ctxDone(err) {
				return 130
			}
			d.env.Errorf("dd", "error reading %s: %s", fileutil.Quote(d.inName()), ErrText(err))
			return 1
		}
	}
	if err := flush(true); err != nil {
		return d.writeFail(err)
	}
	return 0
}

func (d *ddRun) writeFail(err error) int {
	if IsBrokenPipe(err) {
		return StatusBrokenPipe
	}
	if ctxDone(err) {
		return 130
	}
	d.env.Errorf("dd", "error writing %s: %s", fileutil.Quote(d.outName()), ErrText(err))
	return 1
}

func (d *ddRun) inName() string {
	if d.in == "" {
		return "standard input"
	}
	return d.in
}

func (d *ddRun) outName() string {
	if d.out == "" {
		return "standard output"
	}
	return d.out
}

// skipInput skips skip ibs-blocks: a seek on a file, reading otherwise.
func (d *ddRun) skipInput(r io.Reader) int {
	off := d.skip * d.ibs
	if off/d.skip != d.ibs {
		d.env.Errorf("dd", "%s: cannot skip: Value too large for defined data type", fileutil.Quote(d.inName()))
		return 1
	}
	if s, ok := r.(io.Seeker); ok && d.in != "" {
		if _, err := s.Seek(off, io.SeekStart); err == nil {
			return 0
		}
	}
	buf := make([]byte, d.ibs)
	for i := int64(0); i < d.skip; i++ {
		if err := d.ctx.Err(); err != nil {
			return 130
		}
		if _, err := io.ReadFull(r, buf); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				d.env.Errorf("dd", "%s: cannot skip to specified offset", fileutil.Quote(d.inName()))
				return 0
			}
			return d.env.FileError("dd", d.inName(), err)
		}
	}
	return 0
}

// report prints GNU's three status lines on stderr.
func (d *ddRun) report() {
	if d.status == "none" {
		return
	}
	fmt.Fprintf(d.env.Stderr, "%d+%d records in\n%d+%d records out\n", d.fullIn, d.partIn, d.fullOut, d.partOut)
	if d.status == "noxfer" {
		return
	}
	secs := time.Since(d.start).Seconds()
	size := ""
	if d.bytes >= 1000 {
		size = fmt.Sprintf(" (%s, %s)", ddHuman(float64(d.bytes), 1000, "B"), ddHuman(float64(d.bytes), 1024, "iB"))
	}
	word := "bytes"
	if d.bytes == 1 {
		word = "byte"
	}
	rate := "Infinity B/s"
	if secs > 0 {
		rate = ddHuman(float64(d.bytes)/secs, 1000, "B") + "/s"
	}
	fmt.Fprintf(d.env.Stderr, "%d %s%s copied, %.6g s, %s\n", d.bytes, word, size, secs, rate)
}

// ddHuman renders n like GNU dd: 2 significant digits with a unit prefix.
func ddHuman(n, base float64, suffix string) string {
	units := []string{"", "k", "M", "G", "T", "P", "E"}
	if base == 1024 {
		units = []string{"", "K", "M", "G", "T", "P", "E"}
	}
	i := 0
	for n >= base && i < len(units)-1 {
		n /= base
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f B", n)
	}
	if n < 10 {
		return fmt.Sprintf("%.1f %s%s", n, units[i], suffix)
	}
	return fmt.Sprintf("%.0f %s%s", n, units[i], suffix)
}
