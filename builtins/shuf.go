package builtins

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
)

const shufUsage = `Usage: shuf [OPTION]... [FILE]
  or:  shuf -e [OPTION]... [ARG]...
  or:  shuf -i LO-HI [OPTION]...
Write a random permutation of the input lines to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -e, --echo                treat each ARG as an input line
  -i, --input-range=LO-HI   treat each number LO through HI as an input line
  -n, --head-count=COUNT    output at most COUNT lines
  -o, --output=FILE         write result to FILE instead of standard output
      --random-source=FILE  get random bytes from FILE
  -r, --repeat              output lines can be repeated
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit

The random numbers come from the sandbox's /dev/urandom (the run's own
generator, seeded like $RANDOM), or from a generator seeded with the first
4 KiB of --random-source FILE: the same FILE gives the same order in
sandsh, though not GNU's.
`

var shufGetopt = Getopt{Short: "ei:n:o:rz", Long: []string{"echo", "input-range=", "head-count=", "output=", "random-source=", "repeat", "zero-terminated"},
	LongAlias: map[string]string{"echo": "e", "input-range": "i", "head-count": "n", "output": "o", "repeat": "r", "zero-terminated": "z"}}

type shufRun struct {
	ctx    context.Context
	env    *Env
	rng    *rand.Rand
	w      *bufio.Writer
	sep    byte
	count  uint64 // lines to write at most
	repeat bool
}

func runShuf(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := shufGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("shuf", err, 1)
	}
	s := &shufRun{ctx: ctx, env: env, sep: '\n', count: ^uint64(0)}
	var echo, haveRange bool
	var lo, hi uint64
	var output, source string
	haveSource := false
	for _, o := range opts {
		switch o.Name {
		case "e":
			echo = true
		case "i":
			if haveRange {
				return env.UsageError("shuf", errors.New("multiple -i options specified"), 1)
			}
			var ok bool
			if lo, hi, ok = shufRange(o.Value); !ok {
				env.Errorf("shuf", "invalid input range: %s", fileutil.Quote(o.Value))
				return 1
			}
			haveRange = true
		case "n":
			n, err := strconv.ParseUint(o.Value, 10, 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				env.Errorf("shuf", "invalid line count: %s", fileutil.Quote(o.Value))
				return 1
			}
			if err != nil {
				n = ^uint64(0) // more than any input: GNU takes it as "all"
			}
			s.count = min(s.count, n)
		case "o":
			output = o.Value
		case "random-source":
			source, haveSource = o.Value, true
		case "r":
			s.repeat = true
		case "z":
			s.sep = 0
		}
	}
	if echo && haveRange {
		return env.UsageError("shuf", errors.New("cannot combine -e and -i options"), 1)
	}
	if haveRange && len(operands) > 0 || !echo && len(operands) > 1 {
		extra := operands[0]
		if !haveRange {
			extra = operands[1]
		}
		return env.UsageError("shuf", fmt.Errorf("extra operand %s", fileutil.Quote(extra)), 1)
	}
	if s.rng, err = shufRand(env, source, haveSource); err != nil {
		env.Errorf("shuf", "%s: %s", source, ErrText(err))
		return 1
	}
	var lines [][]byte
	switch {
	case haveRange:
	case echo:
		for _, a := range operands {
			lines = append(lines, []byte(a))
		}
	default:
		name := "-"
		if len(operands) == 1 {
			name = operands[0]
		}
		var err error
		if lines, err = s.readLines(name); err != nil {
			if ctxDone(err) {
				return 130
			}
			return env.FileError("shuf", name, err)
		}
	}
	out := env.Stdout
	if output != "" {
		f, err := filesCreate(env.FS, env.Abs(output), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			return env.FileError("shuf", output, err)
		}
		defer f.Close()
		out = f
	}
	s.w = bufio.NewWriterSize(out, 64<<10)
	if haveRange {
		err = s.numbers(lo, hi)
	} else {
		err = s.permute(lines)
	}
	if err == nil {
		err = s.w.Flush()
	}
	switch {
	case err == nil:
		return 0
	case ctxDone(err):
		return 130
	}
	return env.WriteError("shuf", err)
}

