package worker

// The warm pool: session workers started and confined ahead of need, so
// a new session's first call does not wait for a process to start.

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"sync"
	"time"

	"github.com/sandsh/sandsh/sandbox"
)

// Pool keeps up to Size session workers started, confined and ready,
// each waiting for its first call. Get hands one out (a new session);
// the pool then starts a replacement in the background. A worker is
// used by one session only: Close and Reset end it, and nothing goes
// back into the pool.
//
// Every pooled worker is started by StartSession with the pool's
// options, so it has every wall a session has (rlimits, no_new_privs,
// Landlock, seccomp, the heap watchdog and the supervisor's memory
// poll) before it is ever handed out. A session that needs other
// options (another filesystem, other limits or policy) is started with
// StartSession instead: the pool holds one configuration only.
//
// An idle pool costs its workers' memory and nothing else: a waiting
// worker runs nothing, so the supervisor's memory poll and the worker's
// heap watchdog are held until its first request (restrict.Pause), and
// the pool itself has no timer. A pooled worker that dies while it
// waits (killed from outside, out of memory) is dropped and replaced;
// it is never handed out.
type Pool struct {
	o    Options
	size int

	mu       sync.Mutex
	ready    []*pooled
	starting bool // the refill goroutine runs
	closed   bool
	refilled chan struct{} // closed and replaced after each start (tests)
}

// pooled is one waiting session, the end of its watch, and who its
// policy's asks go to once it is handed out.
type pooled struct {
	s     *Session
	taken chan struct{}
	ask   *AskSwitch
}

// AskSwitch answers a worker's policy asks with whichever asker is set
// now: a session's worker lives across calls, and a pooled one starts
// before anyone knows whose it will be, while who is to be asked (the
// client of the call running) changes. Nobody is the answer while none
// is set.
type AskSwitch struct {
	mu     sync.Mutex
	ask    sandbox.Asker
	Nobody sandbox.AskAnswer
}

// Set says who answers from now on (nil: Nobody).
func (a *AskSwitch) Set(f sandbox.Asker) {
	a.mu.Lock()
	a.ask = f
	a.mu.Unlock()
}

// Ask answers q, as a sandbox.Asker.
func (a *AskSwitch) Ask(ctx context.Context, q sandbox.AskQuestion) sandbox.AskAnswer {
	a.mu.Lock()
	f := a.ask
	a.mu.Unlock()
	if f == nil {
		return a.Nobody
	}
	return f(ctx, q)
}

// NewPool starts a pool of size workers with the options o (copied;
// each session gets its own copy, its own network gate and request
// count). The workers start in the background; size 0 makes a pool that
// starts each session when it is asked for.
func NewPool(o *Options, size int) (*Pool, error) {
	if size < 0 || size > 64 {
		return nil, usagef("--pool: want 0 to 64")
	}
	if o.NoWorker {
		return nil, errors.New("pool: sessions without a worker cannot be pooled")
	}
	p := &Pool{o: *o, size: size, refilled: make(chan struct{})}
	p.o.ResetNet()
	p.refill()
	return p, nil
}

// Size is the number of workers the pool keeps ready.
func (p *Pool) Size() int { return p.size }

// Start is StartSession through the pool, for a caller that takes
// StartSession's signature: when o and cfg are the pool's (up to the
// asker, the network gate and IO, which each session has its own of), a
// pooled worker is handed out, whose policy asks now go to o.AskFunc;
// otherwise a session is started with o and cfg as they are.
func (p *Pool) Start(o *Options, cfg SessionConfig) (*Session, error) {
	if !p.fits(o, cfg) {
		return StartSession(o, cfg)
	}
	return p.get(o.AskFunc)
}

// fits reports whether a session with o and cfg can be a pooled one:
// the same payload would reach its worker.
func (p *Pool) fits(o *Options, cfg SessionConfig) bool {
	if cfg != (SessionConfig{}) || o.AskCommand != p.o.AskCommand || o.NoWorker {
		return false
	}
	a, b := *o, p.o
	a.AskFunc, b.AskFunc = nil, nil
	wa, err1 := encodeWire(&a)
	wb, err2 := encodeWire(&b)
	return err1 == nil && err2 == nil && bytes.Equal(wa, wb) &&
		reflect.DeepEqual(hostEnv(o), hostEnv(&p.o))
}

