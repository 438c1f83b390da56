package builtins

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/sandsh/sandsh/vfs"
)

const testUsage = `Usage: test EXPRESSION
  or:  test
  or:  [ EXPRESSION ]
  or:  [ ]
Exit with the status determined by EXPRESSION.

  ! EXPR, EXPR1 -a EXPR2, EXPR1 -o EXPR2, ( EXPR )
  -n STRING, -z STRING, STRING1 = STRING2, STRING1 != STRING2, < >
  INTEGER1 -eq|-ne|-lt|-le|-gt|-ge INTEGER2
  FILE1 -ef|-nt|-ot FILE2
  -b -c -d -e -f -g -G -h -k -L -N -O -p -r -s -S -t -u -w -x FILE
`

// runTest is the test and [ commands.
func runTest(ctx context.Context, env *Env, args []string) int {
	bracket := args[0] == "["
	if bracket && len(args) == 2 && args[1] == "--help" {
		fmt.Fprint(env.Stdout, testUsage)
		return 0
	}
	return Test(env, args[1:], bracket)
}

// Test evaluates a test expression exactly like bash's test builtin and
// returns its status: 0 true, 1 false, 2 on a syntax error (reported on
// env.Stderr as "test: ..." or "[: ..."). args are the operands after the
// command name; with bracket they must end with "]".
func Test(env *Env, args []string, bracket bool) (status int) {
	name := "test"
	if bracket {
		name = "["
	}
	return TestArgv(fixedEnv{env}, append([]string{name}, args...))
}

// EnvSource makes the Env of a command when it is first needed.
type EnvSource interface{ Env() *Env }

type fixedEnv struct{ env *Env }

func (f fixedEnv) Env() *Env { return f.env }

// TestArgv is Test on a whole command line (argv[0] "test" or "["), with
// the Env made only when the expression needs it (a file test, an error
// message): a shell's `[ $i -lt 10 ]` in a loop then builds none, and
// copies no arguments.
func TestArgv(envs EnvSource, argv []string) (status int) {
	t := shellTest{envs: envs, name: "test"}
	if argv[0] == "[" {
		t.name = "["
		if len(argv) < 2 || argv[len(argv)-1] != "]" {
			t.e().Errorf(t.name, "missing `]'")
			return 2
		}
		argv = argv[:len(argv)-1]
	}
	if len(argv) < 2 {
		return 1
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(shellTestError)
			if !ok {
				panic(r)
			}
			t.e().Errorf(t.name, "%s", string(e))
			status = 2
		}
	}()
	t.argv = argv
	t.pos = 1
	v := t.posix()
	if t.pos != len(t.argv) {
		if t.pos < len(t.argv) && strings.HasPrefix(t.argv[t.pos], "-") {
			t.syntax("syntax error: `%s' unexpected", t.argv[t.pos])
		}
		t.syntax("too many arguments")
	}
	if v {
		return 0
	}
	return 1
}

// shellTestError carries a syntax error out of the recursive parser.
type shellTestError string

// shellTest mirrors bash's test.c: argv[0] is the command name, pos the
// next argument.
type shellTest struct {
	envs EnvSource
	env  *Env // made by e on first use
	name string
	argv []string
	pos  int
}

// e is the Env, made on first use.
func (t *shellTest) e() *Env {
	if t.env == nil {
		t.env = t.envs.Env()
	}
	return t.env
}

func (t *shellTest) syntax(format string, a ...any) {
	panic(shellTestError(fmt.Sprintf(format, a...)))
}

func (t *shellTest) argc() int { return len(t.argv) }

func (t *shellTest) advance(check bool) {
	t.pos++
	if check && t.pos >= t.argc() {
		t.beyond()
	}
}

func (t *shellTest) beyond() { t.syntax("argument expected") }

// posix applies POSIX's rules for 0 to 4 arguments before falling back to
// the full expression grammar.
func (t *shellTest) posix() bool {
	switch t.argc() - 1 {
	case 1:
		t.pos = t.argc()
		return t.argv[1] != ""
	case 2:
		v := t.two()
		t.pos = t.argc()
		return v
	case 3:
		return t.three()
	case 4:
		if t.argv[t.pos] == "!" {
			t.advance(true)
			return !t.three()
		}
		if t.argv[t.pos] == "(" && t.argv[t.argc()-1] == ")" {
			t.advance(true)
			v := t.two()
			t.pos = t.argc()
			return v
		}
	}
	return t.expr()
}

func (t *shellTest) two() bool {
	a := t.argv[t.pos]
	if a == "!" {
		return t.argv[t.pos+1] == ""
	}
	if shellTestUnop(a) {
		return t.unary()
	}
	t.syntax("%s: unary operator expected", a)
	return false
}