// shufRange parses LO-HI; an empty range (HI = LO-1) is valid.
func shufRange(v string) (lo, hi uint64, ok bool) {
	a, b, found := strings.Cut(v, "-")
	if !found {
		return 0, 0, false
	}
	lo, err1 := strconv.ParseUint(a, 10, 64)
	hi, err2 := strconv.ParseUint(b, 10, 64)
	if err1 != nil || err2 != nil || hi < lo && hi+1 != lo {
		return 0, 0, false
	}
	return lo, hi, true
}

// shufRand seeds the generator: from --random-source FILE's first 4 KiB,
// else from the sandbox's /dev/urandom, else from the virtual clock.
func shufRand(env *Env, source string, haveSource bool) (*rand.Rand, error) {
	var seed []byte
	if haveSource {
		f, err := env.Open(source)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, 4096))
		if err != nil {
			return nil, err
		}
		if len(b) == 0 {
			return nil, errors.New("end of file")
		}
		sum := sha256.Sum256(b)
		seed = sum[:]
	} else if f, err := env.FS.Open("/dev/urandom"); err == nil {
		seed = make([]byte, 16)
		_, err = io.ReadFull(f, seed)
		f.Close()
		if err != nil {
			seed = nil
		}
	}
	if len(seed) < 16 {
		seed = binary.LittleEndian.AppendUint64(nil, uint64(env.System().Now().UnixNano()))
		seed = binary.LittleEndian.AppendUint64(seed, 0x5a5d5)
	}
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(seed), binary.LittleEndian.Uint64(seed[8:]))), nil
}

// readLines reads the whole input (bounded by --max-capture) and splits
// it into lines without their separators.
func (s *shufRun) readLines(name string) ([][]byte, error) {
	var r io.Reader = s.env.Stdin
	if name != "-" {
		f, err := s.env.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := s.env.ReadAll(s.ctx, r)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, nil
	}
	data = bytes.TrimSuffix(data, []byte{s.sep})
	return bytes.Split(data, []byte{s.sep}), nil
}

func (s *shufRun) line(b []byte) error {
	s.w.Write(b)
	return s.w.WriteByte(s.sep)
}

// permute writes count lines: a random choice each time with -r, else
// the first count of a Fisher-Yates shuffle, drawn one at a time.
func (s *shufRun) permute(lines [][]byte) error {
	n := uint64(len(lines))
	if n == 0 {
		return nil
	}
	for i := uint64(0); i < s.count && (s.repeat || i < n); i++ {
		if i&1023 == 0 {
			if err := s.ctx.Err(); err != nil {
				return err
			}
		}
		if s.repeat {
			if err := s.line(lines[s.rng.Uint64N(n)]); err != nil {
				return err
			}
			continue
		}
		j := i + s.rng.Uint64N(n-i)
		lines[i], lines[j] = lines[j], lines[i]
		if err := s.line(lines[i]); err != nil {
			return err
		}
	}
	return nil
}

// numbers writes count numbers of lo..hi: a sparse Fisher-Yates (a map
// of the swapped slots only), so memory grows with the lines written,
// never with the range.
func (s *shufRun) numbers(lo, hi uint64) error {
	if hi+1 == lo {
		return nil
	}
	span := hi - lo // the range holds span+1 numbers (span+1 may overflow)
	moved := map[uint64]uint64{}
	at := func(k uint64) uint64 {
		if v, ok := moved[k]; ok {
			return v
		}
		return k
	}
	var buf []byte
	for i := uint64(0); i < s.count && (s.repeat || i <= span); i++ {
		if i&1023 == 0 {
			if err := s.ctx.Err(); err != nil {
				return err
			}
		}
		var v uint64
		if s.repeat {
			v = s.draw(span)
		} else {
			j := i + s.draw(span-i)
			v = at(j)
			moved[j] = at(i)
			delete(moved, i) // slot i is never looked at again
		}
		buf = strconv.AppendUint(buf[:0], lo+v, 10)
		if err := s.line(buf); err != nil {
			return err
		}
	}
	return nil
}

// draw returns a uniform number in 0..n (n+1 values, n may be MaxUint64).
func (s *shufRun) draw(n uint64) uint64 {
	if n == ^uint64(0) {
		return s.rng.Uint64()
	}
	return s.rng.Uint64N(n + 1)
}