// Get returns a new session: a pooled worker when one is ready, else
// one started now. Its policy's asks go to the pool's Options.AskFunc.
func (p *Pool) Get() (*Session, error) { return p.get(p.o.AskFunc) }

func (p *Pool) get(ask sandbox.Asker) (*Session, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errors.New("pool: closed")
	}
	var e *pooled
	if n := len(p.ready); n > 0 {
		e = p.ready[0]
		p.ready = p.ready[1:]
		close(e.taken)
	}
	p.mu.Unlock()
	// The replacement starts a little later: starting a worker takes a
	// core for several milliseconds, which the call that took this one
	// (typically shorter) should not have to share.
	time.AfterFunc(refillDelay, p.refill)
	if e != nil {
		if e.ask != nil {
			e.ask.Set(ask)
		}
		return e.s, nil
	}
	o := p.o
	o.ResetNet()
	o.AskFunc = ask
	return StartSession(&o, SessionConfig{})
}

// refillDelay is how long after a Get the pool starts a replacement.
const refillDelay = 50 * time.Millisecond

// start starts one pooled session with the pool's options.
func (p *Pool) start() (*pooled, error) {
	o := p.o
	o.ResetNet() // each session counts its own network requests
	e := &pooled{taken: make(chan struct{})}
	if o.AskCommand == "" {
		// Its asks go to whoever the session is handed to.
		e.ask = &AskSwitch{Nobody: sandbox.AskAnswer{By: "session", Why: "nobody answers this session's asks"}}
		o.AskFunc = e.ask.Ask
	}
	var err error
	e.s, err = StartSession(&o, SessionConfig{})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// refill starts the refill goroutine unless it runs or the pool is
// full. One worker starts at a time: starting is CPU-bound, and the
// calls running meanwhile come first.
func (p *Pool) refill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.starting || len(p.ready) >= p.size {
		return
	}
	p.starting = true
	go p.fill()
}

func (p *Pool) fill() {
	for fails := 0; ; {
		e, err := p.start()
		p.mu.Lock()
		close(p.refilled)
		p.refilled = make(chan struct{})
		if err != nil {
			fails++
		}
		if p.closed || len(p.ready) >= p.size || err != nil && fails >= 3 {
			// Three failures in a row: Get starts sessions itself
			// (and reports why they fail) until the next Get.
			p.starting = false
			p.mu.Unlock()
			if e != nil {
				e.s.Close()
			}
			return
		}
		if e != nil {
			fails = 0
			p.ready = append(p.ready, e)
			go p.watch(e)
		}
		p.mu.Unlock()
	}
}

// watch drops a pooled worker that dies before it is handed out, and
// starts a replacement. It waits on the worker's end, not on a timer.
func (p *Pool) watch(e *pooled) {
	s := e.s
	s.mu.Lock()
	dead := s.dead
	s.mu.Unlock()
	select {
	case <-e.taken:
		return
	case res := <-dead:
		p.mu.Lock()
		i := p.index(e)
		if i < 0 {
			// Handed out meanwhile: the session finds its worker dead
			// and restarts it at its first call, as after any death.
			p.mu.Unlock()
			dead <- res
			return
		}
		p.ready = append(p.ready[:i], p.ready[i+1:]...)
		p.mu.Unlock()
		s.mu.Lock()
		s.gone = &res
		s.mu.Unlock()
		s.req.Close()
		s.Close()
		p.refill()
	}
}

func (p *Pool) index(e *pooled) int {
	for i, x := range p.ready {
		if x == e {
			return i
		}
	}
	return -1
}

// Close ends the workers waiting in the pool; sessions handed out are
// their holders' to close.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	ready := p.ready
	p.ready = nil
	p.mu.Unlock()
	for _, e := range ready {
		close(e.taken)
		e.s.Close()
	}
}

// waiting is the number of ready workers (tests).
func (p *Pool) waiting() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.ready)
}
