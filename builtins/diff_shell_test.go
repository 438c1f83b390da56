package builtins

import "testing"

// Differential cases for the shell-helper commands, run against the host's
// GNU tools by runDiff.

func TestDiffShellSeq(t *testing.T) {
	runDiff(t, []diffCase{
		{Args: []string{"seq", "5"}},
		{Args: []string{"seq", "0"}},
		{Args: []string{"seq", "3", "7"}},
		{Args: []string{"seq", "7", "3"}},
		{Args: []string{"seq", "1", "3", "10"}},
		{Args: []string{"seq", "10", "-3", "1"}},
		{Args: []string{"seq", "-5", "-1"}},
		{Args: []string{"seq", "5", "-1", "-2"}},
		{Args: []string{"seq", "--", "-3"}},
		{Args: []string{"seq", "-3", "2"}},
		{Args: []string{"seq", "1", "0.1", "1.5"}},
		{Args: []string{"seq", "0", "0.000001", "0.000003"}},
		{Args: []string{"seq", "0", "0.1", "1"}},
		{Args: []string{"seq", "1", "-0.25", "0"}},
		{Args: []string{"seq", ".5", "2"}},
		{Args: []string{"seq", "-0.5", "1"}},
		{Args: []string{"seq", "1.", "3"}},
		{Args: []string{"seq", "1e2", "1e2"}},
		{Args: []string{"seq", "1", "1e-1", "1.2"}},
		{Args: []string{"seq", "1e1", "1e1", "5e1"}},
		{Args: []string{"seq", "0x10", "0x12"}},
		{Args: []string{"seq", "0x1p1", "3"}},
		{Args: []string{"seq", "1", " 2"}},
		{Args: []string{"seq", "1", "2 "}},
		{Args: []string{"seq", "+2", "+4"}},
		{Args: []string{"seq", "18446744073709551615", "18446744073709551617"}},
		{Args: []string{"seq", "99999999999999999999", "3", "100000000000000000005"}},
		{Args: []string{"seq", "00010", "00012"}},
		{Args: []string{"seq", "1", "200", "1000"}},
		{Args: []string{"seq", "1", "201", "1000"}},
		{Args: []string{"seq", "-w", "8", "10"}},
		{Args: []string{"seq", "-w", "-1", "1"}},
		{Args: []string{"seq", "-w", "0.5", "1.25", "4"}},
		{Args: []string{"seq", "-w", "1", "1.50", "2"}},
		{Args: []string{"seq", "-w", "1e1", "1e1", "3e1"}},
		{Args: []string{"seq", "-w", "-.5", "0.5", "1"}},
		{Args: []string{"seq", "-w", "5", "-1", "-10"}},
		{Args: []string{"seq", "--equal-width", "9", "11"}},
		{Args: []string{"seq", "-s", ",", "1", "5"}},
		{Args: []string{"seq", "-s", ", ", "1", "5"}},
		{Args: []string{"seq", "-s", "", "1", "5"}},
		{Args: []string{"seq", "-s,", "-w", "8", "10"}},
		{Args: []string{"seq", "-ws:", "98", "101"}},
		{Args: []string{"seq", "--separator=|", "3"}},
		{Args: []string{"seq", "-f", "%05.1f", "1", "3"}},
		{Args: []string{"seq", "-f", "x%gy%%", "1", "2"}},
		{Args: []string{"seq", "-f", "%e", "1", "3"}},
		{Args: []string{"seq", "-f", "%.3a", "1", "3"}},
		{Args: []string{"seq", "-f", "%-6.2f|", "1", "0.5", "2"}},
		{Args: []string{"seq", "-f", "%+g", "-1", "1"}},
		{Args: []string{"seq", "-f", "%Lg", "3"}},
		{Args: []string{"seq", "--format=%.2f", "1", "3"}},
		{Args: []string{"seq", "-f", "%d", "1"}},
		{Args: []string{"seq", "-f", "%g%g", "1"}},
		{Args: []string{"seq", "-f", "abc", "1"}},
		{Args: []string{"seq", "-f", "%5", "1"}},
		{Args: []string{"seq", "-f", "%g", "-w", "1", "3"}},
		{Args: []string{"seq", "1", "nan"}},
		{Args: []string{"seq", "1", "0", "2"}},
		{Args: []string{"seq", "1", "-0", "2"}},
		{Args: []string{"seq", "abc"}},
		{Args: []string{"seq", "1e9999"}},
		{Args: []string{"seq"}},
		{Args: []string{"seq", "1", "2", "3", "4"}},
		{Args: []string{"seq", "-x", "3"}},
		{Args: []string{"seq", "1", "-w", "3"}},
		{Args: []string{"seq", "1", "0.3", "2"}},
		{Args: []string{"seq", "-1.5", "0.7", "2.5"}},
		{Args: []string{"seq", "1", "1e5"}},
		{Args: []string{"seq", "0.1", "0.1", "0.5"}},
		{Args: []string{"seq", "1", "inf", "3"}},
		{Args: []string{"seq", "-inf", "1", "-inf"}},
		{Args: []string{"seq", "1e-3", "1e-3", "5e-3"}},
		{Args: []string{"seq", "-w", "1e-2", "0.01", "0.03"}},
		{Args: []string{"seq", "2.50", "3"}},
		{Args: []string{"seq", "1", "1.0", "3"}},
	})
}

