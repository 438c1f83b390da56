package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// readmeCmd is one command README.md shows: a line of a shell code block,
// or an inline code span that starts with "sandsh ".
type readmeCmd struct {
	line   int
	text   string
	inline bool
}

// readmeSkips are the README commands this test does not run, each with
// its reason. A key that no longer matches a README command fails the
// test, so the list cannot go stale.
var readmeSkips = map[string]string{
	"bash .ci/run": "runs the whole test suite, this test included",
	"go install github.com/sandsh/sandsh@latest":                                            "needs the module proxy and a published release",
	"sandsh --allow-net api.github.com -c 'curl -sSf https://api.github.com/zen'":           "needs the internet",
	"sandsh --allow-net 127.0.0.1:8080 -c 'curl -s -d @req.json http://127.0.0.1:8080/api'": "needs a server on the host's port 8080 (network.txtar runs the same request against its own server)",
	"sandsh run --allow-run python3,git ci.sh":                                              "needs python3 and git on the host and a jail backend (jail tests under testdata/jail cover --allow-run)",
	"bash scripts/conformance.sh host":                                                      "the Oils corpus, minutes long; conformance/ runs it as the ratchet",
	"bash scripts/conformance.sh host --show-failures word-split":                           "the Oils corpus; conformance/ runs it as the ratchet",
	"bash scripts/conformance.sh sandbox":                                                   "the Oils corpus, minutes long; conformance/ runs it as the ratchet",
	"bash bench/run.sh":                                                                     "a benchmark (about 15 minutes), not a test",
	"bash bench/run.sh --quick":                                                             "a benchmark, not a test",
	`REPS=5 SIZES="20 100" bash bench/run.sh`:                                               "a benchmark, not a test",
	"bash bench/shell.sh":                                                                   "a benchmark, not a test",
	"sandsh mcp --http 127.0.0.1:8722 --token-file token --timeout 30s --max-sessions 64":   "a server that runs until it is stopped (mcpserver's HTTP tests serve with the same flags)",
	"sandsh completion bash|zsh|fish":                                                       "a synopsis; cli_conventions.txtar and completion_bash.txtar run each shell's",
	// Names of a command or flag in a sentence, not command lines.
	"sandsh -c":              "names the flag in a sentence",
	"sandsh check --policy":  "names the flag in a sentence",
	"sandsh run --check":     "names the flag in a sentence",
	"sandsh mcp --allow-run": "names the flag in a sentence",
	"sandsh mcp --http":      "names the flag in a sentence",
	"sandsh check":           "names the subcommand in a sentence",
}

// readmeStatus is the exit status a README command documents, where it
// is not 0.
var readmeStatus = map[string]int{
	"sandsh run":               64, // "without a script prints its usage line, status 64"
	"sandsh check --timeout 5": 64, // "a usage error, status 64"
}

// readmeGo is how a `go` command of the README runs here: from the
// repository, writing nothing into it.
var readmeGo = map[string]string{
	"go run . run scripts/demo.sh": "cd $REPO && go run . run scripts/demo.sh",
	"go build -o sandsh .":         "cd $REPO && go build -o $WORK/built/sandsh . && $WORK/built/sandsh --version && rm -r $WORK/built",
}

// synopsis matches a command line with placeholders: FILE, DIR, …, [flags].
var synopsis = regexp.MustCompile(`…|\[|\b[A-Z][A-Z0-9_.]*\b`)

