package interp_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/vfs"
)

// The variable index (lookup's O(1) path) must match the scopes after
// every kind of change: locals, unset, prefix assignments, declare -g,
// namerefs, BASH_REMATCH, recursion.
func TestVarIndexConsistent(t *testing.T) {
	scripts := []string{
		`x=1; f() { local x=2 y; unset y; x=3; g; }; g() { local x; unset x; z=$x; }; f; echo $x $z`,
		`f() { local a=1; declare -g a=2; A=5 B=$A true; unset a; echo ${a-unset}; }; a=0; f; echo $a`,
		`r() { local d=$1; if [ $d -gt 0 ]; then r $((d-1)); fi; }; r 50; echo ok`,
		`f() { declare -n ref=tgt; ref=7; local -i n=3; [[ abc =~ (b) ]]; }; f; echo $tgt ${BASH_REMATCH[1]}`,
		`x=1; f() { local x=2; unset x; x=4; echo $x; }; f; echo $x; unset x; echo ${x-gone}`,
		`g() { v=inner; }; f() { local v=outer; g; echo $v; }; f; echo ${v-none}`,
		`f() { local IFS=:; read -r a b <<< "1:2"; echo $a; }; f; (f; x=1); echo ${a-no}`,
		`x=g; f() { local x=l; unset x; echo ${x-u}; local x; }; x=t f; x=e eval 'echo $x; unset x'; y=1 eval 'local y' ; echo $x`,
		`f() { x=2 g; }; g() { local x; x=3; unset x; echo ${x-none}; }; x=1; f; x=9 f; echo $x`,
	}
	for _, s := range scripts {
		fsys := vfs.NewMem()
		vfs.Populate(fsys, vfs.WorkDir)
		r, err := interp.New(interp.WithFS(fsys), interp.WithGateway(restrict.New(builtins.NewRegistry())),
			interp.WithStdio(strings.NewReader(""), io.Discard, io.Discard), interp.WithDir(vfs.WorkDir))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.RunReader(context.Background(), strings.NewReader(s), "t"); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if err := interp.VarIndexErr(r); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}

// Scopes change only through the helpers that keep the index.
func TestVarIndexWritesGoThroughHelpers(t *testing.T) {
	direct := regexp.MustCompile(`\.vars\[[^\]]*\]\s*=[^=]|delete\([^,]*\.vars,|\bscopes\s*=[^=]`)
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if !direct.MatchString(line) {
				continue
			}
			// The helpers themselves, initVars and subshell's copy.
			if f == "vars.go" || f == "runner.go" && strings.Contains(line, "c.scopes") {
				continue
			}
			t.Errorf("%s:%d: scopes changed directly (use setScoped/unsetScoped/pushScope/popScope): %s", f, i+1, strings.TrimSpace(line))
		}
	}
}
