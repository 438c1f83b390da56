package restrict

// The supervisor: the parent side of sandsh's worker process.
//
// Some failures cannot be stopped inside the process that suffers them:
// a Go stack overflow is fatal, one expansion step can allocate gigabytes
// between two checks, a panic in a goroutine nobody recovered kills the
// process. So the script runs in a worker (sandsh re-executing itself),
// and the parent watches it from outside: wall time, resident memory,
// signals, and how it died.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The worker protocol: the marker variable in the worker's (otherwise
// minimal) environment, and the descriptors it inherits besides stdin.
// The worker's own fds 1 and 2 are a pipe to the supervisor: only the Go
// runtime writes there (fatal errors, unrecovered panics).
const (
	WorkerEnv       = "SANDSH_WORKER"
	WorkerStdoutFD  = 3 // the real standard output
	WorkerStderrFD  = 4 // the real standard error
	WorkerPayloadFD = 5 // the serialized run, read to EOF
	WorkerExtraFD   = 6 // the first of WorkerSpec.Extra
)

// Death says how a worker ended.
type Death int

const (
	// Exited: the worker ended on its own; Status is its exit status and
	// it has reported any error itself.
	Exited Death = iota
	// DiedMemory: killed above MaxMemory, or the Go runtime ran out of
	// memory (RLIMIT_AS).
	DiedMemory
	// DiedTimeout: killed at Timeout plus the grace period.
	DiedTimeout
	// DiedStack: a Go stack overflow (fatal in Go, cannot be recovered).
	DiedStack
	// DiedSignal: ended by a signal sent to sandsh and forwarded (Signal).
	DiedSignal
	// DiedCrash: any other crash; Detail has one line about it.
	DiedCrash
)

// WorkerSpec describes one supervised run.
type WorkerSpec struct {
	// Exe is the executable to start when /proc/self/exe is unavailable.
	Exe string
	// Arg0 is the worker's argv[0].
	Arg0 string
	// Env is the worker's whole environment (nothing is inherited); it
	// should hold WorkerEnv=1.
	Env []string
	// Payload is written to the worker's WorkerPayloadFD.
	Payload []byte
	// Stdin is inherited (an *os.File is passed as is).
	Stdin io.Reader
	// Stdout and Stderr become the worker's WorkerStdoutFD and
	// WorkerStderrFD; *os.File values are passed as is, so script output
	// streams without copying.
	Stdout, Stderr io.Writer
	// Timeout is the run's wall-time limit; the worker enforces it itself
	// and is killed at Timeout+Grace if it did not. 0 means none.
	Timeout time.Duration
	// Grace is how long after Timeout the worker is killed (default 1s).
	Grace time.Duration
	// MaxMemory kills the worker when its resident memory exceeds it.
	// 0 means no limit.
	MaxMemory int64
	// PollInterval is how often the worker's memory is read (default 20ms).
	PollInterval time.Duration
	// Poll, when set, holds the memory poll while the caller says the
	// worker is idle (nothing runs in it, so its memory cannot grow).
	Poll *Pause
	// ForwardSignals forwards SIGINT, SIGTERM, SIGHUP and SIGQUIT to the
	// worker (and keeps the Go runtime from dumping the supervisor's
	// goroutines on SIGQUIT).
	ForwardSignals bool
	// Extra files become the worker's descriptors WorkerExtraFD, +1, ...
	// (the interactive shell's control pipes).
	Extra []*os.File
	// Started, if set, is called with the worker's process once it runs,
	// so the caller can signal or kill it (a kill by the caller is
	// reported as DiedCrash, "killed").
	Started func(*os.Process)
}

// WorkerResult is how a worker ended.
type WorkerResult struct {
	Death  Death
	Status int            // exit status when Death is Exited
	Signal syscall.Signal // the signal when Death is DiedSignal
	// Detail is one line about a crash, from the Go runtime's report.
	Detail string
	// CrashText is the start (at most 64 KiB) of what the worker's
	// runtime wrote on its fds 1 and 2, for debugging.
	CrashText string
	// PeakRSS is the largest resident size seen, in bytes.
	PeakRSS int64
}

const crashTextMax = 64 << 10

// boundedBuffer keeps the first crashTextMax bytes written to it.
type boundedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := crashTextMax - b.buf.Len(); room > 0 {
		if len(p) < room {
			room = len(p)
		}
		b.buf.Write(p[:room])
	}
	return len(p), nil
}

