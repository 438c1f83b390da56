package builtins

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
)

func TestPrintfUnit(t *testing.T) {
	cases := []struct {
		format string
		args   []string
		want   string
		status int
		stderr bool
	}{
		{"%s-%s\n", []string{"a", "b", "c"}, "a-b\nc-\n", 0, false},
		{"%d\n", []string{"abc"}, "0\n", 1, true},
		{"%5.2f|%-6s|\n", []string{"3.14159", "ab"}, " 3.14|ab    |\n", 0, false},
		{"%b", []string{`a\nb\c`, "ignored"}, "a\nb", 0, false},
		{"%q\n", []string{"it's"}, "it\\'s\n", 0, false},
		{"%x %X %o\n", []string{"255", "255", "8"}, "ff FF 10\n", 0, false},
		{"%(%Y-%m-%d)T\n", []string{"86400"}, "1970-01-02\n", 0, false},
		{"%(%H:%M)T\n", nil, "03:04\n", 0, false},
		{"%d\n", []string{"'A"}, "65\n", 0, false},
		{"%2000000d", []string{"1"}, "", 1, true},
		{"%*d", []string{"99999999", "1"}, "", 1, true},
		{"%z", nil, "", 1, true},
		{"\\u00e9", nil, "\\u00E9", 0, false},
	}
	for _, c := range cases {
		env := testEnv(t, nil)
		var errb bytes.Buffer
		env.Stderr = &errb
		out, st := Printf(env, c.format, c.args)
		if out != c.want || st != c.status || (errb.Len() > 0) != c.stderr {
			t.Errorf("Printf(%q, %q) = %q, %d, stderr %q; want %q, %d", c.format, c.args, out, st, errb.String(), c.want, c.status)
		}
	}
	env := testEnv(t, nil)
	env.Environ = append(env.Environ, "LC_ALL=C.UTF-8")
	for _, c := range []struct {
		format string
		args   []string
		want   string
	}{
		{`\u00e9`, nil, "é"},
		{`%q|%q`, []string{"é", "é\t"}, "é|$'é\\t'"},
		{`%d`, []string{"'é"}, "233"},
		{`%c|%.1s`, []string{"é", "é"}, "\xc3|\xc3"},
	} {
		if out, _ := Printf(env, c.format, c.args); out != c.want {
			t.Errorf("UTF-8 locale: Printf(%q, %q) = %q, want %q", c.format, c.args, out, c.want)
		}
	}
}

