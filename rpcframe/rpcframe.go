// Package rpcframe guards a stream of newline-delimited JSON-RPC 2.0
// messages, the framing of MCP's stdio transport, so that one bad frame
// costs one error reply rather than the connection. A Guard reads the
// raw stream, answers a line that is not JSON with a -32700 parse error,
// a JSON value that is not a message (or is a batch) with -32600, and a
// line over the size limit with -32600 after skipping it with bounded
// memory; only well-formed messages reach its reader.
package rpcframe

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// JSON-RPC 2.0 error codes.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
)

// idPrefix is how much of an oversized frame is kept to find its id, so
// that the client's pending call gets its error instead of waiting.
const idPrefix = 4096

// Guard filters one stream. Read gives the well-formed messages, one a
// line; Writer is where every reply must go, the peer's and the Guard's,
// so that they never interleave inside a line.
type Guard struct {
	in      *bufio.Reader
	max     int
	out     *lockedWriter
	pending []byte // the rest of the current good frame, for Read
	err     error  // the input's end, once reached
	frame   []byte // reused
}

// New guards in, a stream of newline-delimited messages of at most max
// bytes each (max > 0), whose replies go to out.
func New(in io.Reader, out io.Writer, max int) *Guard {
	return &Guard{in: bufio.NewReaderSize(in, 64<<10), max: max, out: &lockedWriter{w: out}}
}

// Writer is the stream's output, shared with the Guard's error replies.
func (g *Guard) Writer() io.Writer { return g.out }

// Read reads well-formed messages, each ending with a newline.
func (g *Guard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		if g.err != nil {
			return 0, g.err
		}
		if err := g.next(); err != nil {
			return 0, err
		}
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// next reads one line and either queues it for Read or answers it.
func (g *Guard) next() error {
	if cap(g.frame) > 1<<20 {
		g.frame = nil // a big message's buffer is not kept
	}
	g.frame = g.frame[:0]
	over := false
	var total int64
	for {
		chunk, err := g.in.ReadSlice('\n')
		total += int64(len(chunk))
		switch {
		case over:
			// Skipping: keep only the prefix that may name the id.
			if len(g.frame) < idPrefix {
				g.frame = append(g.frame, chunk[:min(len(chunk), idPrefix-len(g.frame))]...)
			}
		case len(g.frame)+len(chunk) > g.max+2: // (+2: a line may end in \r\n)
			over = true
			g.frame = append(g.frame, chunk[:max(0, min(len(chunk), idPrefix-len(g.frame)))]...)
		default:
			g.frame = append(g.frame, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				g.err = err
				return err
			}
			g.err = io.EOF
			if total == 0 {
				return io.EOF
			}
		}
		break
	}
	if over {
		return g.reply(findID(g.frame), CodeInvalidRequest,
			fmt.Sprintf("Invalid Request: a message of more than %d bytes (%d) was skipped", g.max, total))
	}
	line := bytes.TrimSpace(g.frame)
	switch {
	case len(line) == 0:
		return nil
	case !json.Valid(line):
		return g.reply(nil, CodeParseError, "Parse error: the line is not one JSON value")
	case line[0] == '[':
		return g.reply(nil, CodeInvalidRequest, "Invalid Request: batches are not supported; send one message a line")
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return g.reply(findID(line), CodeInvalidRequest, fmt.Sprintf("Invalid Request: %v", err))
	}
	g.pending = append(line, '\n')
	return nil
}

// reply sends an error response; a broken output ends the stream.
func (g *Guard) reply(id json.RawMessage, code int, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	if err != nil {
		return err
	}
	if _, err := g.out.Write(append(b, '\n')); err != nil {
		g.err = err
		return err
	}
	return nil
}

// findID finds the top-level "id" of a (possibly cut) JSON object when
// it comes before the cut and is a string or a number; nil otherwise.
func findID(b []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		if key == "id" {
			var v any
			if err := dec.Decode(&v); err != nil {
				return nil
			}
			switch v.(type) {
			case string, json.Number:
				raw, _ := json.Marshal(v)
				return raw
			}
			return nil
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil
		}
	}
	return nil
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
