package interp_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/interp"
)

// hostileCase is one hostile script and what must come of it: a clean
// error (a status, a limit) or a correct run, never a crash or a hang.
type hostileCase struct {
	name   string
	script string
	stdin  string
	set    func(*interp.Limits) // adjusts the limits (default: DefaultLimits, 20s)
	status int                  // wanted exit status (unless limit or anyStatus is set)
	limit  string               // wanted LimitError, e.g. "max-fields"
	// anyStatus marks the cases where sandsh parts from bash on purpose
	// (a clean error where bash would crash or take forever) or on a
	// detail beside the point here.
	anyStatus bool
	stdout    string // wanted standard output, unless anyOut
	anyOut    bool
	stderr    string // wanted in standard error
}

// fields sets the max-fields limit.
func fields(n int) func(*interp.Limits) { return func(l *interp.Limits) { l.MaxFields = n } }

// rep is strings.Repeat, short for the tables.
func rep(s string, n int) string { return strings.Repeat(s, n) }

// double is shell code that sets s to 2^n copies of unit.
func double(unit string, n int) string {
	return "s='" + unit + "'; for ((i=0; i<" + strconv.Itoa(n) + "; i++)); do s=$s$s; done; "
}

// runHostileCases runs each case and checks it.
func runHostileCases(t *testing.T, cases []hostileCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			lim := interp.DefaultLimits()
			// A hang guard, not a time assertion: the deep cases take
			// seconds alone and far longer under -race on a loaded machine.
			lim.Timeout = 60 * time.Second
			if c.set != nil {
				c.set(&lim)
			}
			res := runHostile(t, []byte(c.script), lim, c.stdin)
			checkSane(t, []byte(c.script), res, lim.Timeout)
			short := c.script
			if len(short) > 200 {
				short = short[:200] + "..."
			}
			var le *interp.LimitError
			switch {
			case c.limit != "":
				if !errors.As(res.err, &le) || le.Limit != c.limit {
					t.Fatalf("err = %v, want limit %s\nscript: %q\nstderr: %.500q", res.err, c.limit, short, res.stderr)
				}
			case res.err != nil:
				t.Fatalf("err = %v\nscript: %q\nstderr: %.500q", res.err, short, res.stderr)
			case !c.anyStatus && res.status != c.status:
				t.Errorf("status %d, want %d\nscript: %q\nstderr: %.500q", res.status, c.status, short, res.stderr)
			}
			if !c.anyOut && res.stdout != c.stdout {
				t.Errorf("stdout %.500q, want %q\nscript: %q\nstderr: %.500q", res.stdout, c.stdout, short, res.stderr)
			}
			if !strings.Contains(res.stderr, c.stderr) {
				t.Errorf("stderr %.500q, want it to contain %q\nscript: %q", res.stderr, c.stderr, short)
			}
		})
	}
}