func TestDiffShellEnv(t *testing.T) {
	files := map[string]string{"d/": "", "f": "x"}
	runDiff(t, []diffCase{
		{Args: []string{"env", "-i", "A=1", "B=2"}},
		{Args: []string{"env", "-i", "-", "A=1"}},
		{Args: []string{"env", "-i"}},
		{Args: []string{"env", "-i", "-0", "A=1", "B=x y"}},
		{Args: []string{"env", "-i", "A=1", "A=2"}},
		{Args: []string{"env", "-i", "A=1", "env"}},
		{Args: []string{"env", "-i", "A=1", "-u", "A", "B=2"}},
		{Args: []string{"env", "A=1", "printenv", "A"}},
		{Args: []string{"env", "-u", "HOME", "printenv", "HOME"}},
		{Args: []string{"env", "--unset=PATH", "-i", "X=1", "printenv"}},
		{Args: []string{"env", "-u", "A=B", "true"}},
		{Args: []string{"env", "-u"}},
		{Args: []string{"env", "-0", "true"}},
		{Args: []string{"env", "-C", "/"}},
		{Args: []string{"env", "-C", "nonexist", "true"}},
		{Args: []string{"env", "-C", "f", "true"}},
		{Args: []string{"env", "-C", "d", "test", "-f", "../f"}, Files: files},
		{Args: []string{"env", "nonexist-command-xyz"}},
		{Args: []string{"env", "-Z"}},
		{Args: []string{"env", "false"}},
		{Args: []string{"env", "--", "echo", "a"}},
		{Args: []string{"env", "-S", "echo a  b"}},
		{Args: []string{"env", "-S", "echo 'a  b' \"c\\td\" e\\_f # comment"}},
		{Args: []string{"env", "-i", "-S", "A=1 B=2"}},
		{Args: []string{"env", "-S", "echo 'unterminated"}},
		{Args: []string{"env", "echo", "--help"}, SkipStdout: "the usage text is sandsh's own, not a copy of GNU's (README known gaps)"},
		{Args: []string{"env", "-i", "=x"}},
	})
}

func TestDiffShellPrintenv(t *testing.T) {
	runDiff(t, []diffCase{
		{Args: []string{"printenv", "PATH"}},
		{Args: []string{"printenv", "LC_ALL", "PATH"}},
		{Args: []string{"printenv", "PATH", "NO_SUCH_VAR"}},
		{Args: []string{"printenv", "NO_SUCH_VAR"}},
		{Args: []string{"printenv", "-0", "PATH", "LC_ALL"}},
		{Args: []string{"printenv", "--null", "PATH"}},
		{Args: []string{"printenv", "PATH=/usr/bin:/bin"}},
		{Args: []string{"printenv", "-x"}},
	})
}

func TestDiffShellSmall(t *testing.T) {
	runDiff(t, []diffCase{
		{Args: []string{"true"}},
		{Args: []string{"true", "--foo", "x"}},
		{Args: []string{"false"}},
		{Args: []string{"false", "x"}},
		{Args: []string{"false", "--help"}, SkipStdout: "the usage text is sandsh's own, not a copy of GNU's (README known gaps)"},
		{Args: []string{"true", "--help"}, SkipStdout: "the usage text is sandsh's own, not a copy of GNU's (README known gaps)"},
		{Args: []string{"whoami", "x"}},
		{Args: []string{"whoami", "-x"}},
		{Args: []string{"arch"}},
		{Args: []string{"arch", "x"}},
		{Args: []string{"tty"}},
		{Args: []string{"tty", "-s"}},
		{Args: []string{"tty", "--silent"}},
		{Args: []string{"tty", "x"}},
		{Args: []string{"sync"}},
		{Args: []string{"sync", "f"}, Files: map[string]string{"f": "x"}},
		{Args: []string{"sync", "nofile"}},
		{Args: []string{"sync", "-d"}},
		{Args: []string{"sync", "-d", "-f", "f"}, Files: map[string]string{"f": "x"}},
		{Args: []string{"clear"}},
		{Args: []string{"clear", "-T", "vt100"}},
		{Args: []string{"clear", "-T", "xterm"}},
		{Args: []string{"clear", "-x", "-T", "xterm-256color"}},
		{Args: []string{"clear", "-T", "linux"}},
		{Args: []string{"clear", "-x", "-T", "linux"}},
		{Args: []string{"clear", "-T", "screen"}},
		{Args: []string{"clear", "-T", "tmux"}},
		{Args: []string{"clear", "-T", "dumb"}},
		{Args: []string{"clear", "-T", "junk-term"}},
		{Args: []string{"uname"}},
		{Args: []string{"uname", "-s"}},
		{Args: []string{"uname", "-o"}},
		{Args: []string{"uname", "-m"}, Virtual: "x86_64\n"},
		{Args: []string{"uname", "-p"}},
		{Args: []string{"uname", "-i"}},
		{Args: []string{"uname", "-pi"}},
		{Args: []string{"uname", "-o", "-s", "-m"}, Virtual: "Linux x86_64 GNU/Linux\n"},
		{Args: []string{"uname", "-r"}, SkipStdout: "the host's kernel release; sandsh shows the virtual machine's"},
		{Args: []string{"uname", "-a"}, SkipStdout: "the host's name, kernel and machine; sandsh shows the virtual machine's"},
		{Args: []string{"uname", "-x"}},
		{Args: []string{"uname", "a"}},
		{Args: []string{"nproc"}, Virtual: "2\n"},
		{Args: []string{"nproc", "--all"}, Virtual: "2\n"},
		{Args: []string{"nproc", "--ignore=1"}, Virtual: "1\n"},
		{Args: []string{"nproc", "--ignore=99"}},
		{Args: []string{"nproc", "--ignore=x"}},
		{Args: []string{"nproc", "x"}},
		{Args: []string{"getconf", "ARG_MAX"}, Virtual: "2097152\n"},
		{Args: []string{"getconf", "PAGESIZE"}},
		{Args: []string{"getconf", "PAGE_SIZE"}},
		{Args: []string{"getconf", "CLK_TCK"}},
		{Args: []string{"getconf", "LONG_BIT"}},
		{Args: []string{"getconf", "_NPROCESSORS_ONLN"}, Virtual: "2\n"},
		{Args: []string{"getconf", "NPROCESSORS_ONLN"}},
		{Args: []string{"getconf", "PATH_MAX", "/"}},
		{Args: []string{"getconf", "NAME_MAX", "."}},
		{Args: []string{"getconf", "PATH_MAX"}},
		{Args: []string{"getconf", "PATH_MAX", "/nope"}},
		{Args: []string{"getconf", "PIPE_BUF", "/nope"}},
		{Args: []string{"getconf", "MAX_CANON", "/nope"}},
		{Args: []string{"getconf", "NAME_MAX", "/nope"}},
		{Args: []string{"getconf", "FILESIZEBITS", "/nope"}},
		{Args: []string{"getconf", "FOO"}},
		{Args: []string{"getconf"}},
		{Args: []string{"getconf", "ARG_MAX", "/", "x"}},
		{Args: []string{"nice"}, Virtual: "0\n"},
		{Args: []string{"nice", "true"}},
		{Args: []string{"nice", "-n", "5", "echo", "hi"}},
		{Args: []string{"nice", "-5", "echo", "hi"}},
		{Args: []string{"nice", "--adjustment=3", "false"}},
		{Args: []string{"nice", "-n", "5"}},
		{Args: []string{"nice", "-n", "x", "true"}},
		{Args: []string{"nice", "nonexist-command-xyz"}},
		{Args: []string{"nohup"}},
		{Args: []string{"nohup", "echo", "hi"}},
		{Args: []string{"nohup", "false"}},
		{Args: []string{"nohup", "nonexist-command-xyz"}},
		{Args: []string{"sleep", "0"}},
		{Args: []string{"sleep", "0.01", ".01s", "0m", "0h", "0d"}},
		{Args: []string{"sleep", "0x0.1p-4"}},
		{Args: []string{"sleep"}},
		{Args: []string{"sleep", "x"}},
		{Args: []string{"sleep", "1x"}},
		{Args: []string{"sleep", "-1"}},
		{Args: []string{"sleep", "1", "x"}},
		{Args: []string{"sleep", ""}},
		{Args: []string{"timeout", "1", "echo", "hi"}},
		{Args: []string{"timeout", "0", "true"}},
		{Args: []string{"timeout", "1d", "false"}},
		{Args: []string{"timeout", "0.05", "sleep", "2"}},
		{Args: []string{"timeout", "--preserve-status", "0.05", "sleep", "2"}},
		{Args: []string{"timeout", "-k", "1", "0.05", "sleep", "2"}},
		{Args: []string{"timeout", "-v", "0.05", "sleep", "2"}},
		{Args: []string{"timeout", "--foreground", "1", "true"}},
		{Args: []string{"timeout"}},
		{Args: []string{"timeout", "1"}},
		{Args: []string{"timeout", "x", "true"}},
		{Args: []string{"timeout", "1x", "true"}},
		{Args: []string{"timeout", "-s", "FOO", "1", "true"}},
		{Args: []string{"timeout", "1", "nonexist-command-xyz"}},
		{Args: []string{"timeout", "1", "sh-no-such", "--help"}},
		{Args: []string{"id", "-n"}},
		{Args: []string{"id", "-ug"}},
		{Args: []string{"id", "-z"}},
		{Args: []string{"id", "nosuchuser"}},
		{Args: []string{"id", "-u", "root"}},
		{Args: []string{"id", "-g", "root"}},
		{Args: []string{"id", "-un", "root"}},
		{Args: []string{"id", "-Gn", "root"}},
		{Args: []string{"id", "root"}},
		{Args: []string{"id", "0"}},
		{Args: []string{"id", "-x"}},
		{Args: []string{"yes", "-x"}},
	})
}

