package builtins

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

// auditCase is one hostile invocation of the command audit (issue 11,
// class 1; SECURITY.md "Command audit"). Each runs with a small line
// bound (1MiB) and whole-input bound (4MiB) and must end well inside the
// hang detector with the wanted status and, when set, stderr text.
type auditCase struct {
	args []string
	// in is the input: "" none, "zero" an endless run of NUL bytes,
	// "y" an endless run of "y\n", "x" an endless line of x; anything
	// else is the literal input.
	in   string
	mode string // "cancel": the run is cancelled soon; "pipe": stdout closes after 100 bytes; "": neither
	want int    // wanted status; -1 any non-zero
	err  string // wanted in stderr, if set
}

func auditInput(in string) io.Reader {
	switch in {
	case "zero":
		return &endless{b: 0, budget: 256 << 20}
	case "x":
		return &endless{b: 'x', budget: 256 << 20}
	case "y":
		return &yesReader{budget: 256 << 20}
	}
	return strings.NewReader(in)
}

// yesReader is `yes`: endless "y\n" lines, failing past its budget.
type yesReader struct{ n, budget int }

func (y *yesReader) Read(p []byte) (int, error) {
	if y.n >= y.budget {
		return 0, errBudget
	}
	p = p[:min(len(p), y.budget-y.n)]
	for i := range p {
		p[i] = "y\n"[(y.n+i)%2]
	}
	y.n += len(p)
	return len(p), nil
}

const (
	lineTooLong  = "line too long (over 1MiB, the --max-var-bytes limit)"
	inputTooLong = "input too large (over 4MiB, the --max-capture limit)"
)

