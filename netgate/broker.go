package netgate

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/sandsh/sandsh/builtins"
)

// The broker carries requests from the confined worker, which has no
// sockets, to the gate in the parent sandsh, over a pair of pipes. A
// frame is a 4-byte big-endian length and that many bytes of JSON.
// Requests and responses carry an id, so a request the worker abandons
// (its command was cancelled) does not desynchronise the stream.

// maxFrameSlack is what a frame may hold beyond its body: URL, headers,
// JSON and base64 overhead (bodies travel as base64, 4/3 of their size).
const maxFrameSlack = 1 << 20

type brokerRequest struct {
	ID  uint64               `json:"id"`
	Req *builtins.NetRequest `json:"req"`
}

type brokerResponse struct {
	ID   uint64                `json:"id"`
	Resp *builtins.NetResponse `json:"resp,omitempty"`
	Err  *builtins.NetError    `json:"err,omitempty"`
}

func writeFrame(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var hdr [4]byte
	if len(data) > 1<<31 {
		return fmt.Errorf("frame too large")
	}
	binary.BigEndian.PutUint32(hdr[:], uint32(len(data)))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// readFrame reads one frame; a frame over max is skipped and reported as
// errFrameTooBig (the stream stays in step).
func readFrame(r io.Reader, max int64) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := int64(binary.BigEndian.Uint32(hdr[:]))
	if n > max {
		if _, err := io.CopyN(io.Discard, r, n); err != nil {
			return nil, err
		}
		return nil, errFrameTooBig
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

var errFrameTooBig = errors.New("frame too big")

// Serve answers the worker's requests on r with g's responses on w until
// r ends or ctx is cancelled. It runs in the parent sandsh: the worker is
// untrusted, so every frame it sends is bounded and every request goes
// through g.Do like an in-process one.
func Serve(ctx context.Context, g *Gate, r io.Reader, w io.Writer) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wmu sync.Mutex
	var wg sync.WaitGroup
	defer wg.Wait()
	send := func(resp brokerResponse) {
		wmu.Lock()
		defer wmu.Unlock()
		writeFrame(w, resp)
	}
	max := int64(maxFrameSlack)
	if g.cfg.MaxBytes > 0 {
		max += g.cfg.MaxBytes/3*4 + 4
	} else {
		max = 1 << 31
	}
	sem := make(chan struct{}, maxInFlight)
	br := bufio.NewReader(r)
	for ctx.Err() == nil {
		data, err := readFrame(br, max)
		if errors.Is(err, errFrameTooBig) {
			// No id to answer: the worker's waiting request times out
			// with its command. Nothing sane sends this.
			continue
		}
		if err != nil {
			return
		}
		var req brokerRequest
		if json.Unmarshal(data, &req) != nil || req.Req == nil {
			continue
		}
		if g.cfg.MaxBytes > 0 && int64(len(req.Req.Body)) > g.cfg.MaxBytes {
			send(brokerResponse{ID: req.ID, Err: bodyTooBig(g.cfg.MaxBytes)})
			continue
		}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			resp, err := g.Do(ctx, req.Req)
			out := brokerResponse{ID: req.ID, Resp: resp}
			if err != nil {
				out.Resp, out.Err = nil, builtins.AsNetError(err)
			}
			send(out)
		}()
	}
}

// Remote is the worker's builtins.Net: it sends each request to the
// parent's Serve and waits for the answer.
type Remote struct {
	w       io.Writer
	max     int64 // the gate's MaxBytes: a bigger body is refused here, as the parent would
	wmu     sync.Mutex
	mu      sync.Mutex
	next    uint64
	waiting map[uint64]chan brokerResponse
	broken  error
}

// NewRemote starts reading responses from r; requests go to w. maxBytes
// is the gate's MaxBytes (0: none).
func NewRemote(r io.Reader, w io.Writer, maxBytes int64) *Remote {
	rm := &Remote{w: w, max: maxBytes, waiting: map[uint64]chan brokerResponse{}}
	go rm.read(bufio.NewReader(r))
	return rm
}

func (rm *Remote) read(r io.Reader) {
	for {
		data, err := readFrame(r, 1<<31)
		if err != nil && !errors.Is(err, errFrameTooBig) {
			rm.mu.Lock()
			rm.broken = fmt.Errorf("the network broker is gone: %v", err)
			for id, ch := range rm.waiting {
				close(ch)
				delete(rm.waiting, id)
			}
			rm.mu.Unlock()
			return
		}
		var resp brokerResponse
		if err != nil || json.Unmarshal(data, &resp) != nil {
			continue
		}
		rm.mu.Lock()
		ch := rm.waiting[resp.ID]
		delete(rm.waiting, resp.ID)
		rm.mu.Unlock()
		if ch != nil {
			ch <- resp // buffered: never blocks
		}
	}
}

// Do implements builtins.Net.
func (rm *Remote) Do(ctx context.Context, req *builtins.NetRequest) (*builtins.NetResponse, error) {
	if rm.max > 0 && int64(len(req.Body)) > rm.max {
		return nil, bodyTooBig(rm.max)
	}
	ch := make(chan brokerResponse, 1)
	rm.mu.Lock()
	if rm.broken != nil {
		rm.mu.Unlock()
		return nil, &builtins.NetError{Kind: builtins.NetOther, Msg: rm.broken.Error()}
	}
	rm.next++
	id := rm.next
	rm.waiting[id] = ch
	rm.mu.Unlock()
	rm.wmu.Lock()
	err := writeFrame(rm.w, brokerRequest{ID: id, Req: req})
	rm.wmu.Unlock()
	if err != nil {
		rm.forget(id)
		return nil, &builtins.NetError{Kind: builtins.NetOther, Msg: "the network broker is gone: " + err.Error()}
	}
	select {
	case resp, ok := <-ch:
		if !ok {
			return nil, &builtins.NetError{Kind: builtins.NetOther, Msg: "the network broker is gone"}
		}
		if resp.Err != nil {
			return nil, resp.Err
		}
		if resp.Resp == nil {
			return nil, &builtins.NetError{Kind: builtins.NetOther, Msg: "empty answer from the network broker"}
		}
		return resp.Resp, nil
	case <-ctx.Done():
		rm.forget(id)
		return nil, builtins.AsNetError(ctx.Err())
	}
}

func (rm *Remote) forget(id uint64) {
	rm.mu.Lock()
	delete(rm.waiting, id)
	rm.mu.Unlock()
}

func bodyTooBig(max int64) *builtins.NetError {
	return &builtins.NetError{Kind: builtins.NetTooBig,
		Msg: fmt.Sprintf("restricted: request body larger than %d bytes (the --max-net-bytes limit)", max)}
}