func (b *boundedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// outFile returns an *os.File for w: w itself, or the write end of a pipe
// copied to w (for writers that are not files, as in tests). wait, called
// after the worker has exited, waits (briefly) for the copy to drain.
func outFile(w io.Writer) (f *os.File, afterStart func(), wait func(), err error) {
	if w == nil {
		w = io.Discard
	}
	if f, ok := w.(*os.File); ok {
		return f, func() {}, func() {}, nil
	}
	r, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	done := make(chan struct{})
	go func() {
		io.Copy(w, r)
		r.Close()
		close(done)
	}()
	return pw, func() { pw.Close() }, func() {
		select {
		case <-done:
		case <-time.After(2 * time.Second): // a host program still holds it
		}
	}, nil
}

// RunWorker starts the worker, supervises it until it ends and says how
// it ended. The error is non-nil only when the worker could not start.
func RunWorker(spec WorkerSpec) (WorkerResult, error) {
	var res WorkerResult
	exe := "/proc/self/exe"
	if _, err := os.Stat(exe); err != nil {
		if spec.Exe == "" {
			return res, errors.New("cannot find the sandsh executable to start the worker")
		}
		exe = spec.Exe
	}
	if spec.Grace <= 0 {
		spec.Grace = time.Second
	}
	if spec.PollInterval <= 0 {
		spec.PollInterval = 20 * time.Millisecond
	}
	stdout, outStarted, outWait, err := outFile(spec.Stdout)
	if err != nil {
		return res, err
	}
	stderr, errStarted, errWait, err := outFile(spec.Stderr)
	if err != nil {
		return res, err
	}
	payR, payW, err := os.Pipe()
	if err != nil {
		return res, err
	}
	crashR, crashW, err := os.Pipe()
	if err != nil {
		payR.Close()
		payW.Close()
		return res, err
	}
	env := spec.Env
	if env == nil {
		env = []string{} // never inherit the host environment
	}
	cmd := &exec.Cmd{
		Path:       exe,
		Args:       []string{spec.Arg0},
		Env:        env,
		Stdin:      spec.Stdin,
		Stdout:     crashW,
		Stderr:     crashW,
		ExtraFiles: append([]*os.File{stdout, stderr, payR}, spec.Extra...),
		// The worker dies with sandsh, even if sandsh is killed.
		SysProcAttr: workerSysProcAttr(),
		// A stdin that is not a file is copied by a goroutine that
		// may block; do not wait for it once the worker is gone.
		WaitDelay: 200 * time.Millisecond,
	}
	if cmd.Args[0] == "" {
		cmd.Args[0] = "sandsh"
	}

	var sigc chan os.Signal
	if spec.ForwardSignals {
		sigc = make(chan os.Signal, 4)
		// A signal the caller ignores (nohup's SIGHUP, a background
		// job's SIGINT) is neither caught nor forwarded: Notify would
		// stop ignoring it, and the worker inherits the caller's SIG_IGN.
		for _, sig := range forwardedSignals {
			if !signal.Ignored(sig) {
				signal.Notify(sigc, sig)
			}
		}
		defer signal.Stop(sigc)
	}

	// Pdeathsig fires when the thread that started the child exits, so
	// start and wait on one locked thread.
	type waited struct {
		err error
		ps  *os.ProcessState
	}
	started := make(chan error, 1)
	exited := make(chan waited, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		err := cmd.Wait()
		exited <- waited{err, cmd.ProcessState}
	}()
	err = <-started
	payR.Close()
	crashW.Close()
	outStarted()
	errStarted()
	if err != nil {
		payW.Close()
		crashR.Close()
		return res, fmt.Errorf("start worker: %w", err)
	}

	if spec.Started != nil {
		spec.Started(cmd.Process)
	}
	go func() {
		payW.Write(spec.Payload)
		payW.Close()
	}()
	crash := &boundedBuffer{}
	crashDone := make(chan struct{})
	go func() {
		io.Copy(crash, crashR)
		crashR.Close()
		close(crashDone)
	}()

	var reason atomic.Int32 // the first Death the supervisor caused
	kill := func(why Death) {
		if reason.CompareAndSwap(0, int32(why)) {
			cmd.Process.Kill()
		}
	}
	var peak atomic.Int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	if spec.MaxMemory > 0 {
		if sm, err := openStatm(cmd.Process.Pid); err == nil {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer sm.close()
				t := time.NewTicker(spec.PollInterval)
				defer t.Stop()
				for {
					rss, err := sm.rss()
					if err != nil {
						return // the worker is gone
					}
					if rss > peak.Load() {
						peak.Store(rss)
					}
					if rss > spec.MaxMemory {
						kill(DiedMemory)
						return
					}
					select {
					case <-done:
						return
					case <-t.C:
					}
					if !spec.Poll.hold(t, spec.PollInterval, done) {
						return
					}
				}
			}()
		}
	}
	var timer *time.Timer
	if spec.Timeout > 0 {
		timer = time.AfterFunc(spec.Timeout+spec.Grace, func() { kill(DiedTimeout) })
	}
	var forwarded atomic.Int32
	var w waited
wait:
	for {
		select {
		case w = <-exited:
			break wait
		case s := <-sigc:
			sig := s.(syscall.Signal)
			forwarded.CompareAndSwap(0, int32(sig))
			cmd.Process.Signal(sig)
			time.AfterFunc(2*time.Second, func() { kill(DiedSignal) })
		}
	}
	// A signal sent to the whole process group (Ctrl-C) may kill the
	// worker before the loop above saw it arrive here.
	select {
	case s := <-sigc:
		forwarded.CompareAndSwap(0, int32(s.(syscall.Signal)))
	default:
	}
	close(done)
	if timer != nil {
		timer.Stop()
	}
	wg.Wait()
	select {
	case <-crashDone:
	case <-time.After(time.Second):
	}
	outWait()
	errWait()

	res.PeakRSS = peak.Load()
	res.CrashText = crash.String()
	res.Detail = crashLine(res.CrashText)
	switch why := Death(reason.Load()); {
	case why == DiedMemory || why == DiedTimeout:
		res.Death = why
		return res, nil
	case why == DiedSignal:
		res.Death, res.Signal = DiedSignal, syscall.Signal(forwarded.Load())
		return res, nil
	}
	if w.ps == nil {
		return res, fmt.Errorf("worker: %v", w.err)
	}
	ws, _ := w.ps.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		// Signals from outside (the terminal, kill(1)) end the worker
		// as they would end bash: status 128+n, no message. Nothing in
		// the worker raises them itself.
		if sig := syscall.Signal(forwarded.Load()); sig != 0 && ws.Signal() == sig {
			res.Death, res.Signal = DiedSignal, sig
			return res, nil
		}
		switch ws.Signal() {
		case syscall.SIGPIPE, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT:
			res.Death, res.Signal = DiedSignal, ws.Signal()
			return res, nil
		}
	}
	if sig := syscall.Signal(forwarded.Load()); sig == syscall.SIGQUIT && ws.Exited() && ws.ExitStatus() == 2 &&
		strings.HasPrefix(res.CrashText, "SIGQUIT") {
		// The Go runtime's answer to SIGQUIT: a goroutine dump (kept
		// from the user) and exit status 2.
		res.Death, res.Signal = DiedSignal, sig
		return res, nil
	}
	crashed := ws.Signaled() || (ws.Exited() && ws.ExitStatus() == 2 && res.Detail != "")
	if !crashed {
		res.Death, res.Status = Exited, ws.ExitStatus()
		return res, nil
	}
	text := res.CrashText
	switch {
	case strings.Contains(text, "stack overflow") || strings.Contains(text, "goroutine stack exceeds"):
		res.Death = DiedStack
	case strings.Contains(text, "out of memory") || strings.Contains(text, "cannot allocate memory") ||
		strings.Contains(text, "pthread_create failed"):
		res.Death = DiedMemory
	default:
		res.Death = DiedCrash
		if res.Detail == "" {
			res.Detail = "worker killed by signal " + ws.Signal().String()
		}
	}
	return res, nil
}

// forwardedSignals are the signals the supervisor passes on to the worker.
var forwardedSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// crashLine picks the one line that says what the Go runtime died of.
func crashLine(text string) string {
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		for _, p := range []string{"fatal error: ", "panic: ", "runtime/cgo: "} {
			if rest, ok := strings.CutPrefix(l, p); ok {
				rest = strings.TrimSuffix(rest, " [recovered]")
				if len(rest) > 200 {
					rest = rest[:200] + "..."
				}
				return rest
			}
		}
	}
	return ""
}
