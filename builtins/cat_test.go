package builtins

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

func TestCat(t *testing.T) {
	long := strings.Repeat("x", 100000)
	filesRunCases(t, []filesCase{
		{files: map[string]string{"a": "1\n2\n"}, args: []string{"cat", "a"}, out: "1\n2\n"},
		{files: map[string]string{"a": "1\n"}, args: []string{"cat", "-", "a", "-"}, stdin: "in\n", out: "in\n1\n"},
		{args: []string{"cat", "nofile"}, errSub: "cat: nofile: No such file or directory", status: 1},
		{files: map[string]string{"d/": ""}, args: []string{"cat", "d"}, errSub: "cat: d: Is a directory", status: 1},
		{files: map[string]string{"a b": "x"}, args: []string{"cat", "a b", "a:c"}, out: "x", errSub: "cat: 'a:c': No such", status: 1},
		{args: []string{"cat", "-n"}, stdin: "a\n\nb", out: "     1\ta\n     2\t\n     3\tb"},
		{args: []string{"cat", "-b"}, stdin: "a\n\nb\n", out: "     1\ta\n\n     2\tb\n"},
		{args: []string{"cat", "-s"}, stdin: "a\n\n\n\nb\n\n", out: "a\n\nb\n\n"},
		{args: []string{"cat", "-sn"}, stdin: "\n\n\na\n", out: "     1\t\n     2\ta\n"},
		{args: []string{"cat", "-E"}, stdin: "a\r\nb\rc\n", out: "a^M$\nb\rc$\n"},
		{args: []string{"cat", "-T"}, stdin: "a\tb\n", out: "a^Ib\n"},
		{args: []string{"cat", "-v"}, stdin: "\x00\x7f\x80\xff\t\n", out: "^@^?M-^@M-^?\t\n"},
		{args: []string{"cat", "-A"}, stdin: "\x1b\t\xe9\n", out: "^[^IM-i$\n"},
		{args: []string{"cat", "-e"}, stdin: "a\x01\n", out: "a^A$\n"},
		{args: []string{"cat", "-t"}, stdin: "\t\x02\n", out: "^I^B\n"},
		{name: "long line numbered once", args: []string{"cat", "-n"}, stdin: long + "\nb\n", out: "     1\t" + long + "\n     2\tb\n"},
		{name: "CR at buffer edge", args: []string{"cat", "-E"}, stdin: strings.Repeat("y", 65535) + "\r\n",
			out: strings.Repeat("y", 65535) + "^M$\n"},
		{files: map[string]string{"a": "x", "b": "y\n"}, args: []string{"cat", "-n", "a", "b"}, out: "     1\txy\n"},
		{args: []string{"cat", "-x"}, errSub: "invalid option -- 'x'", status: 1},
		{args: []string{"cat", "--help"}, outSub: []string{"Usage: cat"}},
	})
}

// catInfinite is an endless input, like yes.
type catInfinite struct{}

func (catInfinite) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'y'
		if i%2 == 1 {
			p[i] = '\n'
		}
	}
	return len(p), nil
}

// catClosed is a stdout whose reader has gone away.
type catClosed struct{}

func (catClosed) Write(p []byte) (int, error) { return 0, io.ErrClosedPipe }

func TestCatStops(t *testing.T) {
	for _, args := range [][]string{{"cat"}, {"cat", "-n"}} {
		env := testEnv(t, nil)
		env.Stdin, env.Stdout, env.Stderr = catInfinite{}, catClosed{}, io.Discard
		if st := runCat(context.Background(), env, args); st != StatusBrokenPipe {
			t.Errorf("%v on a closed pipe: status %d", args, st)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		env.Stdout = io.Discard
		st := runOrHang(t, fmt.Sprint(args, " cancelled"), func() int { return runCat(ctx, env, args) })
		cancel()
		if st == 0 {
			t.Errorf("%v cancelled: status 0", args)
		}
	}
}
