package builtins

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"strings"

	sorteng "github.com/sandsh/sandsh/builtins/internal/sort"
)

const sortUsage = `Usage: sort [OPTION]... [FILE]...
  or:  sort [OPTION]... --files0-from=F
Write sorted concatenation of all FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

Ordering options:
  -b, --ignore-leading-blanks  ignore leading blanks
  -d, --dictionary-order      consider only blanks and alphanumeric characters
  -f, --ignore-case           fold lower case to upper case characters
  -g, --general-numeric-sort  compare according to general numerical value
  -i, --ignore-nonprinting    consider only printable characters
  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'
  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)
  -n, --numeric-sort          compare according to string numerical value
  -R, --random-sort           shuffle, but group identical keys
      --random-source=FILE    get random bytes from FILE
  -r, --reverse               reverse the result of comparisons
      --sort=WORD             sort according to WORD:
                                general-numeric -g, human-numeric -h, month -M,
                                numeric -n, random -R, version -V
  -V, --version-sort          natural sort of (version) numbers within text

Other options:
  -c, --check, --check=diagnose-first  check for sorted input; do not sort
  -C, --check=quiet, --check=silent  like -c, but do not report first bad line
  -k, --key=KEYDEF          sort via a key; KEYDEF gives location and type
  -m, --merge               merge already sorted files; do not sort
  -o, --output=FILE         write result to FILE instead of standard output
  -s, --stable              stabilize sort by disabling last-resort comparison
  -S, --buffer-size=SIZE    accepted and ignored
  -t, --field-separator=SEP  use SEP instead of non-blank to blank transition
  -T, --temporary-directory=DIR  accepted and ignored
      --parallel=N          accepted and ignored
  -u, --unique              with -c, check for strict ordering;
                              without -c, output only the first of an equal run
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit

KEYDEF is F[.C][OPTS][,F[.C][OPTS]] for start and stop position, where F is a
field number and C a character position in the field; both are origin 1, and
the stop position defaults to the line's end.  OPTS is one or more
single-letter ordering options [bdfgiMhnRrV], which override global ordering
options for that key.
`

var sortGetopt = Getopt{
	Short: "bcCdfghik:mMno:RrsS:t:T:uVy:z",
	Long: []string{"ignore-leading-blanks", "check?", "dictionary-order", "ignore-case",
		"general-numeric-sort", "human-numeric-sort", "ignore-nonprinting", "key=", "merge",
		"month-sort", "numeric-sort", "output=", "random-sort", "random-source=", "reverse",
		"stable", "buffer-size=", "field-separator=", "temporary-directory=", "unique",
		"version-sort", "zero-terminated", "parallel=", "batch-size=", "compress-program=",
		"debug", "files0-from=", "sort="},
	LongAlias: map[string]string{"ignore-leading-blanks": "b", "dictionary-order": "d",
		"ignore-case": "f", "general-numeric-sort": "g", "human-numeric-sort": "h",
		"ignore-nonprinting": "i", "key": "k", "merge": "m", "month-sort": "M",
		"numeric-sort": "n", "output": "o", "random-sort": "R", "reverse": "r", "stable": "s",
		"buffer-size": "S", "field-separator": "t", "temporary-directory": "T", "unique": "u",
		"version-sort": "V", "zero-terminated": "z"},
}

// sortJob is a parsed sort command line.
type sortJob struct {
	cfg       sorteng.Config
	global    sorteng.Key
	check     byte // 0, 'c' or 'C'
	merge     bool
	output    string
	hasOutput bool
	randSrc   string
	files0    string
	files     []string
}

// textSortStatus is GNU sort's failure status for everything but a
// failed check.
const textSortStatus = 2

func runSort(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	job, status := textSortParse(env, name, args[1:])
	if status >= 0 {
		return status
	}
	if job.files0 != "" {
		files, st := textSortFiles0(ctx, env, name, job)
		if st >= 0 {
			return st
		}
		job.files = files
	}
	if len(job.files) == 0 {
		job.files = []string{"-"}
	}
	job.cfg.Seed = textSortSeed(env, job.randSrc)
	switch {
	case job.check != 0:
		return textSortCheck(ctx, env, name, job)
	case job.merge:
		return textSortMerge(ctx, env, name, job)
	}
	return textSortAll(ctx, env, name, job)
}

// textSortParse turns the command line into a job; status is -1 on
// success, else the status to exit with.
func textSortParse(env *Env, name string, args []string) (*sortJob, int) {
	opts, operands, err := sortGetopt.Parse(args)
	if err != nil {
		return nil, env.UsageError(name, err, textSortStatus)
	}
	job := &sortJob{global: sorteng.NewGlobalKey(), files: operands}
	job.cfg.Tab, job.cfg.Delim = -1, '\n'
	for _, o := range opts {
		if st := job.apply(env, name, o); st >= 0 {
			return nil, st
		}
	}
	return job, job.finish(env, name)
}

