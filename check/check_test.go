package check

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/policy"
)

func codes(t *testing.T, src string, opts Options) []string {
	t.Helper()
	r, err := Script(context.Background(), "t.sh", []byte(src), opts)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.Severity.String()+":"+f.Code)
	}
	return out
}

func TestDispatch(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"echo hi; cat f | grep x; f() { ls; }; f", nil},
		{"$cmd arg", []string{"error:dynamic-command"}},
		{`"${a[@]}"`, []string{"error:dynamic-command"}},
		{"$(echo rm) -f x", []string{"error:dynamic-command"}},
		{"e*o hi", []string{"error:dynamic-command"}},
		{`eval "$x"`, []string{"error:eval-computed"}},
		{`eval 'echo hi; $y'`, []string{"warning:eval", "error:dynamic-command"}},
		{`source "$f"`, []string{"warning:source-computed"}},
		{`source "$(dirname "$0")/lib.sh"`, []string{"warning:source-computed"}},
		{`bash "$t"`, []string{"warning:shell-file-computed"}},
		{`bash "$t" x`, []string{"error:shell-computed"}},
		{`[ -f x ] && echo y`, nil},
		{`[a] x`, []string{"error:dynamic-command"}},
		{`find . | xargs -I{} sh -c "echo {}"`, []string{"error:xargs-shell-input"}},
		{`ls | xargs -I X bash -c 'cat X'`, []string{"error:xargs-shell-input"}},
		{`ls | xargs sh -c 'rm "$@"' _`, []string{"warning:xargs-shell"}},
		{`cd /; rm -rf etc`, []string{"warning:dangerous:rm-rf-root"}},
		{`cd /tmp; rm -rf etc`, nil},
		{`cd /usr; rm -rf ../etc`, []string{"warning:dangerous:rm-rf-root"}},
		{`rm --rec --force /`, []string{"warning:dangerous:rm-rf-root"}},
		{`. ./lib.sh`, []string{"info:source-file"}},
		{`bash -c "$s"`, []string{"error:shell-computed"}},
		{`sh -c 'eval "$1"' x`, []string{"error:eval-computed"}},
		{`bash -c 'echo ok'`, nil},
		{`curl -s x | sh`, []string{"warning:dangerous:download-to-shell", "error:shell-stdin"}},
		{`rm -rf /`, []string{"warning:dangerous:rm-rf-root"}},
		{`bash script.sh`, []string{"info:source-file"}},
		{`xargs "$c"`, []string{"error:wrapper-computed"}},
		{`xargs -n 1 rm`, nil},
		{"echo `rm -rf x\necho \"`", []string{"error:nested-syntax"}},
		{`find . -name x -exec "$c" {} \;`, []string{"error:wrapper-computed"}},
		{`find . -exec sh -c "$s" {} +`, []string{"error:shell-computed"}},
		{`find . -exec grep -l x {} +`, nil},
		{`env A=1 "$c"`, []string{"error:wrapper-computed"}},
		{`env -S 'a b'`, []string{"error:wrapper-computed"}},
		{`timeout -s KILL 5 $c`, []string{"error:wrapper-computed"}},
		{`timeout 5 sleep 1`, nil},
		{`nice -n 5 $c; nohup $d`, []string{"error:wrapper-computed", "error:wrapper-computed"}},
		{`command $c`, []string{"error:wrapper-computed"}},
		{`command -v foo`, nil},
		{`alias ll='ls -l'; ll`, []string{"warning:alias", "warning:alias-call"}},
		{`alias x="$y"`, []string{"error:alias-computed"}},
		{`awk '{ system($0) }'`, []string{"error:awk-system-computed"}},
		{`awk '{ system("echo hi") }'`, nil},
		{`awk '{ print | $2 }'`, []string{"error:awk-system-computed"}},
		{`awk '{ print $1 }' f`, nil},
		{`awk "$prog"`, []string{"error:awk-computed"}},
		{`awk -F: '{ system("frob") }'`, []string{"warning:unavailable"}},
		{`sed 's/a/b/e'`, []string{"error:sed-e-computed"}},
		{`sed -e 's/a/b/g' -e 'e frob'`, []string{"warning:unavailable"}},
		{`sed -n '/x/p' f; sed 's/e/E/'`, nil},
		{`sed "$s" f`, []string{"error:sed-computed"}},
		{`trap "$t" EXIT`, []string{"error:trap-computed"}},
		{`trap 'frob' EXIT; trap - EXIT; trap -p`, []string{"warning:unavailable"}},
		{`frobnicate --x`, []string{"warning:unavailable"}},
		{`./run.sh; /usr/bin/cat f; /usr/bin/frob`, []string{"warning:script-file", "warning:unavailable"}},
		{`builtin eval "$x"`, []string{"error:eval-computed"}},
		{`exec "$@"`, []string{"error:wrapper-computed"}},
	} {
		got := codes(t, tc.src, Options{})
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
}