func (t *shellTest) three() bool {
	var v bool
	a, op, b := t.argv[t.pos], t.argv[t.pos+1], t.argv[t.pos+2]
	switch {
	case shellTestBinop(op):
		v = t.binary()
	case op == "-a":
		v = a != "" && b != ""
	case op == "-o":
		v = a != "" || b != ""
	case a == "!":
		t.advance(true)
		v = !t.two()
	case strings.HasPrefix(a, "(") && strings.HasPrefix(b, ")"):
		v = op != ""
	default:
		t.syntax("%s: binary operator expected", op)
	}
	t.pos = t.argc()
	return v
}

func (t *shellTest) expr() bool {
	if t.pos >= t.argc() {
		t.beyond()
	}
	return t.or()
}

func (t *shellTest) or() bool {
	v := t.and()
	if t.pos < t.argc() && t.argv[t.pos] == "-o" {
		t.advance(false)
		v2 := t.or()
		return v || v2
	}
	return v
}

func (t *shellTest) and() bool {
	v := t.term()
	if t.pos < t.argc() && t.argv[t.pos] == "-a" {
		t.advance(false)
		v2 := t.and()
		return v && v2
	}
	return v
}

func (t *shellTest) term() bool {
	if t.pos >= t.argc() {
		t.beyond()
	}
	a := t.argv[t.pos]
	if a == "!" {
		neg := false
		for t.pos < t.argc() && t.argv[t.pos] == "!" {
			t.advance(true)
			neg = !neg
		}
		return t.term() != neg
	}
	if a == "(" {
		t.advance(true)
		v := t.expr()
		switch {
		case t.pos >= t.argc():
			t.syntax("`)' expected")
		case t.argv[t.pos] != ")":
			t.syntax("`)' expected, found %s", t.argv[t.pos])
		}
		t.advance(false)
		return v
	}
	if t.pos+3 <= t.argc() && shellTestBinop(t.argv[t.pos+1]) {
		return t.binary()
	}
	// As in bash, an operator as the last argument is a plain string:
	// [ -a -a -a -a ] is (-a -a) -a "-a".
	if shellTestUnop(a) && t.pos+1 < t.argc() {
		return t.unary()
	}
	t.advance(false)
	return a != ""
}

// shellTestUnop reports whether s is one of test's unary operators.
func shellTestUnop(s string) bool {
	return len(s) == 2 && s[0] == '-' && strings.IndexByte("abcdefghknoprstuvwxzGLOSNR", s[1]) >= 0
}

// shellTestBinop reports whether s is one of test's binary operators.
func shellTestBinop(s string) bool {
	switch s {
	case "=", "==", "!=", "<", ">", "-nt", "-ot", "-ef", "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
		return true
	}
	return false
}

func (t *shellTest) unary() bool {
	op := t.argv[t.pos]
	if op == "-t" {
		t.advance(false)
		if t.pos < t.argc() {
			if _, ok := shellLegalNumber(t.argv[t.pos]); ok {
				t.advance(false)
				return false // sandsh never has a terminal
			}
			return false
		}
		return false
	}
	if t.pos+1 >= t.argc() {
		t.beyond()
	}
	t.pos += 2
	return t.unaryTest(op[1], t.argv[t.pos-1])
}

func (t *shellTest) binary() bool {
	a, op, b := t.argv[t.pos], t.argv[t.pos+1], t.argv[t.pos+2]
	t.pos += 3
	switch op {
	case "=", "==":
		return a == b
	case "!=":
		return a != b
	case "<":
		return a < b
	case ">":
		return a > b
	case "-nt", "-ot", "-ef":
		return t.fileCompare(a, op, b)
	}
	l, ok := shellLegalNumber(a)
	if !ok {
		t.syntax("%s: integer expression expected", a)
	}
	r, ok := shellLegalNumber(b)
	if !ok {
		t.syntax("%s: integer expression expected", b)
	}
	switch op {
	case "-eq":
		return l == r
	case "-ne":
		return l != r
	case "-lt":
		return l < r
	case "-le":
		return l <= r
	case "-gt":
		return l > r
	}
	return l >= r
}

// shellLegalNumber is bash's legal_number: a base-10 integer with optional
// surrounding whitespace; overflow is not a number.
func shellLegalNumber(s string) (int64, bool) {
	v, n, erange := shellStrtoimax10(s)
	if n == 0 || erange {
		return 0, false
	}
	for n < len(s) && (s[n] == ' ' || s[n] == '\t') {
		n++
	}
	return v, n == len(s)
}

// shellStrtoimax10 is strtoimax(s, &end, 10).
func shellStrtoimax10(s string) (int64, int, bool) {
	i := 0
	for i < len(s) && shellIsSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var mag uint64
	erange := false
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		d := uint64(s[i] - '0')
		if mag > (1<<63-d)/10 {
			erange = true
		}
		mag = mag*10 + d
	}
	if i == start {
		return 0, 0, false
	}
	switch {
	case neg && mag > 1<<63, !neg && mag > 1<<63-1:
		erange = true
	}
	if erange {
		if neg {
			return -1 << 63, i, true
		}
		return 1<<63 - 1, i, true
	}
	if neg {
		return -int64(mag), i, false
	}
	return int64(mag), i, false
}