// TestREADMECommands runs every command README.md shows — each line of
// its shell code blocks and each inline `sandsh …` span — so none can
// rot: each must exit 0 (or the status the README gives it) with the
// fixtures below in its directory. A synopsis (FILE, DIR, …, [flags])
// and the commands in readmeSkips are not run; the log lists each with
// its reason.
func TestREADMECommands(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	repo, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	var script strings.Builder
	seen := map[string]bool{}
	ran := 0
	for _, c := range readmeCommands(string(readme)) {
		if seen[c.text] {
			continue
		}
		seen[c.text] = true
		if why, ok := readmeSkips[c.text]; ok {
			t.Logf("README.md:%d: not run: %s: %s", c.line, c.text, why)
			continue
		}
		run := c.text
		if strings.HasPrefix(run, "go ") {
			var ok bool
			if run, ok = readmeGo[c.text]; !ok {
				t.Errorf("README.md:%d: %s: a go command without a way to run it here (readmeGo)", c.line, c.text)
				continue
			}
			if testing.Short() {
				t.Logf("README.md:%d: not run with -short: %s", c.line, c.text)
				continue
			}
		} else if synopsis.MatchString(run) {
			t.Logf("README.md:%d: not run: %s: a synopsis", c.line, c.text)
			continue
		}
		want := fmt.Sprint(readmeStatus[c.text])
		if c.inline && flagNamed(c.text) {
			want += "|flag" // "sandsh --state" in a sentence: the flag must exist
		}
		fmt.Fprintf(&script, "# README.md:%d\nexec bash run.sh %s %s\n", c.line, want, tsQuote(run))
		ran++
	}
	for _, m := range []map[string]string{readmeSkips, readmeGo} {
		for k := range m {
			if !seen[k] {
				t.Errorf("stale entry: README.md no longer shows %q", k)
			}
		}
	}
	for k := range readmeStatus {
		if !seen[k] {
			t.Errorf("stale entry: README.md no longer shows %q", k)
		}
	}
	if ran < 20 {
		t.Fatalf("only %d README commands found to run: is the extraction broken?", ran)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "readme.txtar"), []byte(script.String()+readmeFixtures), 0o644); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, scriptParams(dir, nil, func(env *testscript.Env) error {
		env.Setenv("REPO", repo)
		// The go commands need the caller's toolchain and caches.
		for _, k := range []string{"GOCACHE", "GOPATH", "GOMODCACHE", "GOFLAGS", "GOTOOLCHAIN", "GOPROXY"} {
			if v := os.Getenv(k); v != "" {
				env.Setenv(k, v)
			}
		}
		if os.Getenv("GOCACHE") == "" {
			if c, err := os.UserCacheDir(); err == nil {
				env.Setenv("GOCACHE", filepath.Join(c, "go-build"))
			}
		}
		if os.Getenv("GOPATH") == "" {
			if h, err := os.UserHomeDir(); err == nil {
				env.Setenv("GOPATH", filepath.Join(h, "go"))
			}
		}
		return nil
	}))
}

// readmeCommands finds the commands in a README: the lines of ```sh and
// ```bash blocks, the lines of untagged blocks that run sandsh, and the
// inline code spans that start with "sandsh ".
func readmeCommands(readme string) []readmeCmd {
	var out []readmeCmd
	fence := regexp.MustCompile("^\\s*```(\\w*)")
	span := regexp.MustCompile("`(sandsh [^`]*)`")
	runsSandsh := regexp.MustCompile(`^sandsh\b|\|\s*sandsh\b`)
	in, lang := false, ""
	for i, l := range strings.Split(readme, "\n") {
		if m := fence.FindStringSubmatch(l); m != nil {
			in, lang = !in, m[1]
			continue
		}
		if in {
			text := strings.TrimSpace(l)
			if k := strings.Index(text, "  #"); k >= 0 {
				text = strings.TrimSpace(text[:k]) // the comment column
			}
			switch {
			case text == "", strings.HasPrefix(text, "#"):
			case lang == "sh" || lang == "bash", lang == "" && runsSandsh.MatchString(text):
				out = append(out, readmeCmd{i + 1, text, false})
			}
			continue
		}
		for _, m := range span.FindAllStringSubmatch(l, -1) {
			out = append(out, readmeCmd{i + 1, m[1], true})
		}
	}
	return out
}

// flagNamed reports whether a command ends with a flag: in a sentence,
// "`sandsh --state` loads …" names the flag rather than giving a command
// line, so a missing argument is expected, but an unknown flag is not.
func flagNamed(cmd string) bool {
	f := strings.Fields(cmd)
	return len(f) > 1 && strings.HasPrefix(f[len(f)-1], "-")
}

// tsQuote quotes s as one testscript argument.
func tsQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// readmeFixtures are the files the README's commands name. run.sh runs
// one command line with bash and checks its exit status.
const readmeFixtures = `
-- run.sh --
# run.sh WANT CMD: WANT is a status, or STATUS|flag for a flag named in a
# sentence, which may also be missing its argument.
want=${1%|flag}
out=$(bash -c "$2" 2>&1 </dev/null)
st=$?
if [ "$1" != "$want" ] && [ "$st" -eq 64 ] && [[ $out == *"flag needs an argument"* ]]; then
	exit 0
fi
if [ "$st" -ne "$want" ]; then
	printf '%s\n' "$out"
	echo "exit status $st, want $want: $2" >&2
	exit 1
fi
-- build.sh --
echo "build $0: $*"
-- script.sh --
echo "script $0: $*"
-- ci.sh --
echo ci > result.txt
-- step.sh --
x=1
-- req.json --
{}
`
