package builtins

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/spf13/afero"

	"github.com/sandsh/sandsh/builtins/internal/patch"
)

const dataPatchUsage = `Usage: patch [OPTION]... [ORIGFILE [PATCHFILE]]

Apply a unified diff to files.

  -p NUM  --strip=NUM  Strip NUM leading components from file names.
  -i PATCHFILE  --input=PATCHFILE  Read patch from PATCHFILE instead of stdin.
  -R  --reverse  Assume patches were created with old and new files swapped.
  -N  --forward  Ignore patches that appear to be reversed or already applied.
  -o FILE  --output=FILE  Output patched files to FILE.
  -d DIR  --directory=DIR  Change the working directory to DIR first.
  -b  --backup  Back up the original contents of each file.
  -E  --remove-empty-files  Remove output files that are empty after patching.
  -F LINES  --fuzz LINES  Set the fuzz factor to LINES for inexact matching (default 2).
  -l  --ignore-whitespace  Ignore white space changes between patch and input.
  -f  --force  Like -t, but ignore bad-Prereq patches, and assume unreversed.
  -t  --batch  Ask no questions; skip bad-Prereq patches; assume reversed.
  -s  --quiet  --silent  Work silently unless an error occurs.
  --dry-run  Do not actually change any files; just print what would happen.
  --no-backup-if-mismatch  Back up mismatches only if otherwise requested.
`

// dataPatch is one patch invocation.
type dataPatch struct {
	ctx                      context.Context
	env                      *Env
	out                      *bufio.Writer
	strip                    int // -1: basename only (no -p given)
	reverse, forward, dryRun bool
	backup, noBackupMismatch bool
	removeEmpty, ignoreSpace bool
	force, batch, silent     bool
	output, dir              string
	fuzz                     int
	origFile                 string
	failed                   bool
}

var patchGetopt = Getopt{Short: "p:i:RNo:d:bElftsuF:", Long: []string{"strip=", "input=", "reverse", "forward", "output=",
	"directory=", "backup", "remove-empty-files", "ignore-whitespace", "force", "batch", "quiet", "silent",
	"dry-run", "fuzz=", "no-backup-if-mismatch", "unified", "posix", "binary"},
	LongAlias: map[string]string{"strip": "p", "input": "i", "reverse": "R", "forward": "N", "output": "o",
		"directory": "d", "backup": "b", "remove-empty-files": "E", "ignore-whitespace": "l", "force": "f",
		"batch": "t", "fuzz": "F", "quiet": "s", "silent": "s", "unified": "u"}}