// TestHostileCrashes holds the inputs that crashed or hung sandsh, found
// by FuzzRun or by hand. Each must now end cleanly.
func TestHostileCrashes(t *testing.T) {
	runHostileCases(t, []hostileCase{
		// mvdan's Interactive panicked ("range function continued
		// iteration") when a parse error followed a statement on a line.
		{name: "fuzz: error after a background statement", script: "0&0)", status: 2, stderr: "syntax error near unexpected token `)'"},
		{name: "fuzz: error after a statement", script: "echo a; echo \"b\necho c\n", status: 2, stderr: "unexpected EOF while looking for matching"},
		// "() cmd" parses as an anonymous function with no name.
		{name: "fuzz: anonymous function", script: "()0\necho no", status: 2, stderr: "unexpected token"},
		// arithmetic text that is only a comment parses to nothing.
		{name: "fuzz: comment as subscript", script: "0;${PIPESTATUS[#]}\necho no", stdout: "no\n", stderr: "syntax error"},
		{name: "comment as arithmetic", script: "x='#'; echo $((x))\necho no", stdout: "no\n", stderr: "syntax error"},
		// data read as arithmetic must not run commands: bash runs the
		// substitution in a subscript of a value; sandsh expands it to
		// nothing, and the script goes on with no error.
		// text let and [[ -v a[...] ]] evaluate is already expanded: bash
		// reports "$(cmd)" there as no operand, and sandsh ran it.
		{name: "command in expanded let and -v text", script: "x='$(touch ran)'; let \"z=$x\"; builtin let \"z=$x\"\na=(1); [[ -v a[$x] ]]; echo same-line\necho \"next $z\"; [ -e ran ] || echo none",
			stdout: "next \nnone\n", stderr: "operand expected"},
		{name: "command in a subscript of a value", script: "a=(5 6); x='a[$(touch ran)1]'; [[ $x -eq 6 ]]; echo \"st $?\"; echo $((x)); (( x )); echo \"st $?\"; y='a[`touch ran`]'; echo $((y)); b=(x); b[0]='a[$(touch ran)1]'; echo $(( b[0] + 1 )); [ -e ran ] || echo none",
			stdout: "st 0\n6\nst 0\n5\n7\nnone\n"},
		// a pattern with a byte that is not UTF-8 made regexp.MustCompile
		// panic (turned into "bad substitution" by guard)
		{name: "fuzz: invalid UTF-8 in a pattern", script: `x=$'\xff0'; p=$'\xff'; echo "${x#$p}" "${x/$p/Z}" "${x%0}"; case $x in $p*) echo match;; esac; [[ $x == $p? ]] && echo m2`,
			stdout: "0 Z0 \xff\nmatch\nm2\n"},
		// a Go stack overflow is fatal: every way to nest deeply must end
		// in a clean error instead.
		{name: "and-or chain", script: "true" + rep(" &&true", 300_000) + "; echo no", status: 2, stderr: "nests too deeply"},
		{name: "and-or chain runs in a loop", script: "true" + rep(" && true || false", 2000) + " && echo ok", stdout: "ok\n"},
		{name: "test chain", script: "[[ a" + rep(" && a", 1_000_000) + " ]]; echo no", status: 2, stderr: "nests too deeply"},
		{name: "ternary chain", script: "echo $((1" + rep("?1:1", 1_000_000) + "))", status: 2, stderr: "nests too deeply"},
		{name: "unary chain", script: "echo $((" + rep("!", 2_000_000) + "1))", status: 2, stderr: "nests too deeply"},
		{name: "keyword nesting", script: rep("if true; then ", 300_000) + "echo; " + rep("fi; ", 300_000), status: 2, stderr: "nests too deeply"},
		// quoted closers hid the nesting from the bracket pre-scan.
		{name: "quoted closers", script: "echo " + rep(`$(echo ")" `, 300_000) + rep(")", 300_000), status: 2, stderr: "nests too deeply"},
		{name: "arithmetic chain", script: "((1" + rep("+1", 300_000) + ")); echo no", status: 2, stderr: "nests too deeply"},
		{name: "arithmetic chain from a variable", script: "x=1" + rep("+1", 300_000) + "; echo $((x))", stdout: "300001\n"},
		{name: "arithmetic text too deep", script: double("(", 19) + "x=$s; echo $((x))", status: 1, stderr: "recursion level exceeded"},
		{name: "pipeline chain", script: "echo hi" + rep("|cat", 100_000), status: 2, stderr: "nests too deeply"},
		{name: "statement nesting", script: "d=$(printf '{ %.0s' {1..1900}); e=$(printf '; }%.0s' {1..1900}); f(){ eval \"$d f $e\"; }; f",
			set: func(l *interp.Limits) { l.MaxCallDepth = 0 }, limit: "nesting"},
		// past the job limit, a long pipeline went on making stages.
		{name: "long pipeline", script: "echo hi" + rep(" | cat", 4000), set: func(l *interp.Limits) { l.MaxJobs = 64 }, limit: "max-jobs", anyOut: true},
		// brace expansion: the old fixed cap (16Ki words) broke ordinary
		// loops, and {a,b}x30 took tens of seconds to reach it.
		{name: "brace loop", script: "for i in {1..100000}; do :; done; echo $i", stdout: "100000\n"},
		{name: "brace range", script: "echo {1..100000000}", set: fields(100_000), limit: "max-fields"},
		{name: "brace product", script: "echo " + rep("{a,b}", 30), set: fields(100_000), limit: "max-fields"},
		{name: "brace empties", script: "echo " + rep("{,}", 30), set: fields(100_000), limit: "max-fields"},
		{name: "brace overflow", script: "echo {1..9223372036854775807..9223372036854775807} {9223372036854775806..9223372036854775807} {-9223372036854775807..-9223372036854775808}",
			stdout: "1 9223372036854775806 9223372036854775807 -9223372036854775807 -9223372036854775808\n"},
		{name: "split fields", script: "x=$(yes a | head -n 5000 | tr '\\n' ' '); set -- $x; echo $#", set: func(l *interp.Limits) { l.MaxFields = 1000 }, limit: "max-fields"},
		{name: "array fields", script: "a=({1..600}); b=(\"${a[@]}\" \"${a[@]}\")", set: func(l *interp.Limits) { l.MaxFields = 1000 }, limit: "max-fields"},
		// expr's parser recursed once per parenthesis
		{name: "expr nesting", script: `expr $(printf '( %.0s' {1..300000}) 1; echo rc=$?`, stdout: "rc=2\n", stderr: "nests too deeply"},
		// the parse of a huge script could not be interrupted
		{name: "timeout while parsing", script: rep(":;", 5_000_000), set: func(l *interp.Limits) { l.Timeout = 200 * time.Millisecond }, limit: "timeout"},
		// mapfile read lines and arrays without bound.
		{name: "mapfile of an endless stream", script: "yes | mapfile -t a", set: func(l *interp.Limits) { l.MaxVarBytes = 1 << 20 }, limit: "max-var-bytes"},
		{name: "mapfile of one endless line", script: "yes | tr -d '\\n' | mapfile -t a", set: func(l *interp.Limits) { l.MaxVarBytes = 1 << 20 }, limit: "max-var-bytes"},
	})
}