func TestDiffShellXargs(t *testing.T) {
	lines := "a b\nc d e\n\nf\n"
	runDiff(t, []diffCase{
		{Args: []string{"xargs"}, Stdin: lines},
		{Args: []string{"xargs"}, Stdin: ""},
		{Args: []string{"xargs", "-r"}, Stdin: ""},
		{Args: []string{"xargs", "--no-run-if-empty", "echo", "x"}, Stdin: "  \n\n"},
		{Args: []string{"xargs", "echo", "pre"}, Stdin: lines},
		{Args: []string{"xargs", "-n", "1"}, Stdin: lines},
		{Args: []string{"xargs", "-n2", "echo"}, Stdin: lines},
		{Args: []string{"xargs", "--max-args=4", "echo", "-"}, Stdin: lines},
		{Args: []string{"xargs", "-L", "1", "echo"}, Stdin: lines},
		{Args: []string{"xargs", "-L", "2", "echo"}, Stdin: lines},
		{Args: []string{"xargs", "-L1", "echo"}, Stdin: "a b \nc\nd\n"},
		{Args: []string{"xargs", "-l", "echo"}, Stdin: "a\nb\n"},
		{Args: []string{"xargs", "-L1", "echo"}, Stdin: "a\n\n\nb\n"},
		{Args: []string{"xargs", "-I", "{}", "echo", "[{}]"}, Stdin: "  lead  trail  \nx y\n"},
		{Args: []string{"xargs", "-I{}", "echo", "{}", "and", "{}-{}"}, Stdin: "a\nb c\n"},
		{Args: []string{"xargs", "-IX", "echo", "X"}, Stdin: "a \nb\n"},
		{Args: []string{"xargs", "-i", "echo", "<{}>"}, Stdin: "a\nb\n"},
		{Args: []string{"xargs", "-iZ", "echo", "<Z>"}, Stdin: "a\n"},
		{Args: []string{"xargs", "-I{}", "echo", "x"}, Stdin: ""},
		{Args: []string{"xargs", "-0"}, Stdin: "a b\x00c\nd\x00\x00e"},
		{Args: []string{"xargs", "-0", "-n1", "echo"}, Stdin: "a\x00b\x00"},
		{Args: []string{"xargs", "--null", "-I{}", "echo", "<{}>"}, Stdin: "a b\x00c\n\x00"},
		{Args: []string{"xargs", "-d", ",", "echo"}, Stdin: "a,,b,"},
		{Args: []string{"xargs", "-d,", "-n1", "echo"}, Stdin: "a,b c,d\n"},
		{Args: []string{"xargs", "-d", "\\n", "-n1", "echo"}, Stdin: "a b\n'c'\n"},
		{Args: []string{"xargs", "-d", "\\x41", "echo"}, Stdin: "xAyAz"},
		{Args: []string{"xargs", "-d", "\\101", "echo"}, Stdin: "xAy"},
		{Args: []string{"xargs", "-d", "\\t", "echo"}, Stdin: "x\ty"},
		{Args: []string{"xargs", "-d", "ab", "echo"}, Stdin: "x"},
		{Args: []string{"xargs", "-n1", "echo"}, Stdin: "'a b' \"c d\" e\\ f g\\\\h 'it''s'\n"},
		{Args: []string{"xargs", "-n1", "echo"}, Stdin: "'' x\n''\ny\n"},
		{Args: []string{"xargs", "echo"}, Stdin: "a 'b\n"},
		{Args: []string{"xargs", "echo"}, Stdin: "a \"b"},
		{Args: []string{"xargs", "-n1", "echo"}, Stdin: "x y \"z\n"},
		{Args: []string{"xargs", "echo"}, Stdin: "a\\\nb\n"},
		{Args: []string{"xargs", "-E", "END", "echo"}, Stdin: "a\nEND\nb\n"},
		{Args: []string{"xargs", "-E", "END", "echo"}, Stdin: "a END b\n"},
		{Args: []string{"xargs", "-eEND", "echo"}, Stdin: "a END b\n"},
		{Args: []string{"xargs", "-e", "echo"}, Stdin: "a END b\n"},
		{Args: []string{"xargs", "-E", "END", "echo"}, Stdin: "END\n"},
		{Args: []string{"xargs", "-s", "10", "echo"}, Stdin: "a b c\n"},
		{Args: []string{"xargs", "-s", "10", "echo"}, Stdin: "abcdefghijkl\n"},
		{Args: []string{"xargs", "-s", "12", "echo"}, Stdin: "a bb ccc dddd e\n"},
		{Args: []string{"xargs", "-n", "2", "-s", "6", "echo"}, Stdin: "a b c d\n"},
		{Args: []string{"xargs", "-x", "-n", "2", "-s", "7", "echo"}, Stdin: "a b c d\n"},
		{Args: []string{"xargs", "-n", "2", "-s", "7", "echo"}, Stdin: "a b c d\n"},
		{Args: []string{"xargs", "-s", "3", "echo"}, Stdin: "a\n"},
		{Args: []string{"xargs", "-L", "1", "-s", "9", "echo"}, Stdin: "a b c\n"},
		{Args: []string{"xargs", "-t", "echo"}, Stdin: "a b\nc \"d e\"\n"},
		{Args: []string{"xargs", "-t", "-I{}", "echo", "{}", "p q"}, Stdin: "x y\n"},
		{Args: []string{"xargs", "-n", "0", "echo"}, Stdin: "a\n"},
		{Args: []string{"xargs", "-n", "x", "echo"}, Stdin: "a\n"},
		{Args: []string{"xargs", "-P", "x", "echo"}, Stdin: "a\n"},
		{Args: []string{"xargs", "-L", "0", "echo"}, Stdin: "a\n"},
		{Args: []string{"xargs", "-s", "0", "echo"}, Stdin: "a\n"},
		{Args: []string{"xargs", "-Q"}, Stdin: "a\n"},
		{Args: []string{"xargs", "-p", "echo"}, Stdin: "a\n"},
		{Args: []string{"xargs", "false"}, Stdin: "a\n"},
		{Args: []string{"xargs", "-n1", "test", "b", "="}, Stdin: "a b c\n"},
		{Args: []string{"xargs", "nonexist-command-xyz"}, Stdin: "a\n"},
		{Args: []string{"xargs", "-n1", "env", "-i", "X=1", "printenv", "X"}, Stdin: "a b\n"},
		{Args: []string{"xargs", "-a", "in", "echo"}, Files: map[string]string{"in": "f1 f2\nf3\n"}},
		{Args: []string{"xargs", "--arg-file=in", "-n1", "echo"}, Files: map[string]string{"in": "f1 f2\n"}},
		{Args: []string{"xargs", "-a", "missing", "echo"}},
		{Args: []string{"xargs", "-P", "4", "-n", "1", "true"}, Stdin: "1 2 3 4 5 6 7 8\n"},
		{Args: []string{"xargs", "-P", "2", "-n", "1", "false"}, Stdin: "1 2 3\n"},
		{Args: []string{"xargs", "-P1", "-n", "2", "echo"}, Stdin: "1 2 3 4 5\n"},
		{Args: []string{"xargs", "echo"}, Stdin: "a\tb\vc\fd\re\n"},
		{Args: []string{"xargs", "-n1", "printf", "%s|"}, Stdin: "\xff\xfe a\n"},
		{Args: []string{"xargs", "-L", "1", "-n", "2", "echo"}, Stdin: "a b\nc\n"},
		{Args: []string{"xargs", "-n", "2", "-L", "1", "echo"}, Stdin: "a b\nc\n"},
		{Args: []string{"xargs", "-I{}", "-n", "1", "echo", "{}"}, Stdin: "a b\nc\n"},
		{Args: []string{"xargs", "-n1", "-I{}", "echo", "{}"}, Stdin: "a b\nc\n"},
		{Args: []string{"xargs", "-I{}", "-L", "2", "echo", "{}"}, Stdin: "a b\nc\n"},
		{Args: []string{"xargs", "-i", "-I@", "echo", "@", "{}"}, Stdin: "a\n"},
		{Args: []string{"xargs", "-L", "2", "-I{}", "echo", "{}"}, Stdin: "a b\nc\n"},
		{Args: []string{"xargs", "-0", "echo"}, Stdin: ""},
		{Args: []string{"xargs", "-0", "-r", "echo"}, Stdin: ""},
		{Name: "xargs big default -s", Args: []string{"xargs", "echo"}, Stdin: xargsSeq(40000)},
		{Name: "xargs big -s 2000", Args: []string{"xargs", "-s", "2000", "echo"}, Stdin: xargsSeq(3000)},
		{Args: []string{"xargs", "--show-limits", "true"}, Stdin: ""},
	})
}

