// Package conformance holds the bash-conformance ratchet: it runs the Oils
// spec corpus (../shared/conformance, outside the repository) on sandsh
// and compares each case's result with expected-failures.txt, the cases
// still known to fail, each with a one-line reason.
//
// The test fails when a case outside the list fails (a regression) and
// when a listed case passes (the list must shrink with the fix). Cases
// whose reason starts with "flaky:" are not held either way. Without the
// corpus (a fresh clone outside CI) the test skips.
//
//	go test ./conformance/ -run Ratchet -v            # check
//	go test ./conformance/ -run Ratchet -update       # rewrite the list, keeping reasons
package conformance

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
)

var update = flag.Bool("update", false, "rewrite expected-failures.txt from this run")

const listFile = "expected-failures.txt"

type harnessResult struct {
	// noPython2: scripts/conformance.sh found no python2 to give the
	// cases that call it (its line "python2: none").
	noPython2 bool
	Totals    json.RawMessage `json:"totals"`
	Files     []struct {
		Name  string `json:"name"`
		Cases []struct {
			Index  int    `json:"index"`
			Desc   string `json:"desc"`
			Result string `json:"result"`
		} `json:"cases"`
	} `json:"files"`
}

// caseKey names one case as "file#index", the index within its spec file.
func caseKey(file string, index int) string { return fmt.Sprintf("%s#%d", file, index) }

type listed struct {
	reason string
	flaky  bool
}

func readList(t *testing.T) (map[string]listed, []string) {
	t.Helper()
	f, err := os.Open(listFile)
	if err != nil {
		t.Fatalf("reading %s: %v", listFile, err)
	}
	defer f.Close()
	m := map[string]listed{}
	var header []string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			if len(m) == 0 {
				header = append(header, line)
			}
			continue
		}
		key, reason, ok := strings.Cut(line, " ")
		reason = strings.TrimSpace(reason)
		if !ok || reason == "" || !strings.Contains(key, "#") {
			t.Fatalf("%s:%d: want \"file#index reason\", got %q", listFile, n, line)
		}
		if _, dup := m[key]; dup {
			t.Fatalf("%s:%d: %s listed twice", listFile, n, key)
		}
		m[key] = listed{reason: reason, flaky: strings.HasPrefix(reason, "flaky:")}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return m, header
}