func runPatch(ctx context.Context, env *Env, args []string) int {
	g := patchGetopt
	opts, ops, err := g.Parse(args[1:])
	if err != nil {
		fmt.Fprintf(env.Stderr, "patch: %v\npatch: Try 'patch --help' for more information.\n", err)
		return 2
	}
	p := &dataPatch{ctx: ctx, env: env, strip: -1, fuzz: 2}
	input := ""
	for _, o := range opts {
		switch o.Name {
		case "p":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 0 {
				fmt.Fprintf(env.Stderr, "patch: **** strip count %s is not a number\n", o.Value)
				return 2
			}
			p.strip = n
		case "i":
			input = o.Value
		case "R":
			p.reverse = true
		case "N":
			p.forward = true
		case "o":
			p.output = o.Value
		case "d":
			p.dir = o.Value
		case "b":
			p.backup = true
		case "E":
			p.removeEmpty = true
		case "l":
			p.ignoreSpace = true
		case "f":
			p.force = true
		case "t":
			p.batch = true
		case "s":
			p.silent = true
		case "F":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 0 {
				fmt.Fprintf(env.Stderr, "patch: **** fuzz factor %s is not a number\n", o.Value)
				return 2
			}
			p.fuzz = n
		case "dry-run":
			p.dryRun = true
		case "no-backup-if-mismatch":
			p.noBackupMismatch = true
		}
	}
	if len(ops) > 2 {
		fmt.Fprintf(env.Stderr, "patch: extra operand '%s'\npatch: Try 'patch --help' for more information.\n", ops[2])
		return 2
	}
	if len(ops) >= 1 {
		p.origFile = ops[0]
	}
	if len(ops) == 2 {
		input = ops[1]
	}
	if p.dir != "" {
		sub := env.Sub()
		sub.Dir = env.Abs(p.dir)
		if fi, err := env.FS.Stat(sub.Dir); err != nil || !fi.IsDir() {
			if err == nil {
				err = &os.PathError{Op: "chdir", Path: p.dir, Err: errDataNotDir}
			}
			fmt.Fprintf(env.Stderr, "patch: **** Can't change to directory %s : %s\n", p.dir, ErrText(err))
			return 2
		}
		p.env = sub
	}
	var r io.Reader = env.Stdin
	if input != "" && input != "-" {
		f, err := p.env.Open(input)
		if err != nil {
			fmt.Fprintf(env.Stderr, "patch: **** Can't open patch file %s : %s\n", input, ErrText(err))
			return 2
		}
		defer f.Close()
		r = f
	}
	// The patch is read whole first: bounded like every whole input,
	// and a cancelled read is not taken for the end of the patch.
	data, err := env.ReadAll(ctx, r)
	if err != nil {
		if ctxDone(err) {
			return 130
		}
		fmt.Fprintf(env.Stderr, "patch: **** read error : %s\n", ErrText(err))
		return 2
	}
	patches, perr := patch.Parse(bytes.NewReader(data))
	p.out = dataWriter(env)
	defer p.out.Flush()
	if len(patches) == 0 && perr == nil {
		p.out.Flush()
		fmt.Fprintln(env.Stderr, "patch: **** Only garbage was found in the patch input.")
		return 2
	}
	for _, fp := range patches {
		if ctx.Err() != nil {
			return 130
		}
		if err := p.apply(fp); err != nil {
			p.out.Flush()
			fmt.Fprintf(env.Stderr, "patch: **** %v\n", err)
			return 2
		}
	}
	if err := p.out.Flush(); err != nil {
		return env.WriteError("patch", err)
	}
	if perr != nil {
		fmt.Fprintf(env.Stderr, "patch: **** %v\n", perr)
		return 2
	}
	if p.failed {
		return 1
	}
	return 0
}

func (p *dataPatch) say(format string, a ...any) {
	if !p.silent {
		fmt.Fprintf(p.out, format, a...)
	}
}

// stripName applies -p to a name from the patch; "" when it has too few
// components.
func (p *dataPatch) stripName(name string) string {
	if name == "" || name == "/dev/null" {
		return ""
	}
	if p.strip < 0 {
		return path.Base(name)
	}
	s := name
	for i := 0; i < p.strip; i++ {
		j := strings.IndexByte(s, '/')
		if j < 0 {
			return ""
		}
		s = strings.TrimLeft(s[j+1:], "/")
	}
	return s
}

func (p *dataPatch) exists(name string) bool {
	fi, err := p.env.FS.Stat(p.env.Abs(name))
	return err == nil && !fi.IsDir()
}

// pickName chooses the file to patch like GNU patch: among the old, new
// and Index names, the existing ones if any, and of those the one with
// the fewest components, then the shortest base name, then the shortest.
func (p *dataPatch) pickName(fp *patch.FilePatch) string {
	if p.origFile != "" {
		return p.origFile
	}
	var cands []string
	for _, n := range []string{fp.OldName, fp.NewName} {
		if s := p.stripName(n); s != "" {
			cands = append(cands, s)
		}
	}
	if len(cands) == 0 && fp.Index != "" {
		if s := p.stripName(fp.Index); s != "" {
			cands = append(cands, s)
		}
	}
	var pool []string
	for _, c := range cands {
		if p.exists(c) {
			pool = append(pool, c)
		}
	}
	if len(pool) == 0 {
		if !fp.Creates() && !fp.Deletes() {
			return ""
		}
		pool = cands
	}
	best := ""
	for _, c := range pool {
		if best == "" || dataPatchBetter(c, best) {
			best = c
		}
	}
	return best
}