// xargsSeq returns the numbers 1..n one per line.
func xargsSeq(n int) string {
	var b []byte
	for i := 1; i <= n; i++ {
		b = append(b, []byte(itoaShell(i))...)
		b = append(b, '\n')
	}
	return string(b)
}

func itoaShell(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}

func TestDiffShellExpr(t *testing.T) {
	cases := [][]string{
		{"^a", ":", "^a"}, {"a", ":", "^a"}, {"abc", ":", `a\(b\)c`}, {"abc", ":", `x\(b\)`},
		{"abc", ":", "ab*"}, {"abc", ":", "b"}, {"abc", ":", ".*"}, {"a b", ":", ".*"},
		{"aaa", ":", `a\+`}, {"ab", ":", `a\|b`}, {"abc", ":", `\(a\)\(b\)`}, {"x", ":", ""},
		{"abc", ":", `a\(`}, {"abc", ":", "*a"}, {"*a", ":", "*a"}, {"a", ":", `a\{1`},
		{"foo.txt", ":", `\(.*\)\.txt`}, {"2024-01-02", ":", `\([0-9]*\)-`}, {"abcabc", ":", `\(abc\)\1`},
		{"match", "abc", "a."}, {"match", "abc", `\(b\)`},
		{"1", "+", "2", "*", "3"}, {"(", "1", "+", "2", ")", "*", "3"}, {"10", "-", "3", "-", "2"},
		{"5", "/", "0"}, {"5", "%", "0"}, {"a", "+", "1"}, {"1", "+", "a"}, {"-7", "/", "2"}, {"-7", "%", "2"},
		{"7", "%", "-3"}, {"99999999999999999999", "+", "1"}, {"123456789012", "*", "987654321098"},
		{"3", "-", "-2"}, {"+1", "+", "1"}, {"1", "*", "0"}, {"5", "-", "5"},
		{"1", "<", "2"}, {"10", "<", "9"}, {"10", "<", "a"}, {"a", "<", "b"}, {"2", ">=", "10"},
		{"1", "=", "01"}, {"a", "=", "a"}, {"a", "==", "b"}, {"a", "!=", "b"}, {"", "=", ""},
		{"-1", "<", "-01"}, {"b", ">", "a"}, {"1", "<=", "1"},
		{"", "|", "0"}, {"0", "|", ""}, {"a", "&", "0"}, {"a", "&", "b"}, {"x", "|", "y"}, {"0", "&", "y"},
		{"0", "|", "1", "/", "0"}, {"1", "|", "1", "/", "0"}, {"0", "&", "1", "/", "0"},
		{"length", "abc"}, {"length", ""}, {"length"}, {"length", "length"}, {"+", "length"},
		{"substr", "hello", "2", "3"}, {"substr", "hello", "0", "3"}, {"substr", "hello", "2", "x"},
		{"substr", "hello", "5", "9"}, {"substr", "hello", "6", "1"}, {"substr", "abc", "1", "99999999999999999999"},
		{"substr", "hello", "-1", "2"}, {"substr", "hello", "2", "-1"},
		{"index", "hello", "l"}, {"index", "hello", "xyz"}, {"index", "hello", "ol"}, {"index", "abc", ""},
		{"(", "1", "+", "2"}, {"1", "+"}, {"1", "2"}, {"(", ")"}, {")"}, {"1", "+", "("},
		{"--", "5"}, {"--5"}, {"-5"}, {"00"}, {"-0"}, {"0"}, {"+1"}, {"abc"}, {""}, {"-"},
		{"(", "a", ")"}, {"(", "(", "3", ")", ")"}, {"(", "1", "2", ")"},
		{"1", "+", "2", ":", "3"}, {"12", ":", "1", "+", "1"}, {"a", ":", "a", ":", "1"},
		{"length", "abc", "+", "1"}, {"index", "abc", "b", "*", "2"},
		{"=", "=", "="}, {"+", "+"}, {"+"}, {"a", "|"}, {"|"},
	}
	var dc []diffCase
	for _, c := range cases {
		dc = append(dc, diffCase{Args: append([]string{"expr"}, c...)})
	}
	runDiff(t, dc)
}

