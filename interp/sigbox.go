package interp

import (
	"context"
	"math/bits"
	"sync/atomic"
	"syscall"
)

// signalBox is how a shell or job of the run receives the signals another
// one sends it (`sh -c "kill -USR1 $$"`, `kill -USR1 $!` on a job that
// traps USR1). bash takes a trapped signal once the command it is running
// ends, so the sender leaves it here and the receiving shell runs the
// trap at its next command boundary (takeSignals). The receiving shell
// publishes which signals it traps or ignores (publishTraps), so that a
// sender can apply the default action to a job at once, as the kernel
// would, without touching the shell's own trap table.
type signalBox struct {
	pending atomic.Uint64 // signals sent and not yet taken
	trapped atomic.Uint64 // signals the shell runs a command on
	ignored atomic.Uint64 // signals the shell ignores (trap '', or ignored when it started)
	wake    chan struct{} // a token for a `wait` in progress: it returns at once
}

func newSignalBox() *signalBox { return &signalBox{wake: make(chan struct{}, 1)} }

// sigBit is signal n's bit in a box's sets; 0 for a number no set holds.
func sigBit(n int) uint64 {
	if n < 1 || n > 64 {
		return 0
	}
	return 1 << (n - 1)
}

// post leaves sig for the shell and wakes a `wait` it is in.
func (b *signalBox) post(sig int) {
	b.pending.Or(sigBit(sig))
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// take removes and returns the lowest pending signal, or 0.
func (b *signalBox) take() int {
	for {
		old := b.pending.Load()
		if old == 0 {
			return 0
		}
		low := old & -old
		if b.pending.CompareAndSwap(old, old&^low) {
			return bits.TrailingZeros64(low) + 1
		}
	}
}

// trappedPending is the lowest pending signal the shell has a trap for:
// one that interrupts `wait`.
func (b *signalBox) trappedPending() int {
	if p := b.pending.Load() & b.trapped.Load(); p != 0 {
		return bits.TrailingZeros64(p) + 1
	}
	return 0
}

// publishTraps tells senders which signals this shell traps and ignores.
func (r *Runner) publishTraps() {
	if r.sigs == nil {
		return
	}
	var trapped uint64
	for key, cmd := range r.traps {
		if n, ok := signalNumber(key); ok && n > 0 && cmd != "" {
			trapped |= sigBit(n)
		}
	}
	ignored := r.ignoredSignals()
	r.sigs.trapped.Store(trapped &^ ignored)
	r.sigs.ignored.Store(ignored)
}

// ignoredSignals are the signals this shell ignores (a trap with an empty
// command) or ignored when it started.
// A program it runs starts with them ignored.
func (r *Runner) ignoredSignals() uint64 {
	ignored := r.ignoredOnEntry
	for key, cmd := range r.traps {
		if n, ok := signalNumber(key); ok && n > 0 && cmd == "" {
			ignored |= sigBit(n)
		}
	}
	return ignored
}

// ignoreOnEntry makes the signals in set ignored for good, as in a shell
// started with them ignored: bash neither traps nor resets them there,
// and lists them as trap -- ”.
func (r *Runner) ignoreOnEntry(set uint64) {
	r.ignoredOnEntry = set
	for n := 1; n <= 64; n++ {
		if set&sigBit(n) != 0 {
			r.traps[signalName(n)] = ""
		}
	}
	r.publishTraps()
}

// takeSignals acts on the signals other processes sent this shell: each
// runs its trap, or ends the shell as its default action would.
func (r *Runner) takeSignals(ctx context.Context) {
	for !r.exiting {
		sig := r.sigs.take()
		if sig == 0 {
			return
		}
		if r.ignoredOnEntry&sigBit(sig) != 0 {
			continue
		}
		r.deliverSignal(ctx, sig)
	}
}

// signalPID sends sig to the virtual process pid as kill(2) would: this
// shell acts on it at once, another shell or job of the run through its
// signal box. It fails with ESRCH when no such process runs.
func (r *Runner) signalPID(ctx context.Context, pid, sig int) error {
	if pid == r.pid {
		r.deliverSignal(ctx, sig)
		return nil
	}
	p := r.s.procs.get(pid)
	if p == nil || p.job != nil && p.job.finished() {
		return syscall.ESRCH
	}
	p.signal(sig)
	return nil
}

// signal delivers sig to the process: dropped if it ignores it, left in
// its box if it traps it (a shell that is not a job also takes its default
// action there, at its next command), else the job's default action now.
func (p *procEntry) signal(sig int) {
	if sig == 0 {
		return
	}
	if b := p.sigs; b != nil {
		bit := sigBit(sig)
		switch {
		case b.ignored.Load()&bit != 0:
			return
		case b.trapped.Load()&bit != 0 || p.job == nil:
			b.post(sig)
			return
		}
	}
	if p.job != nil {
		p.job.kill(sig)
	}
}