func dataPatchBetter(a, b string) bool {
	ca, cb := strings.Count(a, "/"), strings.Count(b, "/")
	if ca != cb {
		return ca < cb
	}
	if la, lb := len(path.Base(a)), len(path.Base(b)); la != lb {
		return la < lb
	}
	return len(a) < len(b)
}

func (p *dataPatch) readText(name string) (patch.Text, bool, error) {
	f, err := p.env.Open(name)
	if err != nil {
		if dataNotExist(err) {
			return patch.Text{}, false, nil
		}
		return patch.Text{}, false, err
	}
	defer f.Close()
	b, err := p.env.ReadAll(p.ctx, f)
	if err != nil {
		return patch.Text{}, false, err
	}
	return patch.Split(b), true, nil
}

func (p *dataPatch) writeFile(name string, data []byte) error {
	abs := p.env.Abs(name)
	if err := p.env.FS.MkdirAll(path.Dir(abs), 0o755); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if fi, err := p.env.FS.Stat(abs); err == nil {
		mode = fi.Mode().Perm()
	}
	return afero.WriteFile(p.env.FS, abs, data, mode)
}

func (p *dataPatch) apply(fp *patch.FilePatch) error {
	if p.reverse {
		fp.Reverse()
	}
	name := p.pickName(fp)
	n := len(fp.Hunks)
	if name == "" {
		hint := "should have used the"
		if p.strip >= 0 {
			hint = "used the wrong"
		}
		p.say("can't find file to patch at input line %d\nPerhaps you %s -p or --strip option?\n", fp.StartLine, hint)
		p.say("The text leading up to this was:\n--------------------------\n")
		for _, l := range fp.Leading {
			p.say("|%s\n", l)
		}
		if p.batch || p.force {
			p.say("--------------------------\nNo file to patch.  Skipping patch.\n")
		} else {
			p.say("--------------------------\nFile to patch: \nSkip this patch? [y] \nSkipping patch.\n")
		}
		p.say("%d out of %d hunk%s ignored\n", n, n, dataPlural(n))
		p.failed = true
		return nil
	}
	orig, existed, err := p.readText(name)
	if err != nil {
		return fmt.Errorf("Can't open file %s : %s", name, ErrText(err))
	}
	if fp.Deletes() && !existed && !fp.Creates() {
		p.say("The next patch would delete the file %s,\nwhich does not exist!  ", name)
		return p.skipReversed(fp, name, n, false)
	}
	if fp.Creates() && existed && len(orig.Lines) > 0 {
		p.say("The next patch would create the file %s,\nwhich already exists!  ", name)
		return p.skipReversed(fp, name, n, false)
	}
	assumedReverse := false
	verb := "patching"
	if p.dryRun {
		verb = "checking"
	}
	if p.output != "" && !p.dryRun {
		p.say("%s file %s (read from %s)\n", verb, p.output, name)
	} else {
		p.say("%s file %s\n", verb, name)
	}
	// A first hunk that fails but applies reversed means the patch was
	// probably applied already.
	if len(fp.Hunks) > 0 {
		first := fp.Hunks[0]
		if _, ok := first.Find(orig, first.OldStart-1, 0, p.ignoreSpace, 0); !ok && first.OldCount > 0 {
			rev := *first
			rev.Lines = append([]patch.Line(nil), first.Lines...)
			tmp := &patch.FilePatch{Hunks: []*patch.Hunk{&rev}}
			tmp.Reverse()
			if _, rok := rev.Find(orig, rev.OldStart-1, 0, p.ignoreSpace, 0); rok {
				switch {
				case p.forward:
					p.say("Reversed (or previously applied) patch detected!  Skipping patch.\n")
					return p.ignoreAll(fp, name, n)
				case p.batch:
					p.say("Reversed (or previously applied) patch detected!  Assuming -R.\n")
					fp.Reverse()
					assumedReverse = true
				case p.force:
					p.say("Reversed (or previously applied) patch detected!  Applying it anyway.\n")
				default:
					p.say("Reversed (or previously applied) patch detected!  ")
					return p.skipReversed(fp, name, n, true)
				}
			}
		}
	}
	result, results := patch.Apply(orig, fp.Hunks, p.ignoreSpace, p.fuzz)
	var failed []*patch.Hunk
	mismatch := assumedReverse
	for k, r := range results {
		switch {
		case !r.Applied:
			p.say("Hunk #%d FAILED at %d.\n", k+1, r.At)
			failed = append(failed, fp.Hunks[k])
			mismatch = true
		case r.Offset != 0 || r.Fuzz != 0:
			p.say("Hunk #%d succeeded at %d", k+1, r.At)
			if r.Fuzz != 0 {
				p.say(" with fuzz %d", r.Fuzz)
			}
			if r.Offset != 0 {
				p.say(" (offset %d line%s)", r.Offset, dataPlural(r.Offset))
			}
			p.say(".\n")
			mismatch = true
		}
	}
	if !p.dryRun {
		if err := p.commit(fp, name, orig, existed, result, mismatch); err != nil {
			return err
		}
	}
	if len(failed) > 0 {
		p.failed = true
		if p.dryRun {
			p.say("%d out of %d hunk%s FAILED\n", len(failed), n, dataPlural(n))
			return nil
		}
		rej := name + ".rej"
		if p.output != "" {
			rej = p.output + ".rej"
		}
		p.say("%d out of %d hunk%s FAILED -- saving rejects to file %s\n", len(failed), n, dataPlural(n), rej)
		var b bytes.Buffer
		patch.WriteReject(&b, name, fp, failed)
		if err := p.writeFile(rej, b.Bytes()); err != nil {
			return fmt.Errorf("Can't create file %s : %s", rej, ErrText(err))
		}
	}
	return nil
}