// printfBashCases are run through bash's printf builtin and Printf.
var printfBashCases = [][]string{
	{`%s\n`, "a", "b", "c"},
	{`%s %s\n`, "a"},
	{`x%sy`},
	{`no conversions\n`, "extra"},
	{`%d|%i|%u\n`, "42", "-7", "-1"},
	{`%d %d %d\n`, "0x1f", "010", "+5"},
	{`%d\n`, "12abc"},
	{`%d\n`, "abc"},
	{`%d\n`, " 12"},
	{`%d\n`, "12 "},
	{`%d\n`, ""},
	{`%d\n`, "99999999999999999999"},
	{`%d\n`, "-99999999999999999999"},
	{`%u\n`, "-99999999999999999999"},
	{`%x\n`, "-1"},
	{`%d %d\n`, "'a", `"b`},
	{`%d\n`, "'"},
	{`%d\n`, "'é"},
	{`%c%c%c\n`, "hello", "", "w"},
	{`%5s|%-5s|%.2s|%5.1s|\n`, "ab", "cd", "efgh", "ij"},
	{`%05d|%-5d|%+d|% d|%+5d|%-+5d|\n`, "42", "42", "42", "42", "42", "42"},
	{`%.3d|%8.3d|%-8.3d|%08.3d|%.0d|\n`, "7", "7", "7", "7", "0"},
	{`%#x|%#X|%#o|%#o|%#x\n`, "255", "255", "8", "0", "0"},
	{`%o %X %x\n`, "64", "48879", "48879"},
	{`%*d|%-*d|%*d|\n`, "5", "1", "5", "2", "-5", "3"},
	{`%.*f|%.*f\n`, "2", "3.14159", "-1", "2.5"},
	{`%*.*s|\n`, "6", "2", "abcdef"},
	{`%f|%.2f|%10.3f|%-10.1f|%010.2f\n`, "3.14159", "2.675", "-1.5", "1.25", "-3.5"},
	{`%e|%E|%.2e|%.0e|%#.0e\n`, "12345.678", "0.000123", "1e10", "5", "5"},
	{`%g|%g|%g|%g|%g|%g\n`, "100000", "1000000", "0.0001", "0.00001", "1.5", "123456789"},
	{`%G|%#g|%.3g|%.0g|%#.3g\n`, "1e-10", "1.5", "3.14159", "2.5", "1"},
	{`%a|%A|%.2a|%.0a|%a\n`, "100", "1", "0.1", "1.5", "0"},
	{`%f %f %f\n`, "inf", "-inf", "nan"},
	{`%F|%E|%G|%5.1f|%-6f|%06f\n`, "inf", "inf", "-inf", "nan", "inf", "inf"},
	{`%.20f\n`, "0.1"},
	{`%.30f\n`, "1e-20"},
	{`%f\n`, "1e4000"},
	{`%f\n`, "0x1.8p3"},
	{`%f\n`, "1.5abc"},
	{`%f %f\n`, "'A", ""},
	{`%.15g|%.17g|%.18g|%.19g|%.20g\n`, "0.1", "0.1", "0.1", "0.1", "0.1"},
	{`%e\n`, "1e-4940"},
	{`%g\n`, "1e5000"},
	{`%'d|%'.2f\n`, "1234567", "1234.5"},
	{`%ld %lld %hd %jd %zd %Lf\n`, "1", "2", "3", "4", "5", "6"},
	{`%b|\n`, `a\tb\n\0101\101\x41\u0041\e[0m\q\\`},
	{`%b|%b\n`, `\'\"\?`, `\c`, "after"},
	{`%b\n`, `stop\chere`, "never"},
	{`%5b|%-5b|%.2b|\n`, "ab", "cd", "efgh"},
	{`\a\b\f\r\v\e\E\\\"\'\?\q\x41\101\0101\u263a\U0001F600|\n`},
	{`\x`},
	{`\xg`},
	{`\c done\n`},
	{`%q %q %q %q %q\n`, "it's", "a b", "", "$HOME", "a\tb"},
	{`%q\n`, "~x", "a~", "#a", "a#", "a=~", "x:~y", "é", "!x", ",", "a]", "{", "-x", "a%b"},
	{`%q\n`, "\x01\x7f\x1b\a\b\f\n\r\v'\\"},
	{`%10q|%-10q|%.3q|\n`, "a b", "c", "abcdef"},
	{`%Q|%.2Q|\n`, "a b", "a bcd"},
	{`%%|%5%|\n`},
	{`%`},
	{`abc%`},
	{`%5`},
	{`%y\n`, "1"},
	{`%s%y%s\n`, "a", "b"},
	{`%n`, "x"},
	{`%(%Y-%m-%d %H:%M:%S)T\n`, "0", "86399", "1700000000"},
	{`%(%a %b %e %j %U %V %G %u %w %s %z %Z)T\n`, "1700000000"},
	{`%10(%Y)T|%-6(%m)T|%.2(%Y)T|\n`, "0", "0", "0"},
	{`%()T\n`, "3723"},
	{`%(%Y\n`},
	{`%(%Y)Tx\n`, "abc"},
	{`%-5c|%3c|\n`, "x", "y"},
	{`%s\n`, "-n"},
	{`%.1f %.0f %.0f %.0f\n`, "0.05", "0.5", "1.5", "2.5"},
	{`%.3e\n`, "-0"},
	{`%+.3e|% .3e|%+g\n`, "1", "1", "-0"},
	{`%d %s\n`, "1", "a", "2"},
}

// TestPrintfBashDiff compares Printf with bash's printf builtin.
func TestPrintfBashDiff(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		suite.Skip(t, "bash", "bash's printf is the oracle")
	}
	for _, c := range printfBashCases {
		t.Run(strings.Join(c, " "), func(t *testing.T) {
			cmd := exec.Command("bash", append([]string{"-c", `printf "$@"`, "_"}, c...)...)
			cmd.Env = []string{"LC_ALL=C", "TZ=UTC", "PATH=/usr/bin:/bin"}
			var hout, herr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &hout, &herr
			hstatus := 0
			if err := cmd.Run(); err != nil {
				ee, ok := err.(*exec.ExitError)
				if !ok {
					t.Fatal(err)
				}
				hstatus = ee.ExitCode()
			}
			env := testEnv(t, nil)
			env.Environ = append(env.Environ, "TZ=UTC")
			var errb bytes.Buffer
			env.Stderr = &errb
			out, st := Printf(env, c[0], c[1:])
			if out != hout.String() {
				t.Errorf("stdout differs\nbash:   %q\nsandsh: %q", hout.String(), out)
			}
			if st != hstatus {
				t.Errorf("status: bash %d, sandsh %d", hstatus, st)
			}
			if (errb.Len() == 0) != (herr.Len() == 0) {
				t.Errorf("stderr emptiness differs: bash %q, sandsh %q", herr.String(), errb.String())
			}
		})
	}
}

func TestPrintfCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"printf", "%s=%d\n", "a", "1", "b", "2"}, out: "a=1\nb=2\n"},
		{args: []string{"printf", "%d\n", "x"}, out: "0\n", status: 1, errHas: "printf: 'x': expected a numeric value"},
		{args: []string{"printf", "a\\cb"}, out: "a"},
		{args: []string{"printf", "x\n", "extra"}, out: "x\n", errHas: "ignoring excess arguments"},
		{args: []string{"printf"}, status: 1, errHas: "missing operand"},
		{args: []string{"printf", "--help"}, outHas: "Usage: printf"},
		{args: []string{"printf", "%s\n", "--help"}, out: "--help\n"},
		{args: []string{"printf", "%(%Y)T\n", "0"}, status: 1, errHas: "invalid conversion specification"},
	})
}
