package interp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/interp"
)

// TestStateRoundTrip saves a shell's state, carries it through JSON into
// a fresh runner and checks that the second runner sees the same shell.
func TestStateRoundTrip(t *testing.T) {
	ctx := context.Background()
	a, _, errA := newTestRunner(t, interp.DefaultLimits())
	setup := `
s='a b  "c"'; export E=exp; declare -i n=7; declare -l low=ABC; declare -u up=abc; readonly RO=fixed
arr=(x "y z" '')
sparse=([3]=three [10]=ten)
declare -A m=(["k 1"]=v1 ["q'x"]=v2)
declare un
ref=s; declare -n nr=ref
f() { local x=$1; echo "f:$x" | tr a-z A-Z; for i in 1 2; do echo "$i"; done >&2; }
g() ( echo "sub $((n*2))" )
export -f f
alias ll='echo ll'
set -o pipefail; set -u; shopt -s extglob nullglob
mkdir -p d1 d2; cd d1; pushd ../d2 >/dev/null
umask 027
trap 'echo trapped' USR1
`
	if st, err := a.RunReader(ctx, strings.NewReader(setup), "setup"); err != nil || st != 0 {
		t.Fatalf("setup: %d %v %s", st, err, errA)
	}
	exported := a.ExportState()
	data, err := json.Marshal(exported)
	if err != nil {
		t.Fatal(err)
	}
	var back interp.State
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	check := `declare -p s E n low up RO arr sparse m nr; f q; g; shopt -s expand_aliases; eval ll
echo "$- $(set -o | grep -E '^(pipefail|nounset)' | tr -s '\t ' ' ')"; shopt extglob nullglob
pwd; dirs; umask; trap -p USR1; declare -F; bash -c 'f exported'; n+=1; echo $n; low=XYZ; echo $low; (RO=2) 2>/dev/null || echo ro`
	b, outB, errB := newTestRunner(t, interp.DefaultLimits(), interp.WithFS(a.FS()))
	if err := b.ImportState(&back); err != nil {
		t.Fatal(err)
	}
	// The reference: the same checks in the runner that made the state.
	c, outC, errC := newTestRunner(t, interp.DefaultLimits(), interp.WithFS(a.FS()))
	if _, err := c.RunReader(ctx, strings.NewReader(setup+"\n"+check), "ref"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.RunReader(ctx, strings.NewReader(check), "check"); err != nil {
		t.Fatal(err)
	}
	if outB.String() != outC.String() || errB.String() != errC.String() {
		t.Errorf("restored shell differs:\n--- restored\n%s%s\n--- original\n%s%s", outB, errB, outC, errC)
	}
	for _, want := range []string{`declare -a arr=([0]="x" [1]="y z" [2]="")`, `declare -A m=(["q'x"]="v2" ["k 1"]="v1" )`, "F:Q", "sub 14", "trapped", "declare -fx f", "F:EXPORTED"} {
		if !strings.Contains(outB.String(), want) {
			t.Errorf("restored output lacks %q:\n%s", want, outB)
		}
	}
	outB.Reset()
	b.Reset()
	b.RunReader(ctx, strings.NewReader("declare -p un"), "un")
	if outB.String() != "declare -- un\n" {
		t.Errorf("declared-only variable: %q", outB)
	}
}

// TestStateRefused checks that a bad state changes nothing.
func TestStateRefused(t *testing.T) {
	good := func() *interp.State {
		return &interp.State{Dir: "/workspace", Vars: []interp.StateVar{{Name: "x", Kind: "string", Value: "1"}}}
	}
	lim := interp.DefaultLimits()
	lim.MaxVarBytes = 100
	cases := map[string]func(*interp.State){
		"relative dir": func(s *interp.State) { s.Dir = "rel" },
		"bad name":     func(s *interp.State) { s.Vars[0].Name = "a-b" },
		"bad kind":     func(s *interp.State) { s.Vars[0].Kind = "blob" },
		"too big":      func(s *interp.State) { s.Vars[0].Value = strings.Repeat("x", 101) },
		"big element": func(s *interp.State) {
			s.Vars = append(s.Vars, interp.StateVar{Name: "a", Kind: "indexed", List: []string{strings.Repeat("x", 101)}})
		},
		"bad indexes": func(s *interp.State) {
			s.Vars = append(s.Vars, interp.StateVar{Name: "a", Kind: "indexed", List: []string{"a", "b"}, Indexes: []int{3, 1}})
		},
		"twice":           func(s *interp.State) { s.Vars = append(s.Vars, s.Vars[0]) },
		"func syntax":     func(s *interp.State) { s.Funcs = []interp.StateFunc{{Name: "f", Body: "{ echo"}} },
		"func name":       func(s *interp.State) { s.Funcs = []interp.StateFunc{{Name: "a;b", Body: "{ :; }"}} },
		"two statements":  func(s *interp.State) { s.Funcs = []interp.StateFunc{{Name: "f", Body: "{ :; }; rm -rf /"}} },
		"unknown option":  func(s *interp.State) { s.SetOpts = []string{"nosuch"} },
		"unknown shopt":   func(s *interp.State) { s.Shopts = []string{"nosuch"} },
		"bad trap signal": func(s *interp.State) { s.Traps = map[string]string{"NOPE": "echo"} },
		"trap syntax":     func(s *interp.State) { s.Traps = map[string]string{"USR1": "if"} },
		"umask":           func(s *interp.State) { s.Umask = 0o1000 },
	}
	for name, spoil := range cases {
		t.Run(name, func(t *testing.T) {
			r, out, _ := newTestRunner(t, lim)
			if _, err := r.RunReader(context.Background(), strings.NewReader("keep=1"), "x"); err != nil {
				t.Fatal(err)
			}
			st := good()
			spoil(st)
			if err := r.ImportState(st); err == nil {
				t.Fatal("bad state accepted")
			}
			r.RunReader(context.Background(), strings.NewReader(`echo "$keep ${x-unset}"; pwd`), "x")
			if out.String() != "1 unset\n/workspace\n" {
				t.Errorf("a refused state changed the shell: %q", out)
			}
		})
	}
}

// TestStateOwnedVars checks that a state cannot set the variables the
// runner owns (its identity) and that the API refuses them too.
func TestStateOwnedVars(t *testing.T) {
	r, out, _ := newTestRunner(t, interp.DefaultLimits())
	st := &interp.State{Dir: "/", Vars: []interp.StateVar{{Name: "UID", Kind: "string", Value: "0"}, {Name: "BASH_VERSION", Kind: "string", Value: "9"}}}
	if err := r.ImportState(st); err != nil {
		t.Fatal(err)
	}
	r.RunReader(context.Background(), strings.NewReader(`echo $UID ${BASH_VERSION%%.*}`), "x")
	if out.String() != "1000 5\n" {
		t.Errorf("got %q", out)
	}
	if err := r.SetVar("EUID", "0"); err == nil {
		t.Error("SetVar EUID accepted")
	}
}

// TestSetVarAPI sets strings and arrays from Go and reads them back.
func TestSetVarAPI(t *testing.T) {
	r, out, _ := newTestRunner(t, interp.DefaultLimits())
	if err := r.SetVar("s", "v 1"); err != nil {
		t.Fatal(err)
	}
	if err := r.SetIndexed("a", []string{"p", "q r"}); err != nil {
		t.Fatal(err)
	}
	if err := r.SetAssoc("m", map[string]string{"k": "v"}); err != nil {
		t.Fatal(err)
	}
	if err := r.SetVar("bad-name", "x"); err == nil {
		t.Error("bad name accepted")
	}
	r.RunReader(context.Background(), strings.NewReader(`echo "$s|${a[1]}|${m[k]}|${#a[@]}"; out=done; b=(1 2); declare -A n=([x]=y); readonly s`), "x")
	if out.String() != "v 1|q r|v|2\n" {
		t.Errorf("got %q", out)
	}
	if v, ok := r.Var("out"); !ok || v != "done" {
		t.Errorf("out = %v %v", v, ok)
	}
	if v, ok := r.Var("b"); !ok || strings.Join(v.([]string), ",") != "1,2" {
		t.Errorf("b = %v %v", v, ok)
	}
	if v, ok := r.Var("n"); !ok || v.(map[string]string)["x"] != "y" {
		t.Errorf("n = %v %v", v, ok)
	}
	if _, ok := r.Var("nosuch"); ok {
		t.Error("unset variable reported set")
	}
	if err := r.SetVar("s", "new"); err == nil {
		t.Error("readonly variable overwritten")
	}
}