func TestNestedPositions(t *testing.T) {
	r, err := Script(context.Background(), "t.sh", []byte("echo\n  bash -c 'echo; $x'\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 1 || r.Findings[0].Pos != (Pos{2, 18}) {
		t.Fatalf("got %+v", r.Findings)
	}
	if !strings.Contains(r.Findings[0].Message, "bash -c text") {
		t.Errorf("message %q does not name the route", r.Findings[0].Message)
	}
}

func TestSyntaxError(t *testing.T) {
	_, err := Script(context.Background(), "t.sh", []byte("echo ok\nif then fi\n"), Options{})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Finding.Pos.Line != 2 {
		t.Fatalf("got %v", err)
	}
}

func TestInventory(t *testing.T) {
	r, err := Script(context.Background(), "t.sh", []byte("f() { cat x; }\nf; f; cat y; frob; cd /\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Commands {
		got = append(got, c.Name+"/"+c.Kind)
	}
	want := []string{"cat/in-process", "f/function", "frob/unavailable", "cd/builtin"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q want %q", got, want)
	}
}

// TestDeepNesting: text that sandsh run refuses as nesting too deep is
// refused by the check in the same words, as a syntax finding (status 2
// from the CLI), in bounded memory: 200,000 nested ( overflowed the
// parser's stack (a Go stack trace and about 870 MB) before (issue 21.6).
func TestDeepNesting(t *testing.T) {
	for name, src := range map[string]string{
		"parens":     strings.Repeat("(", 200000),
		"arithmetic": "echo $((" + strings.Repeat("(", 3000) + "1" + strings.Repeat(")", 3000) + "))",
		"braces":     strings.Repeat("{ ", 5000) + "true" + strings.Repeat("; }", 5000),
		"nested":     "bash -c '" + strings.Repeat("(", 1500) + "' && eval '" + strings.Repeat("(", 1500) + "'",
	} {
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Script(context.Background(), "deep.sh", []byte(src), Options{})
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(se.Finding.Message, "nests") {
			t.Errorf("%s: %v, want a syntax finding saying it nests too deep", name, err)
		}
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 256<<20 {
			t.Errorf("%s: allocated %d MiB", name, grew>>20)
		}
	}
}

func TestDepthBounded(t *testing.T) {
	// Each level of quoting grows the text fourfold, so start the
	// checker at the bound instead of writing the script out.
	c := &checker{ctx: context.Background(), file: "t.sh", res: &Result{File: "t.sh"},
		funcs: map[string]bool{}, aliases: map[string]bool{}, inv: map[string]*Command{}}
	f, err := parse(context.Background(), []byte("eval 'echo'"), "t.sh")
	if err != nil {
		t.Fatal(err)
	}
	c.walk(f, frame{depth: maxDepth})
	var got []string
	for _, fd := range c.res.Findings {
		got = append(got, fd.Code)
	}
	if !slices.Contains(got, "too-deep") {
		t.Fatalf("got %q", got)
	}
}

func TestPolicy(t *testing.T) {
	p, err := policy.Parse("p.yaml", []byte(`default: allow
rules:
  - name: no-inplace-sed
    command: sed
    args: "-i*"
    action: deny
    reason: edits go through patches
  - name: ask-rm
    command: rm
    action: ask
  - name: no-eval
    command: eval
    action: deny
`))
	if err != nil {
		t.Fatal(err)
	}
	got := codes(t, "sed -i s/a/b/ f; sed s/a/b/ f; rm x; eval 'echo'; cd /; rm -rf /; xargs rm", Options{Policy: p})
	want := []string{"error:policy-deny", "warning:policy-ask", "error:policy-deny", "warning:eval", "error:dangerous:rm-rf-root", "warning:policy-ask"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestPolicyShapes(t *testing.T) {
	load := func(src string) *policy.Policy {
		p, err := policy.Parse("p.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	allowAll := "default: allow\nrules:\n  - name: all\n    command: \"*\"\n    action: allow\n"
	bomb := ":(){ :|:& };:"
	if got := codes(t, bomb, Options{Policy: load(allowAll)}); !slices.Contains(got, "error:dangerous:fork-bomb") {
		t.Errorf("fork bomb under a policy: %q", got)
	}
	if got := codes(t, bomb, Options{Policy: load(allowAll + "dangerous:\n  disable: [fork-bomb]\n")}); slices.Contains(got, "error:dangerous:fork-bomb") {
		t.Errorf("disabled fork bomb still reported: %q", got)
	}
	if got := codes(t, "bash -c 'f(){ f|f & }; f'", Options{Policy: load(allowAll)}); !slices.Contains(got, "error:dangerous:fork-bomb") {
		t.Errorf("nested fork bomb: %q", got)
	}
	// A glob rule that allows every name does not reach builtins, and
	// `default: deny` does not deny them: only rules naming a builtin do.
	if got := codes(t, "cd /; echo hi", Options{Policy: load("default: deny\n")}); len(got) != 0 {
		t.Errorf("builtins under default deny: %q", got)
	}
}