func TestDiffShellDate(t *testing.T) {
	f := "+%Y-%m-%d %H:%M:%S.%N %z %a"
	dates := []string{
		"2024-01-03 monday", "2024-01-01 next monday", "2024-01-02 03:04:05 +1 day", "2024-01-31 +1 month",
		"2024-01-02 2 days 3 hours ago", "Jan 2 2024", "2 Jan 2024", "Jan 2, 2024 10:00",
		"Tue Jan  2 03:04:05 UTC 2024", "20240102", "20240102 1030", "2024-01-02T03:04:05Z",
		"2024-01-02T03:04:05+05:30", "2024-01-02 03:04:05.123456789", "2024-01-02 10:00 -0800",
		"2024-01-02 10:00 EST", "2024-01-02 10pm", "2024-01-02 12am", "@1700000000", "@1700000000.5",
		"@0", "@-1", "1/2/2024", "1/2/24", "2024-02-30", "2024-13-01", "garbage", "2024-01-02 UTC+3",
		"2024-01-02 25:00", "2024-01-02 next week", "2024-01-02 last year", "2024-01-02 fortnight ago",
		"2-Jan-2024", "2024-01-02 +1 week 2 days", "2024-01-02 1 day ago 2 hours",
		`TZ="Asia/Tokyo" 2024-01-02 09:00`, "2024-01-02 3 weeks", "2024-1-2", "24-1-2", "2024-01-02 T",
		"2024-01-02 tomorrow", "2024-01-02 yesterday", "Jan 2024", "2024-01-02 noon", "1970-01-01 00:00:00 UTC",
		"2000-02-29", "2001-02-29", "2024-06-15 12:30:45 PDT", "2024-01-02 23:59:60", "Feb 29 2024 -1 year",
		"2024-03-31 -1 month", "2024-01-02 10:00:00 +0000 +2 hours", "December 25 2024", "sept 1 2024",
		"2024-01-02 (comment) 10:00", "2024-01-02 10:00 am", "2024-01-02 13:00 pm",
		"Tue, 02 Jan 2024 03:04:05 +0000", "2024-01-02T03:04:05.123+01:00", "Jan 2 2024 3:04pm", "2024/01/02",
		"02/29/2024 23:59:59", "2024-01-02 00:00:00 UTC +3 hours", "12:00 2024-01-02", "2024-01-02 12:00:00 Z",
		"2024-W01", "1 jan 2024 +1 day", "2024-01-02 -1 minute", "2024-01-02 10:00 +5 minutes", "@1700000000 +1 day",
		"2024-12-31 23:59:59 +1 second", "Sat Jun  1 12:00:00 CEST 2024", "June 1st 2024",
	}
	var cases []diffCase
	for _, d := range dates {
		cases = append(cases, diffCase{Args: []string{"date", "-d", d, f}})
	}
	formats := []string{
		"+%a %A %b %B %c %C %d %D %e %F %g %G %h %H %I %j %k %l %m %M %n %p %P %q %r %R %s %S %t %T %u %U %V %w %W %x %X %y %Y %z %:z %::z %:::z %Z %%",
		"+%-d %_d %05d %-m %_H %^a %#a %^B %#Z %#p %10A %-10A %_5Y %3N %6N %N %_3N %Q %:y",
		"+%Y%", "+", "+literal text", "+%E%Y %Od", "+%10s|%-s|%_s",
	}
	for _, fm := range formats {
		cases = append(cases, diffCase{Args: []string{"date", "-d", "2024-03-10 07:08:09.012345678", fm}})
	}
	for _, d := range []string{"2023-01-01", "2024-12-30", "2021-01-03", "2020-12-31", "2027-01-01", "0999-05-05"} {
		cases = append(cases, diffCase{Args: []string{"date", "-d", d, "+%G-W%V-%u %g %U %W %j %C %y"}})
	}
	cases = append(cases,
		diffCase{Args: []string{"date", "-d", "2024-01-02 03:04:05"}},
		diffCase{Args: []string{"date", "-u", "-d", "2024-01-02 03:04:05"}},
		diffCase{Args: []string{"date", "-R", "-d", "2024-01-02 03:04:05"}},
		diffCase{Args: []string{"date", "-I", "-d", "2024-01-02 03:04:05"}},
		diffCase{Args: []string{"date", "-Iseconds", "-d", "2024-01-02 03:04:05"}},
		diffCase{Args: []string{"date", "--iso-8601=minutes", "-d", "2024-01-02 03:04:05"}},
		diffCase{Args: []string{"date", "--iso-8601=hours", "-d", "2024-01-02 03:04:05"}},
		diffCase{Args: []string{"date", "--iso-8601=ns", "-d", "2024-01-02 03:04:05.5"}},
		diffCase{Args: []string{"date", "--iso-8601=x", "-d", "2024-01-02"}},
		diffCase{Args: []string{"date", "--rfc-3339=seconds", "-d", "2024-01-02 03:04:05"}},
		diffCase{Args: []string{"date", "--rfc-3339=ns", "-d", "2024-01-02 03:04:05"}},
		diffCase{Args: []string{"date", "--rfc-3339=date", "-d", "2024-01-02 03:04:05"}},
		diffCase{Args: []string{"date", "-R", "-I", "-d", "2024-01-02"}},
		diffCase{Args: []string{"date", "-R", "-d", "2024-01-02", "+%Y"}},
		diffCase{Args: []string{"date", "-d", "2024-01-02", "+%Y", "+%m"}},
		diffCase{Args: []string{"date", "-d", "2024-01-02", "010203042024"}},
		diffCase{Args: []string{"date", "--date=@86400", "+%F %T"}},
		diffCase{Args: []string{"date", "-d"}},
		diffCase{Args: []string{"date", "-x"}},
		diffCase{Args: []string{"date", "-f", "dates", "+%F"}, Files: map[string]string{"dates": "2024-01-02\nbad\n@0\n"}},
		diffCase{Args: []string{"date", "-f", "-", "+%F %T"}, Stdin: "2024-05-06 07:08\n1/2/2003\n"},
		diffCase{Args: []string{"date", "-f", "missing"}},
		diffCase{Args: []string{"date", "-r", "missing"}},
		diffCase{Args: []string{"date", "-d", "2024-01-02", "-r", "x"}},
		diffCase{Args: []string{"env", "TZ=America/New_York", "date", "-d", "2024-07-04 12:00", "+%F %T %Z %z"}},
		diffCase{Args: []string{"env", "TZ=Asia/Kolkata", "date", "-d", "@0", "+%F %T %Z %z %:::z"}},
		diffCase{Args: []string{"env", "TZ=XYZ-3", "date", "-d", "@0", "+%T %Z %z"}},
		diffCase{Args: []string{"env", "TZ=UTC0", "date", "-d", "@0"}},
		diffCase{Args: []string{"env", "TZ=Europe/Paris", "date", "-u", "-d", "2024-07-01 12:00", "+%T %Z"}},
		diffCase{Args: []string{"env", "TZ=Europe/Paris", "date", "-d", "2024-07-01 12:00 UTC", "+%T %Z"}},
		diffCase{Args: []string{"date", "+%s"}, SkipStdout: "the clock moves between the two runs"},
		diffCase{Args: []string{"date"}, SkipStdout: "the clock moves between the two runs"},
	)
	runDiff(t, cases)
}