var auditCases = []auditCase{
	// head, tail: a count past any input, on an input with no newline
	{args: []string{"head", "-n", "9223372036854775807"}, in: "zero", mode: "cancel", want: -1},
	{args: []string{"head", "-c", "-9223372036854775807"}, in: "zero", want: 1, err: inputTooLong},
	{args: []string{"head", "-n", "-9223372036854775807"}, in: "y", want: 1, err: inputTooLong},
	{args: []string{"tail", "-c", "9223372036854775807"}, in: "zero", want: 1, err: inputTooLong},
	{args: []string{"tail", "-n", "9223372036854775807"}, in: "y", want: 1, err: inputTooLong},
	{args: []string{"tail", "-n", "+9223372036854775807"}, in: "y", mode: "cancel", want: -1},
	{args: []string{"tail", "-n", "3"}, in: "y", mode: "cancel", want: -1},
	// padding widths the script chose
	{args: []string{"expand", "-t", "9999999999999"}, in: "\tx\n", mode: "pipe", want: StatusBrokenPipe},
	{args: []string{"expand", "-t", "9999999999999"}, in: "\tx\n", mode: "cancel", want: -1},
	{args: []string{"nl", "-w", "2147483647"}, in: "y", mode: "pipe", want: StatusBrokenPipe},
	{args: []string{"nl", "-w", "2147483647"}, in: "a\n", mode: "cancel", want: -1},
	{args: []string{"nl", "-i", "9223372036854775807", "-v", "9223372036854775807"}, in: "a\nb\n", want: 1, err: "nl: line number overflow"},
	{args: []string{"find", ".", "-printf", "%999999999p"}, mode: "pipe", want: StatusBrokenPipe},
	{args: []string{"find", ".", "-printf", "%9999999999999999999p\n"}, want: 1, err: "find: 'standard output': Value too large for defined data type\n"},
	// skipping an endless input
	{args: []string{"cmp", "-i", "9223372036854775807", "-", "f"}, in: "zero", mode: "cancel", want: 2},
	// whole-input readers
	{args: []string{"tac"}, in: "y", want: 1, err: inputTooLong},
	{args: []string{"tac", "-r", "-s", "q"}, in: strings.Repeat("x", 3<<20), mode: "cancel", want: -1},
	{args: []string{"sort"}, in: "y", want: 2, err: inputTooLong},
	{args: []string{"column"}, in: "y", want: 1, err: inputTooLong},
	{args: []string{"column", "-t"}, in: "y", want: 1, err: inputTooLong},
	{args: []string{"diff", "-", "f"}, in: "y", want: 2, err: inputTooLong},
	{args: []string{"jq", "."}, in: "zero", want: -1},
	{args: []string{"jq", "."}, in: `"` + strings.Repeat("x", 5<<20), want: -1, err: inputTooLong},
	{args: []string{"jq", "-R", "."}, in: "x", want: -1, err: inputTooLong},
	{args: []string{"jq", "-s", "length"}, in: "y", want: -1},
	{args: []string{"jq", "-n", "input"}, in: "zero", mode: "cancel", want: -1},
	{args: []string{"jq", "-n", "range(1e18)"}, mode: "pipe", want: StatusBrokenPipe},
	{args: []string{"jq", "-n", "range(1e18)"}, mode: "cancel", want: -1},
	{args: []string{"jq", "-n", "def f: f; f"}, mode: "cancel", want: -1},
	// awk: strings and records bounded like a line; widths saturate
	{args: []string{"awk", `BEGIN{printf "%1000000000d", 1}`}, want: 2, err: lineTooLong},
	{args: []string{"awk", `BEGIN{x=sprintf("%*d", 1e9, 1)}`}, want: 2, err: lineTooLong},
	{args: []string{"awk", `BEGIN{x=sprintf("%.1000000000f", 1)}`}, want: 2, err: lineTooLong},
	{args: []string{"awk", `BEGIN{x=sprintf("%*.*d", 9e18, -9e18, 1)}`}, want: 2, err: lineTooLong},
	{args: []string{"awk", `BEGIN{x=sprintf("%9223372036854775807d", 1)}`}, want: 2, err: lineTooLong},
	{args: []string{"awk", `BEGIN{printf "%.1000000000s\n", "abc"}`}, want: 0},
	{args: []string{"awk", `BEGIN{s="x"; while(1) s=s s}`}, want: 2, err: lineTooLong},
	{args: []string{"awk", `BEGIN{s=sprintf("%1000d",1); while(1) gsub(/ /,"  ",s)}`}, want: 2, err: lineTooLong},
	{args: []string{"awk", `BEGIN{while(1) x = x "abcdefgh"}`}, mode: "cancel", want: -1},
	{args: []string{"awk", `{n++}`}, in: "zero", want: 2, err: lineTooLong},
	{args: []string{"awk", `BEGIN{RS=""} {n++}`}, in: "zero", want: 2, err: lineTooLong},
	{args: []string{"awk", `BEGIN{while((getline l) > 0) n++}`}, in: "x", want: 2, err: lineTooLong},
	{args: []string{"awk", `BEGIN{$100000000="x"}`}, want: 2, err: "too large"},
	{args: []string{"awk", `BEGIN{while(1) print "x"}`}, mode: "pipe", want: -1},
	{args: []string{"awk", `BEGIN{while(1);}`}, mode: "cancel", want: -1},
	// grep: one line and the -B context are bounded; strings streams a
	// long run and holds at most -n bytes of a short one
	{args: []string{"grep", "-c", "q"}, in: "x", want: 2, err: lineTooLong},
	{args: []string{"grep", "-B", "9223372036854775807", "q"}, in: "y", want: 2, err: inputTooLong},
	{args: []string{"grep", "-B", "2", "q"}, in: "y", mode: "cancel", want: -1},
	{args: []string{"strings"}, in: "x", mode: "pipe", want: StatusBrokenPipe},
	{args: []string{"strings"}, in: "x", mode: "cancel", want: -1},
	{args: []string{"strings", "-n", "99999999999"}, in: "x", want: 1, err: lineTooLong},
	{args: []string{"strings", "-n", "3"}, in: "ab\x00abc\x01abcdef", want: 0},
	// patch reads its input whole; bc's base conversion of a huge number
	{args: []string{"patch"}, in: "zero", want: 2, err: inputTooLong},
	{args: []string{"bc"}, in: "obase=7; 10^4999999\n", mode: "cancel", want: -1},
	{args: []string{"bc"}, in: "obase=2; 10^99999\n", mode: "pipe", want: -1},
	{args: []string{"bc"}, in: "obase=99; 10^999999\n", mode: "cancel", want: -1},
}

// TestCommandAudit runs every hostile invocation of the audit table.
func TestCommandAudit(t *testing.T) {
	for _, c := range auditCases {
		name := strings.Join(c.args, " ") + " <" + c.in[:min(len(c.in), 10)] + " " + c.mode
		t.Run(name, func(t *testing.T) {
			env := testEnv(t, map[string]string{"f": "a\n", "d/": ""})
			env.MaxLine, env.MaxInput = 1<<20, 4<<20
			var errb bytes.Buffer
			sub := env.Sub()
			sub.Stdin, sub.Stdout, sub.Stderr = auditInput(c.in), io.Discard, &errb
			ctx := context.Background()
			switch c.mode {
			case "pipe":
				sub.Stdout = &closedPipe{n: 100}
			case "cancel":
				ctx = cancelSoon(t)
			}
			st := runOrHang(t, name, func() int { return sub.Run(ctx, c.args) })
			if c.want == -1 && st == 0 || c.want >= 0 && st != c.want || !strings.Contains(errb.String(), c.err) {
				t.Errorf("%q: status %d, stderr %q; want %d and %q", c.args, st, errb.String(), c.want, c.err)
			}
			for _, bad := range []string{"budget", "panic", "internal error", "goroutine"} {
				if strings.Contains(errb.String(), bad) {
					t.Errorf("%q: stderr %q", c.args, errb.String())
				}
			}
		})
	}
}
