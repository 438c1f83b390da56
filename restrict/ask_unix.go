//go:build unix

package restrict

import (
	"os/exec"
	"syscall"
)

// setAskGroup puts the ask command in its own process group and kills
// the whole group when its context ends.
func setAskGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
