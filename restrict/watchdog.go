package restrict

import (
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// HeapWatchdog runs inside the worker and bounds what can be bounded
// cheaply from within: it asks the garbage collector to stay under the
// run's memory limit and ends the run with a precise limit error as soon
// as the live heap nears it, before the supervisor has to kill the
// worker. It also ends the worker if the supervisor is gone.
type HeapWatchdog struct {
	stop     chan struct{}
	once     sync.Once
	interval time.Duration
	rearm    atomic.Bool
	pause    Pause
}

// StartHeapWatchdog watches the heap every interval (20ms if 0). When
// live heap objects pass 80% of limit it calls fail once (which should
// cancel the run with the max-memory error); if the process is still
// alive grace later it calls exit(false); if the supervisor is gone it
// calls exit(true).
func StartHeapWatchdog(limit int64, interval, grace time.Duration, fail func(), exit func(orphaned bool)) *HeapWatchdog {
	if interval <= 0 {
		interval = 20 * time.Millisecond
	}
	w := &HeapWatchdog{stop: make(chan struct{}), interval: interval}
	if limit > 0 {
		// The GC works harder as the heap nears 9/10 of the limit, so
		// garbage rarely counts against the script.
		debug.SetMemoryLimit(limit / 10 * 9)
		// The sandbox's files live in the Go heap, so the default GOGC=100
		// would let a run's peak reach twice its live data; half that
		// keeps peaks near the data size for a small CPU cost.
		debug.SetGCPercent(50)
		// A Go stack overflow must come well before the memory limit,
		// so that it is reported as what it is.
		// (1/8 of the limit: 128MiB for the default 1GiB; the default
		// --max-call-depth 1000 needs a few MiB.)
		stack := limit / 8
		stack = max(stack, 8<<20)
		stack = min(stack, 256<<20)
		debug.SetMaxStack(int(stack))
	}
	ppid := syscall.Getppid()
	go w.run(limit, ppid, grace, fail, exit)
	return w
}

// Rearm forgets an earlier failure, so that the next time the heap
// passes the limit fail is called again, and exit is not called for the
// earlier one: for a long-lived worker whose failed unit of work (an
// interactive line) has ended.
func (w *HeapWatchdog) Rearm() { w.rearm.Store(true) }

// Pause holds the watchdog while the worker waits with nothing running
// (its heap cannot grow); Resume starts it again. An orphaned worker
// still ends: the pipe it waits on closes with its supervisor.
func (w *HeapWatchdog) Pause() { w.pause.Pause() }

// Resume ends a Pause.
func (w *HeapWatchdog) Resume() { w.pause.Resume() }

// Stop ends the watchdog.
func (w *HeapWatchdog) Stop() { w.once.Do(func() { close(w.stop) }) }

func (w *HeapWatchdog) run(limit int64, ppid int, grace time.Duration, fail func(), exit func(orphaned bool)) {
	// Live bytes as of the last GC (which runs ever more often as the
	// heap nears the memory limit set above), and all heap objects,
	// garbage included. Reading them does not stop the world; forcing a
	// GC here would, and can take seconds while the script allocates.
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	threshold := uint64(limit) / 10 * 8
	t := time.NewTicker(w.interval)
	defer t.Stop()
	var failedAt time.Time
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
		if !w.pause.hold(t, w.interval, w.stop) {
			return
		}
		if syscall.Getppid() != ppid {
			exit(true) // orphaned: the supervisor is gone
			return
		}
		if w.rearm.Swap(false) {
			failedAt = time.Time{}
		}
		if !failedAt.IsZero() {
			if time.Since(failedAt) > grace {
				exit(false)
				return
			}
			continue
		}
		if limit <= 0 {
			continue
		}
		metrics.Read(samples)
		if samples[0].Value.Uint64() >= threshold || samples[1].Value.Uint64() >= uint64(limit) {
			failedAt = time.Now()
			fail()
		}
	}
}