// commit writes the patched text (or removes a deleted file) and the
// backup GNU makes when the patch did not apply cleanly.
func (p *dataPatch) commit(fp *patch.FilePatch, name string, orig patch.Text, existed bool, result patch.Text, mismatch bool) error {
	target := name
	if p.output != "" {
		target = p.output
	}
	if existed && p.output == "" && (p.backup || mismatch && !p.noBackupMismatch) {
		if err := p.writeFile(name+".orig", orig.Bytes()); err != nil {
			return fmt.Errorf("Can't create file %s.orig : %s", name, ErrText(err))
		}
	}
	data := result.Bytes()
	if len(data) == 0 && p.output == "" && (fp.Deletes() || p.removeEmpty) {
		if err := p.env.FS.Remove(p.env.Abs(name)); err != nil && !dataNotExist(err) {
			return fmt.Errorf("Can't remove file %s : %s", name, ErrText(err))
		}
		return nil
	}
	if err := p.writeFile(target, data); err != nil {
		return fmt.Errorf("Can't create file %s : %s", target, ErrText(err))
	}
	return nil
}

// skipReversed answers GNU's questions as a non-interactive run does:
// no to both, so the patch is skipped.
func (p *dataPatch) skipReversed(fp *patch.FilePatch, name string, n int, rej bool) error {
	if p.batch || p.force {
		p.say("Skipping patch.\n")
	} else {
		p.say("Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n")
	}
	if !rej {
		p.say("%d out of %d hunk%s ignored\n", n, n, dataPlural(n))
		p.failed = true
		return nil
	}
	return p.ignoreAll(fp, name, n)
}

func (p *dataPatch) ignoreAll(fp *patch.FilePatch, name string, n int) error {
	p.failed = true
	if p.dryRun {
		p.say("%d out of %d hunk%s ignored\n", n, n, dataPlural(n))
		return nil
	}
	rej := name + ".rej"
	p.say("%d out of %d hunk%s ignored -- saving rejects to file %s\n", n, n, dataPlural(n), rej)
	var b bytes.Buffer
	patch.WriteReject(&b, name, fp, fp.Hunks)
	if err := p.writeFile(rej, b.Bytes()); err != nil {
		return fmt.Errorf("Can't create file %s : %s", rej, ErrText(err))
	}
	return nil
}

func dataPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
