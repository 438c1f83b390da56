package jail

import (
	"syscall"
	"testing"
	"time"
)

// TestKillMessage: a program a signal ended is reported with the
// signal's name and, when a limit sent it, which limit (it read "killed
// by killed").
func TestKillMessage(t *testing.T) {
	l := Limits{Timeout: 2 * time.Second, MaxFileSize: 1 << 20, MaxMemory: 256 << 20}
	for _, tc := range []struct {
		sig  syscall.Signal
		cpu  time.Duration
		oom  bool
		want string
	}{
		{syscall.SIGKILL, 0, true, "killed by SIGKILL (memory limit 256MiB)"},
		{syscall.SIGKILL, 3 * time.Second, false, "killed by SIGKILL (CPU time limit 3s)"},
		{syscall.SIGXCPU, 3 * time.Second, false, "killed by SIGXCPU (CPU time limit 3s)"},
		{syscall.SIGKILL, 100 * time.Millisecond, false, "killed by SIGKILL"},
		{syscall.SIGXFSZ, 0, false, "killed by SIGXFSZ (file size limit 1MiB)"},
		{syscall.SIGSEGV, 0, false, "killed by SIGSEGV"},
		{syscall.SIGSYS, 0, false, "killed by SIGSYS (a system call the jail refuses)"},
		{syscall.SIGPIPE, 0, false, ""},
		{syscall.SIGINT, 0, false, ""},
		{syscall.Signal(40), 0, false, "killed by signal 40"},
	} {
		if got := killMessage(tc.sig, tc.cpu, l, tc.oom); got != tc.want {
			t.Errorf("killMessage(%v, %v) = %q, want %q", tc.sig, tc.cpu, got, tc.want)
		}
	}
	if got := describe(syscall.WaitStatus(syscall.SIGKILL)); got != "killed by SIGKILL" {
		t.Errorf("describe = %q", got)
	}
	for n, want := range map[int64]string{1 << 20: "1MiB", 256 << 20: "256MiB", 1 << 30: "1GiB", 1500: "1500B", 4096: "4KiB"} {
		if got := sizeText(n); got != want {
			t.Errorf("sizeText(%d) = %q, want %q", n, got, want)
		}
	}
}
