package jail

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
)

// TestJailCgroup: where this process may make cgroup v2 groups with the
// memory, pids and cpu controllers, each jail runs in one of its own,
// with the run's limits, removed afterwards. Elsewhere (cgroup v1 or
// hybrid, as on this project's machines) the run's --verbose names the
// missing limits instead (testdata/jail/jail_audit.txtar).
func TestJailCgroup(t *testing.T) {
	parent, err := cgroupParent()
	if err != nil {
		suite.Skip(t, "cgroup2", "no cgroup v2 group to make the jails' in: %v", err)
	}
	l := Limits{MaxMemory: 512 << 20, MaxProcs: 64}
	cg, err := newJailCgroup(parent, l)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range l.cgroupSettings() {
		if b, err := os.ReadFile(filepath.Join(cg.dir, s[0])); err != nil || !strings.HasPrefix(strings.TrimSpace(string(b)), s[1]) {
			t.Errorf("%s = %q %v, want %s", s[0], b, err, s[1])
		}
	}
	cg.remove()
	if _, err := os.Stat(cg.dir); err == nil {
		t.Errorf("%s left behind", cg.dir)
	}
	for _, b := range testBackends(t) {
		out, status := runIn(t, b, Limits{MaxFiles: 1000, MaxProcs: 64, MaxMemory: 512 << 20}, `print(open("/proc/self/cgroup").read().strip().rsplit("/", 1)[-1][:12])`)
		if status != 0 || out != "sandsh-jail-\n" {
			t.Errorf("%s: the program is not in a jail cgroup: status %d, %q", b, status, out)
		}
	}
	ents, _ := os.ReadDir(parent)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "sandsh-jail-") {
			t.Errorf("a jail's cgroup was left behind: %s", e.Name())
		}
	}
}

// TestDescribeCgroup: without a cgroup the note names each limit that
// is missing.
func TestDescribeCgroup(t *testing.T) {
	got := describeCgroup(nil, os.ErrNotExist, Limits{MaxProcs: 256}, false)
	for _, want := range []string{"not used (file does not exist)", "memory of the jail as a whole", "its processes as a whole (only RLIMIT_NPROC counts every process of the jail's user)", "its CPU bandwidth"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
}