// runCorpus runs scripts/conformance.sh in mode (host or sandbox) on the
// named spec files (all of SUBSET.txt when none) and returns each case's
// result.
func runCorpus(t *testing.T, mode, dir string, jobs int, names ...string) (map[string]bool, map[string]string, *harnessResult) {
	t.Helper()
	suite.DefaultSignals(t) // bash and sandsh both see the signals a case sets, not the caller's
	out := filepath.Join(dir, fmt.Sprintf("result-%d.json", len(names)))
	args := append([]string{"../scripts/conformance.sh", mode, "--brief-json", "--json", out}, names...)
	cmd := exec.Command("bash", args...)
	cmd.Env = append(os.Environ(), fmt.Sprintf("JOBS=%d", jobs), "CONFORMANCE_SANDBOX=")
	log, err := cmd.CombinedOutput()
	if err != nil {
		// The harness exits non-zero when cases fail; only a missing
		// result file means the run itself broke.
		if _, statErr := os.Stat(out); statErr != nil {
			t.Fatalf("conformance run failed: %v\n%s", err, log)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res harnessResult
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatalf("parsing harness output: %v", err)
	}
	res.noPython2 = strings.Contains(string(log), "python2: none\n")
	pass := map[string]bool{}
	desc := map[string]string{}
	for _, f := range res.Files {
		for _, c := range f.Cases {
			k := caseKey(f.Name, c.Index)
			pass[k] = c.Result == "pass"
			desc[k] = c.Desc
		}
	}
	if len(pass) == 0 {
		t.Fatalf("conformance run produced no cases:\n%s", log)
	}
	return pass, desc, &res
}

// corpusRun skips without the corpus or python3 (or under -short), and
// gives the corpus's directory and a scratch directory for the results.
func corpusRun(t *testing.T) (corpus, dir string) {
	t.Helper()
	corpus = filepath.Join("..", "..", "shared", "conformance")
	if v := os.Getenv("CONFORMANCE_DIR"); v != "" {
		corpus = v
	}
	if _, err := os.Stat(filepath.Join(corpus, "oils", "spec")); err != nil {
		suite.Skip(t, "../shared", "the conformance corpus is not at %s (it lives in ../shared beside the repository)", corpus)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		suite.Skip(t, "python3", "the corpus harness needs it")
	}
	if testing.Short() {
		suite.Skip(t, "a run without -short", "-short skips the conformance corpus")
	}
	dir, err := os.MkdirTemp("", "sandsh-ratchet-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// The harness may run as an unprivileged user (see the script).
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return corpus, dir
}

// TestSandboxMode: scripts/conformance.sh sandbox gives each case what a
// user gives a script that needs its files (the case's directory and
// $REPO_ROOT imported at their host paths, the corpus's bin/ on PATH,
// the code on standard input, as bash's baseline had it), so cases that
// source the corpus's test files, glob in $REPO_ROOT, run a program of
// its bin/ or print $- pass in the default sandbox as on the host (each
// failed with the empty sandbox the mode gave before).
func TestSandboxMode(t *testing.T) {
	_, dir := corpusRun(t)
	pass, desc, _ := runCorpus(t, "sandbox", dir, 2, "assign", "builtin-eval-source", "glob", "sh-options", "temp-binding")
	for _, k := range []string{"assign#8", "builtin-eval-source#11", "builtin-eval-source#12", "glob#3", "glob#7", "sh-options#1", "temp-binding#0"} {
		if !pass[k] {
			t.Errorf("sandbox mode: %s (%s) fails; see: bash scripts/conformance.sh sandbox --show-failures %s",
				k, desc[k], strings.SplitN(k, "#", 2)[0])
		}
	}
}

func TestRatchet(t *testing.T) {
	corpus, dir := corpusRun(t)

	pass, desc, res := runCorpus(t, "host", dir, 2)
	t.Logf("totals: %s", res.Totals)
	// Cases that call python2 can only pass where the harness finds one
	// (scripts/conformance.sh makes root's pyenv one reachable); on a host
	// without it they are held neither way, as bash fails them there too.
	unheld := map[string]bool{}
	if res.noPython2 {
		unheld = needsPython2(t, filepath.Join(corpus, "oils", "spec"))
		t.Logf("no python2 on this host: %d cases that call it are not held", len(unheld))
	}

	if *update {
		writeList(t, pass, desc)
		return
	}

	list, _ := readList(t)
	var regressed []string
	for k, ok := range pass {
		if !ok && !unheld[k] {
			if _, known := list[k]; !known {
				regressed = append(regressed, k)
			}
		}
	}
	// A case can fail once from load (its per-case timeout): run the
	// files of unexpected failures again alone before calling it.
	if len(regressed) > 0 {
		files := map[string]bool{}
		for _, k := range regressed {
			files[strings.SplitN(k, "#", 2)[0]] = true
		}
		var names []string
		for f := range files {
			names = append(names, f)
		}
		sort.Strings(names)
		again, _, _ := runCorpus(t, "host", dir, 1, names...)
		var still []string
		for _, k := range regressed {
			if !again[k] {
				still = append(still, k)
			}
		}
		regressed = still
	}
	sort.Strings(regressed)
	for _, k := range regressed {
		t.Errorf("regression: %s (%s) fails and is not in %s; see: bash scripts/conformance.sh host --show-failures %s",
			k, desc[k], listFile, strings.SplitN(k, "#", 2)[0])
	}

	var fixed []string
	for k, l := range list {
		ok, ran := pass[k]
		if !ran {
			t.Errorf("%s lists %s, which is not in the corpus", listFile, k)
			continue
		}
		if ok && !l.flaky && !unheld[k] {
			fixed = append(fixed, k)
		}
	}
	sort.Strings(fixed)
	for _, k := range fixed {
		t.Errorf("%s now passes: remove it from %s (go test ./conformance/ -run Ratchet -update)", k, listFile)
	}
}

// writeList rewrites the list from a run: every failing case, keeping the
// reasons already written, "known gap: <case description>" for new ones.
func writeList(t *testing.T, pass map[string]bool, desc map[string]string) {
	t.Helper()
	old, header := map[string]listed{}, []string(nil)
	if _, err := os.Stat(listFile); err == nil {
		old, header = readList(t)
	}
	if len(header) == 0 {
		header = []string{
			"# Oils spec cases sandsh still fails in host mode (scripts/conformance.sh host),",
			"# one per line: file#index (the case's index in its spec file), then why.",
			"# \"deliberate:\" points at the README's list of deliberate differences;",
			"# \"known gap:\" is a bug still to fix; \"not a difference:\" bash 5.2 fails the",
			"# case too; \"flaky:\" is not held either way.",
			"",
		}
	}
	var keys []string
	for k, ok := range pass {
		if !ok || old[k].flaky {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		fi, ii, _ := strings.Cut(keys[i], "#")
		fj, ij, _ := strings.Cut(keys[j], "#")
		if fi != fj {
			return fi < fj
		}
		var a, b int
		fmt.Sscan(ii, &a)
		fmt.Sscan(ij, &b)
		return a < b
	})
	var sb strings.Builder
	for _, h := range header {
		sb.WriteString(h + "\n")
	}
	for _, k := range keys {
		reason := old[k].reason
		if reason == "" {
			reason = "known gap: " + strings.Join(strings.Fields(desc[k]), " ")
		}
		sb.WriteString(k + " " + reason + "\n")
	}
	if err := os.WriteFile(listFile, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %d cases", listFile, len(keys))
}

// needsPython2 lists the cases ("file#index") that run python2: they call
// it, or run one of the corpus's python2 helpers by path (spec/bin/*.py,
// whose #! names python2), directly or from a spec/testdata script.
func needsPython2(t *testing.T, specDir string) map[string]bool {
	t.Helper()
	uses := func(text string) bool {
		return strings.Contains(text, "python2") || strings.Contains(text, "spec/bin/")
	}
	var helpers []string // spec/testdata scripts that run python2
	scripts, _ := filepath.Glob(filepath.Join(specDir, "testdata", "*"))
	for _, f := range scripts {
		if data, err := os.ReadFile(f); err == nil && uses(string(data)) {
			helpers = append(helpers, "spec/testdata/"+filepath.Base(f))
		}
	}
	files, err := filepath.Glob(filepath.Join(specDir, "*.test.sh"))
	if err != nil {
		t.Fatal(err)
	}
	need := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".test.sh")
		index := -1
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "#### ") {
				index++
				continue
			}
			if index < 0 {
				continue
			}
			hit := uses(line)
			for _, h := range helpers {
				hit = hit || strings.Contains(line, h)
			}
			if hit {
				need[caseKey(name, index)] = true
			}
		}
	}
	return need
}