// stat follows symlinks like stat(2); the standard device files exist
// even when the sandbox filesystem has no /dev.
func (t *shellTest) stat(name string) (fs.FileInfo, bool) {
	if name == "" {
		return nil, false
	}
	p := t.e().Abs(name)
	fi, err := t.e().FS.Stat(p)
	if err == nil {
		// Abs cleans "file/" to "file", but stat(2) fails with ENOTDIR.
		if !fi.IsDir() && (strings.HasSuffix(name, "/") || strings.HasSuffix(name, "/.")) {
			return nil, false
		}
		return fi, true
	}
	if shellIsDevFile(p) {
		return shellDevInfo{name: p}, true
	}
	return nil, false
}

// shellIsDevFile reports the device files the runner provides itself.
func shellIsDevFile(p string) bool {
	switch p {
	case "/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/stdin", "/dev/stdout",
		"/dev/stderr", "/dev/fd/0", "/dev/fd/1", "/dev/fd/2":
		return true
	}
	return false
}

// shellDevInfo describes a virtual character device.
type shellDevInfo struct{ name string }

func (d shellDevInfo) Name() string { return d.name[strings.LastIndexByte(d.name, '/')+1:] }
func (d shellDevInfo) Size() int64  { return 0 }
func (d shellDevInfo) Mode() fs.FileMode {
	return fs.ModeDevice | fs.ModeCharDevice | 0o666
}
func (d shellDevInfo) ModTime() time.Time { return time.Time{} }
func (d shellDevInfo) IsDir() bool        { return false }
func (d shellDevInfo) Sys() any           { return &vfs.Meta{UID: 0, GID: 0, Nlink: 1} }

func (t *shellTest) unaryTest(op byte, arg string) bool {
	switch op {
	case 'n':
		return arg != ""
	case 'z':
		return arg == ""
	case 'o', 'R':
		return false
	case 'v':
		_, ok := t.e().LookupEnv(arg)
		return ok
	case 'h', 'L':
		if arg == "" {
			return false
		}
		fi, err := vfs.Lstat(t.e().FS, t.e().Abs(arg))
		return err == nil && fi.Mode()&fs.ModeSymlink != 0
	}
	fi, ok := t.stat(arg)
	if !ok {
		return false
	}
	m := fi.Mode()
	switch op {
	case 'a', 'e':
		return true
	case 'f':
		return m.IsRegular()
	case 'd':
		return m.IsDir()
	case 's':
		return fi.Size() > 0
	case 'S':
		return m&fs.ModeSocket != 0
	case 'c':
		return m&fs.ModeCharDevice != 0
	case 'b':
		return m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0
	case 'p':
		return m&fs.ModeNamedPipe != 0
	case 'u':
		return m&fs.ModeSetuid != 0
	case 'g':
		return m&fs.ModeSetgid != 0
	case 'k':
		return m&fs.ModeSticky != 0
	case 'r':
		return t.access(fi, 4)
	case 'w':
		return t.access(fi, 2)
	case 'x':
		return t.access(fi, 1)
	case 'O':
		return vfs.MetaOf(fi).UID == t.e().System().UID
	case 'G':
		return vfs.MetaOf(fi).GID == t.e().System().GID
	case 'N':
		return fi.ModTime().After(vfs.MetaOf(fi).Atime)
	}
	return false
}

// access checks permission bits the way the kernel would for the sandbox
// user: owner, then group, then other bits; root may read and write
// anything and execute what has any x bit.
func (t *shellTest) access(fi fs.FileInfo, bit fs.FileMode) bool {
	sys := t.e().System()
	perm := fi.Mode().Perm()
	if sys.UID == 0 {
		return bit != 1 || fi.IsDir() || perm&0o111 != 0
	}
	meta := vfs.MetaOf(fi)
	switch {
	case meta.UID == sys.UID:
		return perm>>6&bit != 0
	case meta.GID == sys.GID:
		return perm>>3&bit != 0
	}
	return perm&bit != 0
}

// fileCompare implements -nt, -ot and -ef.
func (t *shellTest) fileCompare(a, op, b string) bool {
	fa, oka := t.stat(a)
	fb, okb := t.stat(b)
	switch op {
	case "-ef":
		if !oka || !okb {
			return false
		}
		ma, mb := vfs.MetaOf(fa), vfs.MetaOf(fb)
		if ma.Ino != 0 && mb.Ino != 0 {
			return ma.Ino == mb.Ino
		}
		return t.e().Abs(a) == t.e().Abs(b)
	case "-nt":
		return oka && (!okb || fa.ModTime().After(fb.ModTime()))
	}
	return okb && (!oka || fa.ModTime().Before(fb.ModTime()))
}