func TestDiffShellBc(t *testing.T) {
	programs := []string{
		"scale=20; 5.5 % 2; 7 % 3; -7 % 3; scale=0; 5.5%2; 2^-1; scale=5; 2^-2; 1/3; 0.5*0.25; sqrt(2); sqrt(2.0000000); length(123.45); scale(1.50); .5; -.5\n",
		"100000000000000000000000000000000000000000000000000000000000000000000000000001*3\n",
		"obase=16; 255; -255; 0.5; obase=2; 10; obase=100; 12345; 1.5\n",
		"ibase=16; FF; A; ibase=2; 101\n",
		"1/0\nx=5\nx\n++x\nx++\nx\na[3]=4\na[3]\ndefine f(x) {\n return x*2\n}\nf(3)\nprint \"hi\\n\", 1+1, \"\\n\"\n\"str\"\nquit\n5\n",
		"1 +\n2\n3\n",
		"1 +",
		"(1\n2\n",
		"x = \n3\n4\n",
		"1 2\n3\n",
		")\n4\n",
		"1;;2\n",
		"{1\n2}\n3\n",
		"if (1) \n 5\n",
		"1/0; 2\n3\n",
		"x[-1]\n",
		"sqrt(-1); 4\n",
		"if (1 > 0) 3 else 4\nfor (i=0;i<3;i++) i\nwhile (i<5) { i; i+=1 }\n",
		"define f(n) { if (n<2) return (1); return (n*f(n-1)); }\nf(30)\nf(100)\n",
		"scale=3; x=1/3; x; scale(x); length(x); last; .\n",
		"a=2; a^=3; a; a%=5; a; b+=1; b; 0-3; -3^2; 2^3^2\n",
		"x = 3\nx == 3\nx != 3 || 1\n!0\n1 && 0\n",
		"/* c */ 1 # comment\n",
		"halt\n1\n",
		"1.23456789 * 1\nscale=2; 1.23456789 * 1; 1.23456789 / 1; sqrt(-1)\n",
		"length(0.001)\nlength(0)\nlength(0.10)\nlength(100)\nlength(-5)\nlength(1.0)\nscale(0.001)\nscale(-1.50)\n0.00\n-0.0\n000.5000\n1.\n",
		"ibase=1\nibase=17\nibase\nobase=1\nobase\nscale=-1\nscale\nibase=16\n1A\nF.8\nibase=A\nobase=16\n-0.5\n10.1\nobase=10\n",
		"print \"a\\tb\\nc\\q\\\\d\\e\\z\\n\"\nx\nx=1.999; x/1\nscale=3\n-7/2\n-7%2\n7%-2\n2.5^2\n2.5^-2\n0^0\n0^-1\n(-2)^3\n2^1.5\n1e5\n",
		"2^300\nobase=16\n2^300\nobase=8\n-2^100/7\n",
		"define f(x)\n{\n auto a, b[]\n a = x; b[0] = 2\n return a + b[0]\n}\nf(1)\ndefine g() { return; }\ng()\ndefine h(a[]) { return a[1]; }\nc[1]=5; h(c[])\ndefine k(*a[]) { a[0]=9; }\nk(c[]); c[0]\nz=k(c[]); z\nf(1,2)\nnone(1)\n\"two\nlines\"\n1 < 2 < 3\nx = 3 == 3; x\n(y = 4)\n-x\n--x\nx--\n++x++\n",
		"define f() { 5 }\nf()\nv=f(); v\n",
		"a[0]=1\na\n",
		"define a(x) { return x }\na\nx(2)\n",
		"break\nfor(;;) { if (i++ > 3) break }\ni\nwhile (1) { j+=1; if (j==3) break; continue; }\nj\n",
		"print \"%0100d\\n\"\n\"%0100d\"\n\n1;quit\n",
		"2^230; print 2^230, \"\\n\"\nx=2^230\nprint x, \" \", x, \"\\n\"\n",
		"print \"abc\"; 2^230\n",
		"define fib(n) { if (n < 2) return n; return fib(n-1)+fib(n-2); }\nfib(20)\n",
		"scale=50; 1/7; sqrt(3); 22/7 - 3.14159\n",
		"obase=20; 12345.6789\nobase=3; 1/3\nscale=10; obase=3; 1/3\n",
		"x=10; define f() { x = 5; return x }\nf(); x\ndefine g(x) { x = 7; return h() }\ndefine h() { return x }\ng(1); x\n",
		"for (i=1; i<=3; i++) { for (j=1; j<=3; j++) { if (j==2) continue; if (i==3) break; print i, \",\", j, \"\\n\" } }\n",
		"a[1]=1; a[2]=2; define s(x[]) { auto i, t; for (i=0; i<5; i++) t += x[i]; return t }\ns(a[])\n",
		"i = 0; while (i < 3) i++; i\n",
		"if (0) 1 else if (0) 2 else 3\n",
		"99999999999999999999 / 3\n-99999999999999999999 % 7\nscale=10; -1/3\n",
		"x=-5; -x; --x; x; x-- ; x\n",
		"scale=4; 3.14159 * 2.1; 3.14159 * 2.1 / 1; 10/4*4\n",
		"define f(x) { return (x+1) }\nf(f(f(1)))\n",
		"2 ^ 64\n2 ^ -64\nscale=30; 2^-64\n(-3)^-3\nscale=5; (-3)^-3\n",
		"0.1 + 0.2 == 0.3\n1 > 2 || 3 > 2 && 0\n!1 + 1\n-2 ^ 2\n",
		"obase=16; ibase=16; FF * FF\nA0 / 10\n",
		"\"a\" ; 1\n\"\\n\"\n",
		"1 == 1 == 1\n3 < 2 < 1\n",
		"define f(a,b) { auto c; c = a; a = b; b = c; return (a - b) }\nf(1,2)\n",
		"limits\n",
		"scale=2; x = 1.005; x * 100; x * 100 / 1\n",
		"d = 5; d /= 2; d; scale = 2; d = 5; d /= 2; d; d -= 0.5; d; d *= 1.5; d\n",
		"print 1, 2, 3\n",
		"ibase=2\n21\n2.1\n12\n.2\n3\nibase=8\n9.9\n19\n91\n",
		"define f(){ return 1 } f()\ndefine g(){ return 2 }; g()\n;define h() { return 3 }\n",
	}
	var cases []diffCase
	for _, p := range programs {
		cases = append(cases, diffCase{Name: "bc " + p, Args: []string{"bc"}, Stdin: p})
	}
	mathPrograms := []string{
		"scale=5; s(0); s(3.14159); c(0); c(3); a(-1); a(0.2); a(0.5); a(5); l(1); l(0.5); l(100); e(0); e(10); e(-0.5); j(0,1); j(1,2); j(-3,2.5)\n",
		"scale=50; a(1); s(1); e(1)\n",
		"scale=70; a(1)\n",
		"l(-1); l(0)\n",
		"ibase=16; e(1); obase=16; l(A)\n",
		"scale=0; e(1); l(10); s(1)\n",
		"scale=100; e(2)^2; sqrt(e(1))\n",
		"e(1)\nl(10)\n4*a(1)\nsqrt(2)\nscale\n",
		"scale=30\ne(1)\nl(2)\ns(1)\nc(1)\na(1)\nj(2,1.5)\ne(-2)\nl(0.001)\ns(-100)\na(1000)\n",
		"define f(x) { return e(l(x)/2) }\nf(16)\n",
	}
	for _, p := range mathPrograms {
		cases = append(cases, diffCase{Name: "bc -l " + p, Args: []string{"bc", "-l"}, Stdin: p})
	}
	cases = append(cases,
		diffCase{Args: []string{"bc", "prog.bc"}, Files: map[string]string{"prog.bc": "1+2\nx=7\n"}, Stdin: "x*2\n"},
		diffCase{Args: []string{"bc", "prog.bc"}, Files: map[string]string{"prog.bc": "1+2\nquit\n"}, Stdin: "5\n"},
		diffCase{Args: []string{"bc", "a.bc", "b.bc"}, Files: map[string]string{"a.bc": "define f(x) { return x^2 }\n", "b.bc": "f(12)\n"}},
		diffCase{Args: []string{"bc", "nofile"}},
		diffCase{Args: []string{"bc", "-q", "-l"}, Stdin: "s(1)\n"},
		diffCase{Args: []string{"bc", "--mathlib"}, Stdin: "scale\n"},
		diffCase{Args: []string{"bc", "-x"}, Stdin: "1\n"},
		diffCase{Args: []string{"env", "BC_LINE_LENGTH=20", "bc"}, Stdin: "2^300\n"},
		diffCase{Args: []string{"env", "BC_LINE_LENGTH=0", "bc"}, Stdin: "2^300\n"},
		diffCase{Args: []string{"env", "BC_LINE_LENGTH=1", "bc"}, Stdin: "2^300\n"},
	)
	runDiff(t, cases)
}

