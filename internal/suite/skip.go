package suite

import (
	"fmt"
	"os"
	"testing"
)

// Allowed are the skips a CI run may take: what a CI machine can lack
// without a wall or an oracle going untested. Every other need is
// required in CI (see Skip); README "Tests" lists these.
var Allowed = map[string]string{
	"linux":      "the worker's walls (Landlock, seccomp, rlimits, namespaces) exist only on Linux; SECURITY.md promises none elsewhere, so there is nothing to test",
	"symlinks":   "a host filesystem without symlinks cannot hold a differential test's fixture; sandsh's own symlinks are tested on its in-memory filesystem regardless",
	"hardlinks":  "a host filesystem without hard links cannot hold the --root test's fixture; the in-memory filesystem's links are tested regardless",
	"cgroup2":    "per-jail cgroup v2 limits need a cgroup v2 group with the memory, pids and cpu controllers delegated; on a cgroup v1 or hybrid host the jail keeps its rlimits and --verbose names the missing limits (testdata/jail/jail_audit.txtar)",
	"bwrap-0.12": "the bwrap jail backend refuses a bubblewrap older than 0.12.0 and Debian 12 ships 0.8.0; the backend's jail is still built and attacked on the installed bubblewrap by package jail's own tests (TestBwrapJail, TestBoundedFiles), and its version check by fakes (TestBwrapVersion, TestJailOldBwrap)",
}

// InCI reports whether the tests run in CI (CI=true, as GitHub Actions,
// GitLab CI and .ci/run set it).
func InCI() bool {
	return os.Getenv("CI") == "true"
}

// Required reports whether a missing need fails the test rather than
// skips it: in CI, unless Allowed lists it.
func Required(need string) bool {
	return InCI() && Allowed[need] == ""
}

// Skip skips the test because need (a host tool, a kernel feature, the
// corpus beside the repository) is missing. In CI, unless need is in
// Allowed, the test fails instead, naming what is missing: a CI run
// never goes green on a wall or an oracle it did not test.
func Skip(t testing.TB, need, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if Required(need) {
		t.Fatalf("CI=true and %s is missing, so this test cannot run: %s (a CI run may skip only what internal/suite.Allowed lists)", need, msg)
		return
	}
	t.Skipf("%s is missing: %s", need, msg)
}

// Missing reports that one part of a test cannot run (a second jail
// backend) while the rest does: a log line, or in CI an error, under the
// same rule as Skip.
func Missing(t testing.TB, need, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if Required(need) {
		t.Errorf("CI=true and %s is missing, so part of this test cannot run: %s (a CI run may skip only what internal/suite.Allowed lists)", need, msg)
		return
	}
	t.Logf("%s is missing, that part not run: %s", need, msg)
}

// MissingBwrap is Missing for the bwrap jail backend: need "bwrap" when
// no bubblewrap is installed, "bwrap-0.12" when the one installed is
// older than the backend accepts.
func MissingBwrap(t testing.TB, tooOld bool, format string, args ...any) {
	t.Helper()
	need := "bwrap"
	if tooOld {
		need = "bwrap-0.12"
	}
	Missing(t, need, format, args...)
}
