package restrict

import (
	"fmt"
	"strings"
)

// ConfineSpec says what a worker may still reach once it has confined
// itself. It is derived from the run's options by the trusted parent
// side, never from the script.
type ConfineSpec struct {
	// Restricted is restricted mode: no host program may ever run. When
	// false (plain `--fs disk`), host programs run as the user and only
	// the resource limits that cannot hurt them are applied.
	Restricted bool
	// ReadOnly are host directories the filesystem reads (overlay --base).
	ReadOnly []string
	// ReadWrite are host directories the filesystem reads and writes
	// (disk --root).
	ReadWrite []string
	// WholeDisk grants the whole host filesystem except executing
	// (restricted plain disk: `--fs disk -r`).
	WholeDisk bool
	// MaxMemory sizes RLIMIT_AS (2*MaxMemory + 2GiB, room for the Go
	// runtime's address-space reservations); 0 leaves it unlimited.
	MaxMemory int64
	// MaxFileSize becomes RLIMIT_FSIZE (disk modes); 0 leaves it alone.
	MaxFileSize int64
}

// Report says what the worker's confinement enforces on this kernel.
type Report struct {
	// LandlockABI is the kernel's Landlock ABI version, 0 if Landlock is
	// unavailable.
	LandlockABI int
	// Landlock says what Landlock confines in this run ("" if nothing).
	Landlock string
	// Seccomp reports whether the seccomp filter is installed (or, from
	// Probe, can be).
	Seccomp bool
	// NoNewPrivs reports whether no_new_privs is set.
	NoNewPrivs bool
	// Rlimits lists the resource limits set, e.g. "AS=4GiB".
	Rlimits []string
	// Fallbacks has one line for each wall that is missing here.
	Fallbacks []string
}

// Lines renders the report for --verbose, one line per item.
func (r Report) Lines() []string {
	var out []string
	if r.Landlock != "" {
		out = append(out, fmt.Sprintf("landlock ABI %d: %s", r.LandlockABI, r.Landlock))
	}
	if r.Seccomp {
		out = append(out, "seccomp: execve, execveat and kernel-attack-surface syscalls fail with EPERM")
	}
	if r.NoNewPrivs {
		out = append(out, "no_new_privs: set")
	}
	if len(r.Rlimits) > 0 {
		out = append(out, "rlimits: "+strings.Join(r.Rlimits, " "))
	}
	for _, f := range r.Fallbacks {
		out = append(out, "fallback: "+f)
	}
	return out
}

// Enforcement describes, for `sandsh version`, what a restricted worker
// gets on this kernel.
func Enforcement() []string {
	p := Probe()
	ll := "unavailable (host paths are guarded by the vfs layer only)"
	if p.LandlockABI > 0 {
		ll = fmt.Sprintf("ABI %d", p.LandlockABI)
	}
	sc := "off (unavailable: exec is refused by the gateway only)"
	if p.Seccomp {
		sc = "on (execve/execveat -> EPERM)"
	}
	return []string{
		"containment: supervised worker process (memory, time, crash)",
		"landlock: " + ll,
		"seccomp: " + sc,
	}
}

func formatLimit(n uint64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	}
	return fmt.Sprint(n)
}
