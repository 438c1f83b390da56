//go:build walls

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The register of walls (scripts/walls.sh runs it: go test -tags walls
// -run TestWalls .). Each entry is a claim of SECURITY.md, a mutation
// that removes the wall behind it (exact text replaced in one file), and
// the tests that must then fail. TestWalls builds each mutant as a
// scratch copy of the mutated file, handed to `go test -overlay` so the
// working tree is never touched, and runs only the named tests, without
// the race detector (a race build sets no RLIMIT_AS). A mutant whose
// tests still pass is a wall no test holds; a mutation whose text is not
// found (the code moved or changed) is an error, never a pass: move the
// entry with the code.

// edit replaces find, which must occur exactly once in the file, by
// replace.
type edit struct{ find, replace string }

type wall struct {
	name  string // short, unique
	claim string // the SECURITY.md row it holds
	file  string
	edits []edit
	pkg   string // the package whose tests must fail
	tests string // go test -run pattern
}

var walls = []wall{
	{
		name:  "gateway-restricted-host",
		claim: "spawning a host program: the gateway's host-exec path refuses in restricted mode (defence in depth)",
		file:  "restrict/gateway.go",
		edits: []edit{{"\tif g.restricted {\n\t\treturn g.notFound(env, args[0])\n\t}\n\tcmd := exec.CommandContext", "\tcmd := exec.CommandContext"}},
		pkg:   "./restrict/", tests: "^TestRestrictedHostGuard$",
	},
	{
		name:  "seccomp",
		claim: "spawning a host program: seccomp makes execve/execveat fail with EPERM in the worker",
		file:  "restrict/confine_linux.go",
		edits: []edit{{"\tif err := confineSeccomp(&rep); err != nil {\n\t\treturn rep, err\n\t}\n", ""}},
		pkg:   "./restrict/", tests: "^(TestConfineSeccompOnly|TestConfineMem)$",
	},
	{
		name:  "landlock",
		claim: "reading or writing host files: Landlock in the worker",
		file:  "restrict/confine_linux.go",
		edits: []edit{{"\tif err := confineLandlock(spec, &rep); err != nil {\n\t\treturn rep, err\n\t}\n", ""}},
		pkg:   "./restrict/", tests: "^(TestConfineMem|TestConfineOverlay|TestConfineRoot)$",
	},
	{
		name:  "refusal-words",
		claim: "a refusal that reads like \"not installed\": every route prints the restricted-mode words",
		file:  "restrict/gateway.go",
		edits: []edit{{"\tcase g.restricted && strings.Contains(name, \"/\"):\n\t\treturn refuse(env, name, whyPathRestricted, StatusNotFound)\n\tcase g.restricted:\n\t\treturn refuse(env, name, whyNameRestricted, StatusNotFound)\n", ""}},
		pkg:   "./restrict/", tests: "^TestRefusalRoutes$",
	},
	{
		name:  "no-net-without-allowance",
		claim: "reaching the network without an allowance: curl and wget refuse when Env.Net is nil",
		file:  "builtins/net.go",
		edits: []edit{{"\tif env.Net == nil {\n\t\treturn nil, ErrNoNet(req.URL)\n\t}\n", ""}},
		pkg:   "./builtins/", tests: "^TestNoNetwork$",
	},
	{
		name:  "net-special-addresses",
		claim: "with --allow-net: SSRF to internal addresses, DNS rebinding (every resolved address checked at connect time)",
		file:  "netgate/netgate.go",
		edits: []edit{{"\tkind := Special(ip)\n", "\tkind := \"\"\n"}},
		pkg:   "./netgate/", tests: "^(TestGateRefuses|TestGateDNSRebinding)$",
	},
	{
		name:  "net-allow-list",
		claim: "with --allow-net: only the hosts, ports and path prefixes named",
		file:  "netgate/netgate.go",
		edits: []edit{{"\t\tif a.Allows(t.scheme, t.host, t.port, t.path) {", "\t\tif a.Allows(t.scheme, t.host, t.port, t.path) || true {"}},
		pkg:   "./netgate/", tests: "^TestGateRefuses$",
	},
	{
		name:  "net-redirects",
		claim: "with --allow-net: CheckRedirect re-checks every hop",
		file:  "netgate/netgate.go",
		edits: []edit{{"\t\t\tif ne := g.check(next.URL, next.Method, max(next.ContentLength, 0)); ne != nil {\n\t\t\t\tne.Msg = \"redirect to \" + ne.Msg\n\t\t\t\treturn ne\n\t\t\t}\n", ""}},
		pkg:   "./netgate/", tests: "^TestGateRefuses$",
	},
	{
		name:  "net-proxy",
		claim: "with --allow-net: the host's proxy variables (Transport.Proxy nil)",
		file:  "netgate/netgate.go",
		edits: []edit{{"Proxy:                  nil,", "Proxy:                  http.ProxyFromEnvironment,"}},
		pkg:   "./netgate/", tests: "^TestGateNeverProxies$",
	},
	{
		name:  "net-body-bound",
		claim: "with --allow-net: response bodies bounded by --max-net-bytes",
		file:  "netgate/netgate.go",
		edits: []edit{
			{"\tif g.cfg.MaxBytes > 0 && resp.ContentLength > g.cfg.MaxBytes {", "\tif false {"},
			{"\tif g.cfg.MaxBytes > 0 && int64(len(data)) > g.cfg.MaxBytes {", "\tif false {"},
		},
		pkg: "./netgate/", tests: "^TestGateRefuses$",
	},
	{
		name:  "net-request-count",
		claim: "with --allow-net: requests bounded by --max-net-requests",
		file:  "netgate/netgate.go",
		edits: []edit{{"\tif g.cfg.MaxRequests > 0 && n > g.cfg.MaxRequests {", "\tif g.cfg.MaxRequests > 0 && n > 1<<62 {"}},
		pkg:   "./netgate/", tests: "^TestGateLimits$",
	},
	{
		name:  "net-path-prefix",
		claim: "with --allow-net and a path prefix: dot segments and encodings cannot leave it",
		file:  "netgate/netgate.go",
		edits: []edit{{"\tif ne := cleanPath(u); ne != nil {\n\t\treturn ne\n\t}\n", ""}},
		pkg:   "./netgate/", tests: "^(TestPrefixDotSegments|TestCleanURLPath)$",
	},
	{
		name:  "net-broker-frames",
		claim: "a hostile worker abusing the network broker: every frame the parent reads is bounded",
		file:  "netgate/broker.go",
		edits: []edit{{"\t\tdata, err := readFrame(br, max)", "\t\tdata, err := readFrame(br, 1<<40)"}},
		pkg:   "./netgate/", tests: "^(TestBroker|TestBrokerFrameBound)$",
	},
	{
		name:  "memory-rss",
		claim: "memory: the parent kills a worker whose RSS passes --max-memory",
		file:  "restrict/supervise.go",
		edits: []edit{{"\t\t\t\t\tif rss > spec.MaxMemory {", "\t\t\t\t\tif false {"}},
		pkg:   "./restrict/", tests: "^TestWorkerMemory$",
	},
	{
		name:  "rlimit-as",
		claim: "memory: RLIMIT_AS bounds the worker's address space (what neither RSS nor the Go heap shows)",
		file:  "restrict/confine_linux.go",
		edits: []edit{{"setRlimit(\"AS\", unix.RLIMIT_AS, uint64(spec.MaxMemory)*2+2<<30)", "error(nil)"}},
		pkg:   "./restrict/", tests: "^TestConfineRlimits$",
	},
	{
		name:  "rlimit-nofile",
		claim: "descriptors: RLIMIT_NOFILE in the worker",
		file:  "restrict/confine_linux.go",
		edits: []edit{{"setRlimit(\"NOFILE\", unix.RLIMIT_NOFILE, 1024)", "error(nil)"}},
		pkg:   "./restrict/", tests: "^TestConfineRlimits$",
	},
	{
		name:  "rlimit-fsize",
		claim: "filling the filesystem: RLIMIT_FSIZE on --fs disk",
		file:  "restrict/confine_linux.go",
		edits: []edit{{"setRlimit(\"FSIZE\", unix.RLIMIT_FSIZE, uint64(spec.MaxFileSize))", "error(nil)"}},
		pkg:   "./restrict/", tests: "^TestConfineRlimits$",
	},
	{
		name:  "timeout-kill",
		claim: "time: the parent kills the worker at --timeout + grace",
		file:  "restrict/supervise.go",
		edits: []edit{{"time.AfterFunc(spec.Timeout+spec.Grace, func() { kill(DiedTimeout) })", "time.AfterFunc(100*spec.Timeout+spec.Grace, func() { kill(DiedTimeout) })"}},
		pkg:   "./restrict/", tests: "^TestWorkerTimeout$",
	},
	{
		name:  "output-flood",
		claim: "output flood: --max-output",
		file:  "interp/fd.go",
		edits: []edit{{"\t\tif total > l.max {", "\t\tif false {"}},
		pkg:   "./interp/", tests: "^TestLimits$/^output$",
	},
	{
		name:  "fs-max-files",
		claim: "filling the filesystem: --max-files in memory",
		file:  "vfs/mem.go",
		edits: []edit{{"\tif t.cfg.maxFiles > 0 && t.files >= t.cfg.maxFiles && !t.standard {", "\tif false {"}},
		pkg:   "./vfs/", tests: "^TestMemLimits$",
	},
	{
		name:  "fs-max-bytes",
		claim: "filling the filesystem: --max-fs-bytes in memory",
		file:  "vfs/mem.go",
		edits: []edit{{"\t\tif want-n.charged > free {", "\t\tif false {"}},
		pkg:   "./vfs/", tests: "^TestMemLimits$",
	},
	{
		name:  "root-hard-links",
		claim: "writing through a hard link in --root to an inode outside it (RootFS.unshare)",
		file:  "vfs/root.go",
		edits: []edit{{"\tif err != nil || !d.shared(fi) {\n\t\treturn nil // the operation itself reports a missing file\n\t}", "\tif true {\n\t\treturn nil\n\t}"}},
		pkg:   "./vfs/", tests: "^TestRootHardLinkOutside$",
	},
	{
		name:  "root-identity",
		claim: "host identity through --root: inodes are virtual numbers",
		file:  "vfs/root.go",
		edits: []edit{{"\t\tm.Ino = v\n", "\t\tm.Ino = ino + v - v\n"}},
		pkg:   "./vfs/", tests: "^TestRootIdentity$",
	},
	{
		name:  "policy-paths",
		claim: "a policy's paths: lists bypassed (vfs.RestrictPaths checks every resolved name)",
		file:  "vfs/paths.go",
		edits: []edit{{"\tif err := p.allow(op, name, r, read, write); err != nil {\n\t\treturn \"\", pathErr(op, name, err)\n\t}\n", ""}},
		pkg:   "./vfs/", tests: "^(TestRestrictPaths|TestRestrictPathsNames)$",
	},
	{
		name:  "state-snapshot-check",
		claim: "a forged --state file: every path, type, mode and owner is checked before anything loads (vfs.Snapshot.Check)",
		file:  "vfs/snapshot.go",
		edits: []edit{{"\tif e.UID < 0 || e.GID < 0 || e.UID > 1<<31-1 || e.GID > 1<<31-1 {", "\tif false {"}},
		pkg:   "./vfs/", tests: "^(TestSnapshotCheck|TestSnapshotLimits)$",
	},
	{
		name:  "state-lock",
		claim: "two runs on one --state file: an exclusive flock on FILE.lock from load to save",
		file:  "worker/statelock.go",
		edits: []edit{{"\t\tif err == nil {\n\t\t\treturn f, 0, nil\n\t\t}", "\t\tif true {\n\t\t\treturn f, 0, nil\n\t\t}"}},
		pkg:   ".", tests: "^TestScripts$/^session_state_lock$",
	},
	{
		name:  "session-state-lock",
		claim: "an interactive session beside a run on one --state file: the session holds FILE.lock until it is closed",
		file:  "worker/session.go",
		edits: []edit{{"\tif o.State != \"\" {\n\t\t// The session holds the state's lock", "\tif false {\n\t\t// The session holds the state's lock"}},
		pkg:   "./cmd/", tests: "^TestREPLStateLock$",
	},
	{
		name:  "ask-hold",
		claim: "a forged ask question: while the supervisor asks, every byte from the sandbox waits",
		file:  "worker/hold.go",
		edits: []edit{{"\t\th.mu.Lock()\n\t\tdefer h.mu.Unlock()\n\t\th.tty.Rearm()", "\t\th.tty.Rearm()"}},
		pkg:   "./cmd/", tests: "^TestREPLAskCannotBeForged$",
	},
	{
		name:  "export-git",
		claim: "an export that makes host git run commands: config, hooks and filter attributes are held back",
		file:  "worker/results.go",
		edits: []edit{{"\tif oc.Export != nil && !o.ExportUnsafeGit {", "\tif false {"}},
		pkg:   ".", tests: "^TestScripts$/^attack_export_git$",
	},
	{
		name:  "term-names",
		claim: "a name from the sandbox rewriting the terminal through sandsh's own messages: control characters escaped",
		file:  "restrict/gateway.go",
		edits: []edit{{"\ttermsafe.Fprintf(env.Stderr, \"%s: %s: %s\\n\", prefix, name, why)", "\tfmt.Fprintf(env.Stderr, \"%s: %s: %s\\n\", prefix, name, why)\n\t_ = termsafe.String"}},
		pkg:   ".", tests: "^TestScripts$/^attack_term_names$",
	},
	{
		name:  "overlay-state-base",
		claim: "an overlay --state applied over a base that changed: the base stamps are checked before anything loads",
		file:  "vfs/delta.go",
		edits: []edit{{"\t\tif got != want {", "\t\tif false {"}},
		pkg:   "./sandbox/", tests: "^TestOverlayStateInProportion$",
	},
	{
		name:  "command-panic",
		claim: "panics (a bug in sandsh): in-process commands recover, status 70, one line",
		file:  "restrict/gateway.go",
		edits: []edit{{"\t\tif v := recover(); v != nil {", "\t\tif v := recover(); false && v != nil {"}},
		pkg:   "./restrict/", tests: "^TestCommandPanic$",
	},
	{
		name:  "signal-forwarding",
		claim: "signals: the parent forwards SIGINT/SIGTERM/SIGHUP/SIGQUIT",
		file:  "restrict/supervise.go",
		edits: []edit{{"\t\t\t\tsignal.Notify(sigc, sig)\n", "\t\t\t\t_ = sig\n"}},
		pkg:   "./restrict/", tests: "^TestWorkerForwardsSignals$",
	},
	// The worker's side of the supervisor (worker/, moved out of cmd/).
	{
		name:  "worker-environment",
		claim: "reading the host environment: the worker's own process environment is two variables",
		file:  "worker/supervise.go",
		edits: []edit{{"Env:            []string{restrict.WorkerEnv + \"=1\", \"GOTRACEBACK=\" + traceback},", "Env:            append(os.Environ(), restrict.WorkerEnv+\"=1\", \"GOTRACEBACK=\"+traceback),"}},
		pkg:   "./cmd/", tests: "^TestWorkerEnviron$",
	},
	{
		name:  "memory-limit-reported-once",
		claim: "every runaway ends with one line on stderr: the memory limit is reported by the parent alone, once",
		file:  "worker/supervise.go",
		edits: []edit{{"\tcase res.Death == restrict.Exited && res.Status == ExitLimit && strings.Contains(res.CrashText, memoryLimitMark):", "\tcase false && strings.Contains(res.CrashText, memoryLimitMark):"}},
		pkg:   "./worker/", tests: "^TestMemoryLimitReportedOnce$",
	},
	{
		name:  "jail-exec-guard",
		claim: "a jailed program running other host programs: the parent refuses every exec that is not an allowed program",
		file:  "jail/exec_linux.go",
		edits: []edit{{"\t\tif g.decide(fd, &req) {", "\t\tif g.decide(fd, &req) || true {"}},
		pkg:   "./jail/", tests: "^TestBwrapJail$",
	},
	{
		name:  "jail-bounded-files",
		claim: "a jailed program filling kernel memory with empty files: every tmpfs of the jail has nr_inodes",
		file:  "jail/init_linux.go",
		edits: []edit{{"\t\to += fmt.Sprintf(\",nr_inodes=%d\", l.MaxFiles+64)\n", ""}},
		pkg:   "./jail/", tests: "^TestBoundedFiles$",
	},
	{
		name:  "jail-bwrap-version",
		claim: "a jail built by an old bubblewrap: one older than 0.12.0 is refused",
		file:  "jail/run_linux.go",
		edits: []edit{{"\tcase !anyVersion && versionLess(nums, minBwrap):", "\tcase false && versionLess(nums, minBwrap):"}},
		pkg:   "./jail/", tests: "^TestBwrapVersion$",
	},
	{
		name:  "jail-own-uid",
		claim: "another job breaking a root sandsh's jails by signalling their user: each jail has a uid of its own",
		file:  "jail/run_linux.go",
		edits: []edit{{"\tid := jailUIDBase + rand.IntN(jailUIDRange)", "\tid := 65534 + 0*rand.IntN(jailUIDRange)"}},
		pkg:   "./cmd/", tests: "^TestJailBesideANobodyKiller$",
	},
	{
		name:  "read-back-depth",
		claim: "a deep tree left by a jailed program blowing up the parent: the read-back refuses a path the sandbox cannot hold where it meets it",
		file:  "vfs/hosttree.go",
		edits: []edit{{"\t\tif len(p) >= maxPathLen {", "\t\tif false {"}},
		pkg:   "./vfs/", tests: "^TestReadHostTreeDeep$",
	},
	{
		name:  "arith-expanded-text",
		claim: "data run as code by arithmetic on text already expanded: [[ -v a[...] ]]'s subscript is read as a value",
		file:  "interp/test.go",
		edits: []edit{{"\t\t\ti, err = r.arithValue(context.Background(), idx)", "\t\t\ti, err = r.arithString(idx)"}},
		pkg:   "./interp/", tests: "^TestHostileCrashes$",
	},
}

// killedRe is how a mutant's test run shows the wall missing: a named
// test failed, or hung until go test's timeout, or the test binary died
// (of a runtime error, or of a signal the wall should have caught).
var killedRe = regexp.MustCompile(`(?m)^\s*--- FAIL: |^panic: test timed out|^fatal error: |^signal: `)

func TestWalls(t *testing.T) {
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	scratch := t.TempDir()
	seen := map[string]bool{}
	start := time.Now()
	// The named tests must pass unmutated, or every mutant would look
	// caught: one run per package, all of its entries' tests.
	byPkg := map[string][]string{}
	var pkgs []string
	for _, w := range walls {
		if seen[w.name] {
			t.Fatalf("%s: two entries with one name", w.name)
		}
		seen[w.name] = true
		if byPkg[w.pkg] == nil {
			pkgs = append(pkgs, w.pkg)
		}
		byPkg[w.pkg] = append(byPkg[w.pkg], "(?:"+w.tests+")")
	}
	for _, pkg := range pkgs {
		out, err := goTest(root, "", pkg, strings.Join(byPkg[pkg], "|"))
		if err != nil {
			t.Fatalf("%s: the register's tests fail without a mutation, so no mutant can be judged:\n%s", pkg, out)
		}
	}
	t.Logf("unmutated tests pass (%v)", time.Since(start).Round(time.Second))
	for i, w := range walls {
		t.Run(w.name, func(t *testing.T) {
			began := time.Now()
			path := filepath.Join(root, w.file)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("the mutation's target is gone: %v", err)
			}
			mut := string(src)
			for _, e := range w.edits {
				if n := strings.Count(mut, e.find); n != 1 {
					t.Fatalf("the mutation's target is gone (found %d times, want 1) in %s: %q\nmove this entry with the code", n, w.file, e.find)
				}
				mut = strings.Replace(mut, e.find, e.replace, 1)
			}
			file := filepath.Join(scratch, fmt.Sprintf("%d-%s", i, filepath.Base(w.file)))
			if err := os.WriteFile(file, []byte(mut), 0o644); err != nil {
				t.Fatal(err)
			}
			overlay, err := json.Marshal(map[string]map[string]string{"Replace": {path: file}})
			if err != nil {
				t.Fatal(err)
			}
			ov := filepath.Join(scratch, fmt.Sprintf("%d-overlay.json", i))
			if err := os.WriteFile(ov, overlay, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := goTest(root, ov, w.pkg, w.tests)
			switch {
			case bytes.Contains(out, []byte("[build failed]")) || bytes.Contains(out, []byte("[setup failed]")):
				t.Errorf("the mutant does not build; fix the mutation:\n%s", out)
			case err == nil || !killedRe.Match(out):
				t.Errorf("MUTANT SURVIVED: %s\nclaim: %s\nno test in %s %s failed with the wall removed from %s:\n%s", w.name, w.claim, w.pkg, w.tests, w.file, out)
			default:
				t.Logf("killed in %v: %s", time.Since(began).Round(time.Second), w.claim)
			}
		})
	}
	t.Logf("%d walls, %v in all", len(walls), time.Since(start).Round(time.Second))
}

// goTest runs the tests matching run in pkg, with the overlay file if
// any, without the race detector and capped in address space, so that a
// mutant missing a memory wall cannot take the machine with it.
func goTest(root, overlay, pkg, run string) ([]byte, error) {
	args := []string{"test", "-count=1", "-timeout", "120s", "-run", run}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	args = append(args, pkg)
	// 5 GiB: above the worker's own RLIMIT_AS (2 GiB and twice
	// --max-memory) and the 3 GiB that TestConfineRlimits reserves, far
	// below what a runaway mutant would take.
	cmd := exec.Command("bash", append([]string{"-c", `ulimit -v 5242880 && exec go "$@"`, "go"}, args...)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	return cmd.CombinedOutput()
}
