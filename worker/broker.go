package worker

import (
	"context"
	"io"
	"os"

	"github.com/sandsh/sandsh/restrict"
)

// broker is the parent's end of one service it runs for a worker (the
// network gate, the policy's asks): a pair of pipes, requests in and
// responses out, served by one goroutine until stop. The worker, which
// holds no socket and no terminal, only ever sees its two pipe ends.
type broker struct {
	reqR, respW *os.File // the parent's ends
	reqW, respR *os.File // the worker's ends, closed here once it started
	cancel      context.CancelFunc
	done        chan struct{}
}

// startBroker makes the pipes, adds the worker's ends to its extra
// descriptors and returns their numbers in the worker; serve runs until
// the requests end or stop cancels it.
func startBroker(extra *[]*os.File, serve func(ctx context.Context, req io.Reader, resp io.Writer)) (*broker, [2]int, error) {
	b := &broker{done: make(chan struct{})}
	var err error
	if b.reqR, b.reqW, err = os.Pipe(); err != nil {
		return nil, [2]int{}, err
	}
	if b.respR, b.respW, err = os.Pipe(); err != nil {
		b.reqR.Close()
		b.reqW.Close()
		return nil, [2]int{}, err
	}
	*extra = append(*extra, b.reqW, b.respR)
	fds := [2]int{restrict.WorkerExtraFD + len(*extra) - 2, restrict.WorkerExtraFD + len(*extra) - 1}
	ctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	go func() {
		defer close(b.done)
		serve(ctx, b.reqR, b.respW)
	}()
	return b, fds, nil
}

// started closes the parent's copies of the worker's ends, so the
// broker sees the end of the requests when the worker is gone.
func (b *broker) started() {
	if b != nil {
		b.reqW.Close()
		b.respR.Close()
	}
}

// stop ends the broker once the worker is gone.
func (b *broker) stop() {
	if b == nil {
		return
	}
	b.started()
	b.cancel()
	b.reqR.Close() // unblocks a read the cancel cannot reach
	<-b.done
	b.respW.Close()
}

// workerPipes is the worker's end of a broker: the requests it writes
// and the responses it reads, or nils when the parent started none.
func workerPipes(fds [2]int, name string) (w, r *os.File) {
	if fds[0] <= 0 {
		return nil, nil
	}
	for _, fd := range fds {
		restrict.CloseOnExec(fd)
	}
	w = os.NewFile(uintptr(fds[0]), name+"-requests")
	r = os.NewFile(uintptr(fds[1]), name+"-responses")
	if w == nil || r == nil {
		return nil, nil
	}
	return w, r
}