func (job *sortJob) apply(env *Env, name string, o Opt) int {
	switch o.Name {
	case "b":
		job.global.SkipSBlanks, job.global.SkipEBlanks = true, true
	case "d", "f", "g", "h", "i", "M", "n", "R", "r", "V":
		job.global.SetOrdering(o.Name[0], false)
	case "sort":
		letter, ok := map[string]byte{"general-numeric": 'g', "human-numeric": 'h',
			"month": 'M', "numeric": 'n', "random": 'R', "version": 'V'}[o.Value]
		if !ok {
			return env.UsageError(name, fmt.Errorf("invalid argument '%s' for '--sort'\n"+
				"Valid arguments are:\n  - 'general-numeric'\n  - 'human-numeric'\n  - 'month'\n"+
				"  - 'numeric'\n  - 'random'\n  - 'version'", o.Value), 1)
		}
		job.global.SetOrdering(letter, false)
	case "c", "C":
		return job.setCheck(env, name, o.Name[0])
	case "check":
		c := byte('c')
		switch o.Value {
		case "", "diagnose-first":
		case "quiet", "silent":
			c = 'C'
		default:
			return env.UsageError(name, fmt.Errorf("invalid argument '%s' for '--check'", o.Value), 1)
		}
		if !o.HasValue {
			c = 'c'
		}
		return job.setCheck(env, name, c)
	case "k":
		k, err := sorteng.ParseKey(o.Value)
		if err != nil {
			env.Errorf(name, "%v", err)
			return textSortStatus
		}
		job.cfg.Keys = append(job.cfg.Keys, k)
	case "m":
		job.merge = true
	case "o":
		if job.hasOutput && job.output != o.Value {
			env.Errorf(name, "multiple output files specified")
			return textSortStatus
		}
		job.output, job.hasOutput = o.Value, true
	case "s":
		job.cfg.Stable = true
	case "u":
		job.cfg.Unique = true
	case "z":
		job.cfg.Delim = 0
	case "t":
		return job.setTab(env, name, o.Value)
	case "S":
		if !textSortValidSize(o.Value) {
			env.Errorf(name, "invalid suffix in -S argument '%s'", o.Value)
			return textSortStatus
		}
	case "random-source":
		job.randSrc = o.Value
	case "files0-from":
		job.files0 = o.Value
	}
	return -1
}

func (job *sortJob) setCheck(env *Env, name string, c byte) int {
	if job.check != 0 && job.check != c {
		env.Errorf(name, "options '-cC' are incompatible")
		return textSortStatus
	}
	job.check = c
	return -1
}

func (job *sortJob) setTab(env *Env, name, v string) int {
	tab := -1
	switch {
	case v == "":
		env.Errorf(name, "empty tab")
		return textSortStatus
	case len(v) == 1:
		tab = int(v[0])
	case v == "\\0":
		tab = 0
	default:
		env.Errorf(name, "multi-character tab '%s'", v)
		return textSortStatus
	}
	if job.cfg.Tab >= 0 && job.cfg.Tab != tab {
		env.Errorf(name, "incompatible tabs")
		return textSortStatus
	}
	job.cfg.Tab = tab
	return -1
}

// textSortValidSize accepts -S values GNU would: a number with an
// optional unit suffix or '%'.
func textSortValidSize(v string) bool {
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i == 0 {
		return false
	}
	rest := v[i:]
	return rest == "" || (len(rest) == 1 && strings.ContainsRune("%bkKMGTPEZY", rune(rest[0])))
}

// finish applies GNU's inheritance of global options by keys and checks
// option compatibility.
func (job *sortJob) finish(env *Env, name string) int {
	g := &job.global
	for i := range job.cfg.Keys {
		k := &job.cfg.Keys[i]
		if k.DefaultCompare() && !k.Reverse {
			k.Inherit(g)
		}
	}
	if len(job.cfg.Keys) == 0 && !(g.DefaultCompare() && !g.Reverse) {
		job.cfg.Keys = append(job.cfg.Keys, *g)
	}
	for i := range job.cfg.Keys {
		if opts, bad := job.cfg.Keys[i].Incompatible(); bad {
			env.Errorf(name, "options '-%s' are incompatible", opts)
			return textSortStatus
		}
	}
	if opts, bad := g.Incompatible(); bad {
		env.Errorf(name, "options '-%s' are incompatible", opts)
		return textSortStatus
	}
	job.cfg.Reverse = g.Reverse
	if job.check != 0 {
		if len(job.files) > 1 {
			env.Errorf(name, "extra operand '%s' not allowed with -%c", job.files[1], job.check)
			return textSortStatus
		}
		if job.hasOutput {
			env.Errorf(name, "options '-%co' are incompatible", job.check)
			return textSortStatus
		}
	}
	if job.files0 != "" && len(job.files) > 0 {
		env.Errorf(name, "extra operand '%s'\nfile operands cannot be combined with --files0-from", job.files[0])
		return textSortStatus
	}
	return -1
}

