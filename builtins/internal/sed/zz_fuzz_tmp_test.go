package sed

import (
	"bytes"
	"context"
	"math/rand"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func genAddr(r *rand.Rand) string {
	switch r.Intn(12) {
	case 0:
		return "1"
	case 1:
		return "$"
	case 2:
		return "/a/"
	case 3:
		return "2,4"
	case 4:
		return "/b/,/a/"
	case 5:
		return "0,/a/"
	case 6:
		return "2~2"
	case 7:
		return "/a/,+1"
	case 8:
		return "3!"
	case 9:
		return "$!"
	case 10:
		return "/^$/"
	}
	return ""
}

func genCmd(r *rand.Rand, depth int) string {
	cmds := []string{"p", "P", "d", "D", "n", "N", "g", "G", "h", "H", "x", "=", "l", "z",
		"s/a/X/", "s/a*/-/g", "s/\\(a\\)\\(b\\)/\\2\\1/", "s/b/\\n/", "s/^/>/", "s/$/</", "s/./\\u&/2", "s/a/&&/gp",
		"y/ab/ba/", "a foo", "i bar", "c baz", "tL", "TL", "bL", "$!N", "s/\\n/|/", "s/a\\|b/Q/3", "q", "Q",
		"s/[[:space:]]//g", "s/.*/\\U&/", "ba", "s/x*$//"}
	if depth < 2 && r.Intn(6) == 0 {
		n := 1 + r.Intn(3)
		var parts []string
		for i := 0; i < n; i++ {
			parts = append(parts, genCmd(r, depth+1))
		}
		return genAddr(r) + "{" + strings.Join(parts, "\n") + "\n}"
	}
	c := cmds[r.Intn(len(cmds))]
	return genAddr(r) + c
}

func TestFuzzTmp(t *testing.T) {
	r := rand.New(rand.NewSource(int64(time.Now().Nanosecond())))
	fails := 0
	for iter := 0; iter < 3000 && fails < 15; iter++ {
		n := 1 + r.Intn(5)
		var parts []string
		if r.Intn(3) == 0 {
			parts = append(parts, ":L")
		}
		for i := 0; i < n; i++ {
			parts = append(parts, genCmd(r, 0))
		}
		if strings.Contains(strings.Join(parts, ""), "bL") || strings.Contains(strings.Join(parts, ""), "tL") || strings.Contains(strings.Join(parts, ""), "TL") {
			parts = append(parts, ":L")
		}
		script := strings.Join(parts, "\n")
		if strings.Contains(script, "ba") {
			script = strings.ReplaceAll(script, "ba", "bL")
			script += "\n:L"
		}
		var in strings.Builder
		for i := r.Intn(7); i > 0; i-- {
			for j := r.Intn(5); j > 0; j-- {
				in.WriteByte("ab  x"[r.Intn(5)])
			}
			in.WriteByte('\n')
		}
		input := in.String()
		if r.Intn(5) == 0 && len(input) > 0 {
			input = input[:len(input)-1]
		}
		quiet := r.Intn(3) == 0
		args := []string{}
		if quiet {
			args = append(args, "-n")
		}
		args = append(args, script)
		cmd := exec.Command("sed", args...)
		cmd.Env = []string{"LC_ALL=C"}
		cmd.Stdin = strings.NewReader(input)
		var ho, he bytes.Buffer
		cmd.Stdout, cmd.Stderr = &ho, &he
		cmd.Run()
		hst := cmd.ProcessState.ExitCode()

		prog, err := Compile([]Script{{Text: []byte(script)}}, Options{Quiet: quiet, LineWrap: 70})
		var out, errb bytes.Buffer
		st := 0
		if err != nil {
			st = err.(*Error).Status
			errb.WriteString(err.Error())
		} else {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			st, _ = prog.Run(ctx, nil, testIO(memFiles{}, input, &out, &errb))
			cancel()
		}
		if out.String() != ho.String() || st != hst || (errb.Len() == 0) != (he.Len() == 0) {
			fails++
			t.Errorf("script %q quiet=%v input %q\nhost %q %d %q\nours %q %d %q", script, quiet, input, ho.String(), hst, he.String(), out.String(), st, errb.String())
		}
	}
}