func TestDiffShellPrintfCmd(t *testing.T) {
	cases := [][]string{
		{`%s\n`, "a", "b"}, {`%d %d\n`, "12abc", "x"}, {`%d\n`, "99999999999999999999"}, {`a\cb\n`},
		{`%q %q\n`, "it's", "a b"}, {`x\n`, "y", "z"}, {`%z`}, {`\u00e9\n`}, {`%c`, ""}, {`%s\n`},
		{`%d\n`, "'a", `"b`, "'"}, {`%5%|\n`}, {`%.3d|%-5d|%+d|% d|%05d\n`, "5", "5", "5", "5", "5"},
		{`%#o %#x %x\n`, "8", "255", "-1"}, {`%i\n`, "010", "0x10"}, {`%s\n`, `\n`},
		{`%b\n`, `a\tb\0101\101`}, {`%b|\n`, `\c`, "x"}, {`%`}, {`a%5`}, {`%*d|\n`, "x", "3"},
		{`%d\n`, "'ab"}, {`%q\n`, "a$b", "a'b$", "\t", "~x", "a~", "#a", "a#", "\t\t", "\ta\x01", `a\b`, "a?", "{", "a{", "a@b", "it's a"},
		{`\x\n`}, {`\u12\n`}, {`\u0041\n`}, {`\U00000041\n`}, {`%.3s|%5c|%-3c|\n`, "abcdef", "x", "y"}, {`%s %s\n`, "a"},
		{`%x\n`, "-1"}, {`%hhd %ld %lld %jd %zd\n`, "1", "2", "3", "4", "5"}, {`%f %e %g %a\n`, "1.5", "1.5", "1.5", "1.5"},
		{`%.20Lf\n`, "0.1"}, {`%10.4f|\n`, "3.14159265"}, {`%G %E\n`, "1e-10", "12345"}, {`%f\n`, "inf"}, {`%5s|%-5s|\n`, "abcdefg", "x"},
		{`%b`, `\0141\x62\n`}, {`%b\n`, `\u263a`}, {`\101\0101\n`}, {`%d %s\n`, "1", "a", "2"}, {`%n`, "x"},
		{`%(%Y)T\n`, "0"}, {`%c%c\n`, "hello", "world"}, {`\"\\\a\b\f\r\t\v\e|\n`}, {`%Q\n`, "x"},
		{"--", `%s\n`, "a"}, {`%.*d|\n`, "3", "7"}, {`%-*d|\n`, "4", "7"},
	}
	var dc []diffCase
	for _, c := range cases {
		dc = append(dc, diffCase{Args: append([]string{"printf"}, c...)})
	}
	dc = append(dc, diffCase{Args: []string{"printf"}}, diffCase{Args: []string{"printf", "--help"}, SkipStdout: "the usage text is sandsh's own, not a copy of GNU's (README known gaps)"})
	runDiff(t, dc)
}

