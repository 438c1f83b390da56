package sed

import (
	"bytes"
	"context"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sandsh/sandsh/internal/suite"
)

// fuzzAddr returns a random address (often none).
func fuzzAddr(r *rand.Rand) string {
	addrs := []string{"1", "$", "/a/", "2,4", "/b/,/a/", "0,/a/", "2~2", "/a/,+1", "3!", "$!", "/^$/", "", "", "", "/a/I", "2,~3", "/x/,$", "$,/a/", "1,1"}
	return addrs[r.Intn(len(addrs))]
}

// fuzzCmds is the pool of commands random scripts are made of; tL, TL
// and bL jump to a label L added at the end.
var fuzzCmds = []string{"p", "P", "d", "D", "n", "N", "g", "G", "h", "H", "x", "=", "l", "z",
	"s/a/X/", "s/a*/-/g", "s/\\(a\\)\\(b\\)/\\2\\1/", "s/b/\\n/", "s/^/>/", "s/$/</", "s/./\\u&/2", "s/a/&&/gp",
	"y/ab/ba/", "a foo", "i bar", "c baz", "tL", "TL", "bL", "$!N", "s/\\n/|/", "s/a\\|b/Q/3", "q", "Q",
	"s/[[:space:]]//g", "s/.*/\\U&/", "s/x*$//",
	"s/^b/B/M", "s/a$/A/Mg", "/A/Id", "s/A/z/Ig", "W /dev/stdout", "w /dev/stdout", "R ins2", "r ins", "1~3c\\\nC1\\\nC2",
	"2,3c ch", "$a\\\nend", "F", "l 3", "s/\\(b*\\)\\(a\\)/\\u\\1\\2/g", "s/\\w\\+/\\L\\u&/g", "s/ /\\\n/2",
	"/a/,/b/!s/x/y/", "s//Z/", "y/\\n/_/", "/a/,~2p", "0~3d", "s/[^a]/./3g", "q5", "$Q3", "2q", "s/\\bx/W/g", "s/\\<a/S/",
	"s/\\(a\\|b\\)\\{2\\}/<&>/g", "s/\\(x\\)*/[\\1]/", "s/ *$//;s/^ *//"}

// fuzzCmd returns a random command, sometimes a block of them.
func fuzzCmd(r *rand.Rand, depth int) string {
	if depth < 2 && r.Intn(6) == 0 {
		n := 1 + r.Intn(3)
		var parts []string
		for i := 0; i < n; i++ {
			parts = append(parts, fuzzCmd(r, depth+1))
		}
		return fuzzAddr(r) + "{" + strings.Join(parts, "\n") + "\n}"
	}
	return fuzzAddr(r) + fuzzCmds[r.Intn(len(fuzzCmds))]
}

// fuzzInput returns a few short lines, sometimes without the final newline.
func fuzzInput(r *rand.Rand) string {
	var in strings.Builder
	for i := r.Intn(7); i > 0; i-- {
		for j := r.Intn(5); j > 0; j-- {
			in.WriteByte("ab  xA"[r.Intn(6)])
		}
		in.WriteByte('\n')
	}
	s := in.String()
	if r.Intn(5) == 0 && len(s) > 0 {
		s = s[:len(s)-1]
	}
	return s
}

// TestRandomScriptsAgainstGNU runs random scripts built from a pool of
// commands and addresses on random input with GNU sed and with the engine,
// and compares output and exit status.
func TestRandomScriptsAgainstGNU(t *testing.T) {
	if _, err := exec.LookPath("sed"); err != nil {
		suite.Skip(t, "sed", "GNU sed is the oracle")
	}
	r := rand.New(rand.NewSource(20240102))
	dir := t.TempDir()
	fails, compared := 0, 0
	for iter := 0; iter < 400 && fails < 10; iter++ {
		n := 1 + r.Intn(5)
		var parts []string
		for i := 0; i < n; i++ {
			parts = append(parts, fuzzCmd(r, 0))
		}
		script := strings.Join(parts, "\n")
		if strings.Contains(script, "L") {
			script += "\n:L"
		}
		if r.Intn(4) == 0 {
			script = ":L\n" + script
		}
		files := memFiles{"ins": "INS\n", "ins2": "R1\nR2", "f1": fuzzInput(r), "f2": fuzzInput(r)}
		for k, v := range files {
			os.WriteFile(filepath.Join(dir, k), []byte(v), 0o644)
		}
		input := fuzzInput(r)
		opt := Options{LineWrap: 70}
		var args []string
		if r.Intn(3) == 0 {
			opt.Quiet = true
			args = append(args, "-n")
		}
		if r.Intn(6) == 0 {
			opt.NullData = true
			args = append(args, "-z")
			input = strings.ReplaceAll(input, " ", "\x00")
		}
		if r.Intn(4) == 0 {
			opt.Extended = true
			args = append(args, "-E")
			script = strings.NewReplacer("\\(", "(", "\\)", ")", "\\|", "|", "\\{", "{", "\\}", "}", "\\+", "+").Replace(script)
		}
		var inFiles []string
		if r.Intn(3) == 0 {
			inFiles = []string{"f1", "f2"}
			if r.Intn(2) == 0 {
				opt.Separate = true
				args = append(args, "-s")
			}
		}
		args = append(args, script)
		args = append(args, inFiles...)
		hctx, hcancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		cmd := exec.CommandContext(hctx, "sed", args...)
		cmd.Dir = dir
		cmd.Env = []string{"LC_ALL=C"}
		cmd.Stdin = strings.NewReader(input)
		var ho, he bytes.Buffer
		cmd.Stdout, cmd.Stderr = &ho, &he
		cmd.Run()
		timedOut := hctx.Err() != nil
		hcancel()
		if timedOut {
			continue // an endless loop
		}
		compared++
		hst := cmd.ProcessState.ExitCode()

		prog, err := Compile([]Script{{Text: []byte(script)}}, opt)
		var out, errb bytes.Buffer
		st := 0
		if err != nil {
			st = err.(*Error).Status
			errb.WriteString(err.Error())
		} else {
			// The host sed finished, so ours must too: this deadline is
			// only a hang detector, generous for a loaded machine.
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			st, _ = prog.Run(ctx, inFiles, testIO(files, input, &out, &errb))
			cancel()
		}
		if out.String() != ho.String() || st != hst || (errb.Len() == 0) != (he.Len() == 0) {
			fails++
			t.Errorf("case %d: args %q input %q f1 %q f2 %q\nhost %q %d %q\nours %q %d %q", iter, args, input, files["f1"], files["f2"], ho.String(), hst, he.String(), out.String(), st, errb.String())
		}
	}
	if compared < 300 {
		t.Errorf("only %d cases compared", compared)
	}
}
