package interp

import (
	"context"
	"io"
	"sync"
)

// pipeBufSize is the capacity of an in-memory pipe, like a Linux pipe's
// 64 KiB: a writer runs ahead of its reader by at most this much.
const pipeBufSize = 64 << 10

// pipe is an in-memory, buffered, goroutine-safe pipe. Unlike io.Pipe a
// writer does not wait for every write to be read, which keeps
// line-at-a-time pipelines fast; like a kernel pipe, writing after the
// reader closed fails (EPIPE), and reading after the writer closed and
// the buffer drained returns io.EOF.
type pipe struct {
	mu      sync.Mutex
	cond    *sync.Cond
	buf     []byte
	rclosed bool
	wclosed bool
	err     error // set when the run was cancelled
	stopAF  func() bool
}

func newPipe(ctx context.Context) (*pipeReader, *pipeWriter) {
	p := &pipe{}
	p.cond = sync.NewCond(&p.mu)
	p.stopAF = context.AfterFunc(ctx, func() {
		p.mu.Lock()
		p.err = context.Cause(ctx)
		if p.err == nil {
			p.err = context.Canceled
		}
		p.cond.Broadcast()
		p.mu.Unlock()
	})
	return &pipeReader{p}, &pipeWriter{p}
}

type pipeReader struct{ p *pipe }
type pipeWriter struct{ p *pipe }

func (r *pipeReader) Read(b []byte) (int, error) {
	r.p.mu.Lock()
	defer r.p.mu.Unlock()
	return r.readLocked(nil, b)
}

// ReadContext is Read that also gives up when ctx ends: a command run
// with a narrower context than the pipeline's (`timeout 1 cat`) stops
// waiting for a writer that may never write.
func (r *pipeReader) ReadContext(ctx context.Context, b []byte) (int, error) {
	if ctx.Done() == nil {
		return r.Read(b)
	}
	p := r.p
	p.mu.Lock()
	if len(p.buf) > 0 || p.wclosed || p.err != nil || p.rclosed {
		defer p.mu.Unlock()
		return r.readLocked(nil, b) // no wait: no need to watch ctx
	}
	p.mu.Unlock()
	stop := context.AfterFunc(ctx, func() {
		p.mu.Lock()
		p.cond.Broadcast()
		p.mu.Unlock()
	})
	defer stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	return r.readLocked(ctx, b)
}

// readLocked waits, with p.mu held, for data, the writer's close, an
// error or (with a non-nil ctx) the end of ctx.
func (r *pipeReader) readLocked(ctx context.Context, b []byte) (int, error) {
	p := r.p
	for len(p.buf) == 0 {
		if p.wclosed {
			return 0, io.EOF
		}
		if p.err != nil {
			return 0, p.err
		}
		if p.rclosed {
			return 0, io.ErrClosedPipe
		}
		if ctx != nil {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		p.cond.Wait()
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	if len(p.buf) == 0 {
		p.buf = p.buf[:0:0]
	}
	p.cond.Broadcast()
	return n, nil
}

func (r *pipeReader) Close() error {
	p := r.p
	p.mu.Lock()
	p.rclosed = true
	p.buf = nil
	p.cond.Broadcast()
	p.mu.Unlock()
	p.release()
	return nil
}

func (w *pipeWriter) Write(b []byte) (int, error) {
	p := w.p
	p.mu.Lock()
	defer p.mu.Unlock()
	written := 0
	for len(b) > 0 {
		if p.rclosed {
			return written, io.ErrClosedPipe
		}
		if p.err != nil {
			return written, p.err
		}
		if p.wclosed {
			return written, io.ErrClosedPipe
		}
		room := pipeBufSize - len(p.buf)
		if room <= 0 {
			p.cond.Wait()
			continue
		}
		n := min(room, len(b))
		p.buf = append(p.buf, b[:n]...)
		b = b[n:]
		written += n
		p.cond.Broadcast()
	}
	return written, nil
}

func (w *pipeWriter) Close() error {
	p := w.p
	p.mu.Lock()
	p.wclosed = true
	p.cond.Broadcast()
	p.mu.Unlock()
	p.release()
	return nil
}

// release drops the context hook once both ends are closed.
func (p *pipe) release() {
	p.mu.Lock()
	done := p.rclosed && p.wclosed
	p.mu.Unlock()
	if done && p.stopAF != nil {
		p.stopAF()
	}
}