func TestDiffShellTestCmd(t *testing.T) {
	files := map[string]string{"f": "data", "empty": "", "d/": ""}
	cases := [][]string{
		{"-f", "f"}, {"-d", "d"}, {"-e", "nope"}, {"-s", "empty"}, {"-s", "f"}, {"a", "=", "a"}, {"a", "!=", "a"},
		{"1", "-lt", "2"}, {"a", "-lt", "2"}, {"-n", ""}, {"-z", ""}, {"x"}, {""}, {}, {"!", "x"},
		{"(", "a", ")"}, {"a", "-a", "b"}, {"", "-o", "b"}, {"-f", "f", "-a", "-d", "d"}, {"1", "-eq", "1", "-o", "x"},
		{"f", "-nt", "nope"}, {"f", "-ef", "f"}, {"a", "b"}, {"-q", "x"}, {"a", "b", "c", "d"},
	}
	var dc []diffCase
	for _, c := range cases {
		dc = append(dc, diffCase{Args: append([]string{"test"}, c...), Files: files})
		dc = append(dc, diffCase{Args: append(append([]string{"["}, c...), "]"), Files: files})
	}
	dc = append(dc, diffCase{Args: []string{"[", "a"}}, diffCase{Args: []string{"[", "a", "]", "]"}},
		diffCase{Args: []string{"[", "--help"}, SkipStdout: "the usage text is sandsh's own, not a copy of GNU's (README known gaps)"})
	runDiff(t, dc)
}

func TestDiffShellEcho(t *testing.T) {
	cases := [][]string{
		{}, {"a", "b"}, {"-n", "a"}, {"-e", `a\tb\nc`}, {"-E", `a\tb`}, {"-e", `\x41\0101\101\c`, "z"}, {"-nx", "a"},
		{"-neE", `a\n`}, {"--", "a"}, {"-e", `\a\b\e\f\r\v\\`}, {"-e", `\x`}, {"-e", `\xZ`}, {"-e", `\0`}, {"-e", `trail\`},
		{"-", "a"}, {"-e", "-n", "x"}, {"a", "-n"}, {"-e", `\u0041`}, {"-e", `\08`}, {"-e", `\1`},
	}
	var dc []diffCase
	for _, c := range cases {
		dc = append(dc, diffCase{Args: append([]string{"echo"}, c...)})
	}
	dc = append(dc, diffCase{Args: []string{"echo", "--help"}, SkipStdout: "the usage text is sandsh's own, not a copy of GNU's (README known gaps)"}, diffCase{Args: []string{"echo", "--help", "x"}})
	runDiff(t, dc)
}
