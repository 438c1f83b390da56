package jail

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/sandsh/sandsh/internal/suite"
)

// TestJailSeccompProgram: the filter refuses every listed syscall and
// ends by allowing, and every jump lands inside the program.
func TestJailSeccompProgram(t *testing.T) {
	p, err := jailSeccompProgram()
	if err != nil {
		suite.Skip(t, "seccomp", "no seccomp program for this architecture: %v", err)
	}
	if len(p) > 4096 {
		t.Fatalf("%d instructions", len(p))
	}
	if last := p[len(p)-1]; last.Code != unix.BPF_RET|unix.BPF_K || last.K != unix.SECCOMP_RET_ALLOW {
		t.Errorf("last instruction %+v, want allow", last)
	}
	for i, in := range p {
		if in.Code&0x07 == unix.BPF_JMP && (i+1+int(in.Jt) >= len(p) || i+1+int(in.Jf) >= len(p)) {
			t.Errorf("instruction %d jumps out of the program", i)
		}
	}
	denied := map[uint32]bool{}
	for i := 0; i+1 < len(p); i++ {
		if p[i].Code == unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K && p[i+1].K == unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM) {
			denied[p[i].K] = true
		}
	}
	for _, nr := range []uint32{unix.SYS_MOUNT, unix.SYS_PTRACE, unix.SYS_UNSHARE, unix.SYS_SETNS, unix.SYS_BPF, unix.SYS_KEYCTL, unix.SYS_PIVOT_ROOT} {
		if !denied[nr] {
			t.Errorf("syscall %d is not refused", nr)
		}
	}
}