// TestHostileInput checks bad input of every kind: a clean error or a
// correct run (bash's output where bash has one).
func TestHostileInput(t *testing.T) {
	runHostileCases(t, []hostileCase{
		// binary and invalid UTF-8 script text
		{name: "NUL in script", script: "echo a\x00b", stdout: "ab\n"},
		// bytes that are not UTF-8 pass through, as in bash
		{name: "invalid UTF-8 in script", script: "echo ok\necho \xff\xfe a\xc3\necho no", stdout: "ok\n\xff\xfe a\xc3\nno\n"},
		{name: "binary junk", script: "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00>\x00", status: 2, anyOut: true},
		// NUL bytes in data: bash variables cannot hold them
		{name: "NUL read", script: `read -r x; echo "${x@Q}"; printf '%q\n' "$x"; declare -p x; set -x; : "$x"`,
			stdin: "a\x00b\n", stdout: "'ab'\nab\ndeclare -- x=\"ab\"\n", stderr: "+ : ab\n"},
		{name: "NUL read -N", script: `read -N 3 x; echo "${x@Q}"`, stdin: "a\x00bc", stdout: "'abc'\n"},
		{name: "NUL mapfile", script: `mapfile -t m; declare -p m`, stdin: "a\x00b\n\x00c\n", stdout: "declare -a m=([0]=\"a\" [1]=\"\")\n"},
		{name: "NUL in substitution", script: `x=$(printf 'a\0b'); echo ${#x}`, stdout: "2\n"},
		{name: "NUL in $'...'", script: `x=$'a\x00b'; echo ${#x} "${x@Q}"`, stdout: "1 'a'\n"},
		// invalid UTF-8 in data is quoted byte by byte, as bash does
		{name: "invalid UTF-8 quoted", script: `x=$'\xff\xfe'; echo "${x@Q}"; printf '%q\n' "$x"; declare -p x; set -x; : "$x"`,
			stdout: "$'\\377\\376'\n$'\\377\\376'\ndeclare -- x=$'\\377\\376'\n", stderr: "+ : $'\\377\\376'\n"},
		{name: "UTF-8 quoted", script: `x='é'; echo "${x@Q}"; declare -p x`, stdout: "'é'\ndeclare -- x=\"é\"\n"},
		// a huge script
		{name: "10 MB line", script: "x=" + rep("a", 10_000_000) + "; echo ${#x}", stdout: "10000000\n"},
		{name: "10 MB comment", script: "#" + rep("c", 10_000_000) + "\necho ok", stdout: "ok\n"},
		{name: "script too big", script: "#" + rep("c", 2_000_000), set: func(l *interp.Limits) { l.MaxScript = 1 << 20 }, limit: "max-script-bytes"},
		// deep nesting, given directly ...
		{name: "2^20 (", script: rep("(", 1<<20), status: 2, stderr: "nests deeper"},
		{name: "2^20 $((", script: "echo $((" + rep("(", 1<<20) + "1" + rep(")", 1<<20) + "))", status: 2, stderr: "nests deeper"},
		{name: "2^20 {", script: rep("{ ", 1<<20) + "echo; " + rep("} ", 1<<20), status: 2, stderr: "nests deeper"},
		{name: "2^20 $(", script: "echo " + rep("$(", 1<<20), status: 2, stderr: "nests deeper"},
		{name: "2^18 quotes", script: "echo " + rep(`"$(echo `, 1<<18) + "x" + rep(`)"`, 1<<18), status: 2, stderr: "nests deeper"},
		// ... and through eval, source, bash -c, bash FILE, aliases and traps
		{name: "eval (", script: double("(", 20) + `eval "$s"; echo rc=$?`, stdout: "rc=2\n", stderr: "nests deeper"},
		{name: "eval $((", script: double("$((", 18) + `eval "echo $s"; echo rc=$?`, stdout: "rc=2\n", stderr: "nests deeper"},
		{name: "source {", script: double("{ ", 18) + `echo "$s" > f; . ./f; echo rc=$?`, stdout: "rc=2\n", stderr: "nests deeper"},
		{name: "bash -c $(", script: double("$(", 18) + `bash -c "echo $s"; echo rc=$?`, stdout: "rc=2\n", stderr: "nests deeper"},
		{name: "bash FILE quotes", script: double(`"$(echo `, 15) + `echo "echo $s" > f; bash f; echo rc=$?`, stdout: "rc=2\n", stderr: "nests deeper"},
		{name: "bash -c test chain", script: double(" && a", 19) + `bash -c "[[ a $s ]]"; echo rc=$?`, stdout: "rc=2\n", stderr: "nests too deeply"},
		{name: "eval quoted closers", script: double(`$(echo ")" `, 17) + `eval "echo $s"; echo rc=$?`, stdout: "rc=2\n", stderr: "nests too deeply"},
		// (an alias is expanded as its line is parsed: too deep is a
		// syntax error that ends the script)
		{name: "alias (", script: "shopt -s expand_aliases\n" + double("(", 18) + "alias z=\"$s\"\nz\necho rc=$?", status: 2, stderr: "nests too deeply"},
		{name: "trap (", script: double("(", 18) + `trap "$s" EXIT`, stderr: "nests deeper"},
		// (bash ends the script on a bad subscript; let and declare -i go
		// on in sandsh, see the README's differences)
		{name: "subscript ?:", script: double("1?1:", 17) + `a[${s}1]=1; echo rc=$?`, anyStatus: true, anyOut: true, stderr: "recursion level exceeded"},
		{name: "let ?:", script: double("1?1:", 17) + `let "${s}1"; echo rc=$?`, anyStatus: true, anyOut: true, stderr: "recursion level exceeded"},
		{name: "declare -i ?:", script: double("1?1:", 17) + `declare -i i; i=${s}1; echo "rc=$? $i"`, anyStatus: true, anyOut: true},
		{name: "PS4", script: double("$(", 18) + `PS4=$s; set -x; echo hi`, stdout: "hi\n", anyOut: true},
		// huge expansions
		{name: "printf width", script: `printf '%999999999d' 1; echo " rc=$?"`, stdout: " rc=1\n", stderr: "too large"},
		{name: "printf precision", script: `printf '%.999999999f' 1; echo " rc=$?"`, stdout: " rc=1\n", stderr: "too large"},
		{name: "printf star", script: `printf '%*d' 99999999999 1; echo " rc=$?"`, stdout: " rc=1\n", stderr: "too large"},
		{name: "substring bounds", script: `x=abc; echo "${x:0:99999999999}" "${x:99999999999}" "${x: -99999999999}" "${x: -2:-1}" "${x:1:-1}"`, stdout: "abc   b b\n"},
		{name: "array slice bounds", script: `a=(1 2 3); echo "${a[@]:9223372036854775807}" "${a[@]: -9223372036854775807}" "${a[@]:1:2}" "${@: -1}"`, stdout: "2 3 fuzz\n"},
		{name: "replace grows", script: `x=$(printf '%0100000d' 0); y=${x//0/$x}`, set: func(l *interp.Limits) { l.MaxVarBytes = 1 << 20 }, limit: "max-var-bytes"},
		// arithmetic: Go panics on neither overflow nor MinInt64/-1, and
		// bash wraps around
		{name: "arithmetic overflow", script: `echo $((2**63)) $((9223372036854775807+1)) $((-9223372036854775808/-1)) $((-9223372036854775808%-1)) $((99999999999999999999)) $((0xFFFFFFFFFFFFFFFFFF))`,
			stdout: "-9223372036854775808 -9223372036854775808 -9223372036854775808 0 7766279631452241919 -1\n"},
		{name: "arithmetic assign overflow", script: `x=$((-9223372036854775807-1)); ((x/=-1)); echo $x; ((x%=-1)); echo $x`, stdout: "-9223372036854775808\n0\n"},
		// like bash, an arithmetic error abandons its line, not the script
		{name: "division by zero", script: "echo $((1/0))\necho no", stdout: "no\n", stderr: "division by"},
		{name: "shifts", script: `echo $((1<<64)) $((1<<-1)) $((-1>>65))`, stdout: "1 -9223372036854775808 -1\n"},
		{name: "self reference", script: `x=x; echo $((x)); y='y+1'; echo $((y))`, status: 1, stdout: "0\n", stderr: "recursion level exceeded"},
		// arrays, namerefs, indirection
		{name: "sparse arrays", script: `a[999999999999]=1; a[9223372036854775807]=2; echo ${#a[@]} ${!a[@]}; unset 'a[9223372036854775807]'; a+=(x y); echo ${!a[@]}`,
			stdout: "2 999999999999 9223372036854775807\n999999999999 1000000000000 1000000000001\n"},
		{name: "negative subscript", script: `b[-1]=3; echo $?`, status: 1, stderr: "bad array subscript"},
		{name: "nameref loop", script: `declare -n a=b; declare -n b=a; echo "[$a]"; echo "[${!a}]"; x=x; echo "[${!x}]"`, anyOut: true},
		{name: "nameref to itself", script: `declare -n r=r; r=1; echo "[$r]"`, anyOut: true},
		{name: "indirect substitution", script: `y='a[$(echo hi >&2)]'; echo "[${!y}]"`, anyOut: true},
		// descriptors
		{name: "fd 1023", script: `exec 1023>f; echo hi >&1023; exec 1023>&-; cat f; exec 1024>g; echo rc=$?`, stdout: "hi\nrc=1\n", stderr: "1024"},
		{name: "fd exhaustion", script: `for i in {1..3000}; do exec {fd}>/dev/null || { echo full; break; }; done`, stdout: "full\n", stderr: "too many open files"},
		{name: "closed stdio", script: `exec 0<&- 1>&- 2>&-; read x; echo lost; echo lost >&2; exit 3`, status: 3},
		// read and mapfile sizes
		{name: "read -n huge", script: `read -n 99999999999 x; echo $? ${#x}`, stdin: "abc\ndef", stdout: "0 3\n"},
		{name: "read -N huge", script: `read -N 99999999999 x; echo $? ${#x}`, stdin: "abc\ndef", stdout: "1 7\n"},
		{name: "read -t huge", script: `read -t 99999999999 x; echo $? $x`, stdin: "abc\n", stdout: "0 abc\n"},
		{name: "mapfile options", script: `mapfile -n 99999999999 -s 99999999999 a; echo $? ${#a[@]}`, stdin: "a\nb\n", stdout: "0 0\n"},
		// signals, traps, recursion
		{name: "kill -9 $$", script: `kill -9 $$; echo no`, status: 137},
		{name: "kill -9 subshell", script: `(kill -9 $BASHPID; echo no); echo $?`, stdout: "137\n", anyOut: true},
		{name: "trap recursion", script: `trap 'kill -USR1 $$' USR1; kill -USR1 $$`, set: func(l *interp.Limits) { l.MaxCallDepth = 50 }, limit: "max-call-depth"},
		{name: "trap INT loop", script: `trap 'kill -INT $$' INT; kill -INT $$`, set: func(l *interp.Limits) { l.MaxCallDepth = 50 }, limit: "max-call-depth"},
		{name: "EXIT trap exits", script: `trap 'exit 3' EXIT; exit 1`, status: 3},
		{name: "function recursion", script: `f(){ f; }; f`, set: func(l *interp.Limits) { l.MaxCallDepth = 200 }, limit: "max-call-depth"},
		{name: "substitution recursion", script: `f(){ echo $(f); }; f`, limit: "max-subst-depth"},
		{name: "fork bomb", script: `b(){ b|b& }; b; wait`, set: func(l *interp.Limits) { l.MaxJobs = 50 }, limit: "max-jobs", anyOut: true},
		// aliases and ulimit
		{name: "recursive aliases", script: "shopt -s expand_aliases\nalias a=b b=a c='c c'\na; echo $?; c; echo $?",
			stdout: "127\n127\n", stderr: "not found"},
		// (bash expands e again in the text eval parses, and recurses
		// until it crashes)
		{name: "alias through eval", script: "shopt -s expand_aliases\nalias e='eval e'\ne; echo $?", limit: "max-call-depth"},
		{name: "ulimit games", script: `ulimit -n 1; ulimit -v 1; ulimit -s unlimited; ulimit -u 0; exec 3>f; echo ok >&3; cat f`, stdout: "ok\n", anyOut: true},
	})
}

// TestParseTextGuards checks the parse the REPL uses: deep text is an
// error, incomplete text is still recognised as incomplete.
func TestParseTextGuards(t *testing.T) {
	for _, src := range []string{
		rep("(", 1<<20),
		"[[ a" + rep(" && a", 1_000_000) + " ]]",
		"echo $((1" + rep("?1:1", 1_000_000) + "))",
		"echo " + rep(`$(echo ")" `, 300_000),
		"true" + rep(" && true", 100_000),
	} {
		if _, err := interp.ParseText(src, ""); err == nil {
			t.Errorf("no error for %.40q...", src)
		}
	}
	if _, err := interp.ParseText("echo 'open", ""); !syntax.IsIncomplete(err) {
		t.Errorf("err = %v, want an incomplete-input error", err)
	}
	if f, err := interp.ParseText("echo ok", ""); err != nil || len(f.Stmts) != 1 {
		t.Errorf("f = %v, err = %v", f, err)
	}
}
