package restrict

import (
	"sync"
	"time"
)

// Pause holds a polling loop while the worker it watches waits with
// nothing running (a pooled worker before its first call, a session
// worker between calls with no background job): nothing can grow then,
// and a 10-20 ms ticker per worker would be what an idle pool or session
// costs in wake-ups. Pausing stops the ticker; resuming restarts it.
// The zero value is running. Safe for concurrent use.
type Pause struct {
	mu     sync.Mutex
	paused bool
	resume chan struct{} // closed by Resume
}

// Pause holds the loop at its next tick.
func (p *Pause) Pause() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.paused {
		p.paused, p.resume = true, make(chan struct{})
	}
}

// Resume lets the loop go on at once.
func (p *Pause) Resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.paused {
		p.paused = false
		close(p.resume)
	}
}

// Paused reports whether the loop is held.
func (p *Pause) Paused() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.paused
}

// hold blocks while paused, with the ticker stopped; false when stop
// closed meanwhile.
func (p *Pause) hold(t *time.Ticker, every time.Duration, stop <-chan struct{}) bool {
	if p == nil {
		return true
	}
	p.mu.Lock()
	paused, resume := p.paused, p.resume
	p.mu.Unlock()
	if !paused {
		return true
	}
	t.Stop()
	select {
	case <-resume:
		t.Reset(every)
		return true
	case <-stop:
		return false
	}
}