// textSortFiles0 reads the NUL-separated list of input names.
func textSortFiles0(ctx context.Context, env *Env, name string, job *sortJob) ([]string, int) {
	r, err := textOpen(env, job.files0)
	if err != nil {
		env.Errorf(name, "cannot open '%s' for reading: %s", job.files0, ErrText(err))
		return nil, textSortStatus
	}
	defer r.Close()
	data, err := env.ReadAll(ctx, r)
	if err != nil {
		textReadError(env, name, job.files0, err)
		return nil, textSortStatus
	}
	var files []string
	for i, f := range strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00") {
		if f == "" {
			if len(data) == 0 {
				break
			}
			env.Errorf(name, "%s:%d: invalid zero-length file name", job.files0, i+1)
			return nil, textSortStatus
		}
		files = append(files, f)
	}
	return files, -1
}

// textSortSeed derives the -R seed from --random-source or the clock.
func textSortSeed(env *Env, src string) uint64 {
	if src != "" {
		if r, err := env.Open(src); err == nil {
			defer r.Close()
			h := fnv.New64a()
			io.CopyN(h, r, 4096)
			return h.Sum64()
		}
	}
	return uint64(env.System().Now().UnixNano())
}

// textSortOpenAll opens every input, failing on the first that cannot be.
func textSortOpenAll(env *Env, name string, files []string) ([]io.ReadCloser, int) {
	var rs []io.ReadCloser
	for _, f := range files {
		r, err := textOpen(env, f)
		if err != nil {
			for _, o := range rs {
				o.Close()
			}
			return nil, textSortReadFail(env, name, f, err)
		}
		rs = append(rs, r)
	}
	return rs, -1
}

func textSortReadFail(env *Env, name, file string, err error) int {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return 130
	}
	if errors.Is(err, sorteng.ErrTooLarge) {
		env.Errorf(name, "%s: %v", file, err)
		return textSortStatus
	}
	var pe *os.PathError
	if errors.As(err, &pe) && pe.Op == "read" {
		env.Errorf(name, "read failed: %s: %s", file, ErrText(err))
		return textSortStatus
	}
	env.Errorf(name, "cannot read: %s: %s", file, ErrText(err))
	return textSortStatus
}

// textSortCreate opens the -o file (or returns stdout).
func textSortCreate(env *Env, name string, job *sortJob) (io.Writer, func() error, int) {
	if !job.hasOutput {
		return env.Stdout, func() error { return nil }, -1
	}
	f, err := env.FS.OpenFile(env.Abs(job.output), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		env.Errorf(name, "open failed: %s: %s", job.output, ErrText(err))
		return nil, nil, textSortStatus
	}
	return f, f.Close, -1
}

func textSortAll(ctx context.Context, env *Env, name string, job *sortJob) int {
	s := sorteng.NewSorter(&job.cfg)
	s.Workers = max(1, env.System().NumCPU)
	s.Max = env.InputMax()
	var hint int64
	for _, f := range job.files {
		if f != "-" {
			if fi, err := env.FS.Stat(env.Abs(f)); err == nil && fi.Mode().IsRegular() {
				hint += fi.Size()
			}
		}
	}
	s.Grow(hint)
	for _, f := range job.files {
		r, err := textOpen(env, f)
		if err != nil {
			return textSortReadFail(env, name, f, err)
		}
		err = s.Read(ctx, r)
		r.Close()
		if err != nil {
			return textSortReadFail(env, name, f, err)
		}
	}
	if err := s.Sort(ctx); err != nil {
		return 130
	}
	w, closeOut, st := textSortCreate(env, name, job)
	if st >= 0 {
		return st
	}
	err := s.Write(ctx, w)
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		return env.WriteError(name, err)
	}
	return 0
}

func textSortMerge(ctx context.Context, env *Env, name string, job *sortJob) int {
	rcs, st := textSortOpenAll(env, name, job.files)
	if st >= 0 {
		return st
	}
	defer func() {
		for _, r := range rcs {
			r.Close()
		}
	}()
	readers := make([]io.Reader, len(rcs))
	for i, r := range rcs {
		readers[i] = r
		// An input that is also the output must be read before the
		// output file is truncated.
		if job.hasOutput && job.files[i] != "-" && env.Abs(job.files[i]) == env.Abs(job.output) {
			data, err := env.ReadAll(ctx, r)
			if err != nil {
				return textSortReadFail(env, name, job.files[i], err)
			}
			readers[i] = bytes.NewReader(data)
		}
	}
	w, closeOut, st := textSortCreate(env, name, job)
	if st >= 0 {
		return st
	}
	err := sorteng.Merge(ctx, &job.cfg, readers, w)
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) && pe.Op == "read" {
			return textSortReadFail(env, name, pe.Path, err)
		}
		return env.WriteError(name, err)
	}
	return 0
}

func textSortCheck(ctx context.Context, env *Env, name string, job *sortJob) int {
	f := job.files[0]
	r, err := textOpen(env, f)
	if err != nil {
		return textSortReadFail(env, name, f, err)
	}
	defer r.Close()
	d, err := sorteng.Check(ctx, &job.cfg, r)
	if err != nil {
		return textSortReadFail(env, name, f, err)
	}
	if d == nil {
		return 0
	}
	if job.check == 'c' {
		fmt.Fprintf(env.Stderr, "%s: %s:%d: disorder: %s\n", name, f, d.Line, d.Text)
	}
	return 1
}
