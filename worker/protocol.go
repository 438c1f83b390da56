package worker

// The session protocol between a Session (the parent) and its worker:
// two pipes beside the worker's usual descriptors.
//
// Requests, parent to worker: one JSON object a line (request), followed
// by DataLen raw bytes (a call's standard input, a file's contents).
//
// Frames, worker to parent: a kind byte, a uvarint length, then that many
// bytes. frameStdout and frameStderr carry a call's output as it is
// written (only when the call captures it); frameData carries the payload
// of the reply that follows it (a checkpoint, a file's contents);
// frameReply carries one reply as JSON. The worker answers every request
// with exactly one reply, and sends one more when it is ready.
//
// Checkpoints: after every call that leaves the session going, the reply
// carries what changed since the last one (checkpoint, gob-encoded): the
// shell state when it changed, and the files changed as a vfs.Delta, so
// it costs in proportion to the change, not to the workspace. The parent
// applies it to its own copy of the tree; a restarted worker starts from
// that copy.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime/debug"
	"sync"
	"time"

	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/vfs"
)

// The session worker's control pipes.
const (
	sessionRequestFD = restrict.WorkerExtraFD
	sessionReplyFD   = restrict.WorkerExtraFD + 1
)

// Frame kinds.
const (
	frameStdout = 1
	frameStderr = 2
	frameData   = 3
	frameReply  = 4
)

// frameMax bounds one output frame: the worker splits bigger writes.
const frameMax = 256 << 10

// request is one request from the parent.
type request struct {
	Op       string `json:"op"`             // restore, line, finish, commands, paths, script, read, write, list
	Src      string `json:"src,omitempty"`  // the line, or the script
	Status   int    `json:"status"`         // $? before the request
	Word     string `json:"word,omitempty"` // the word to complete
	DirsOnly bool   `json:"dirs,omitempty"` // complete directories only

	Name     string        `json:"name,omitempty"` // $0 of a script
	Args     []string      `json:"args,omitempty"` // its positional parameters
	Cwd      string        `json:"cwd,omitempty"`
	Timeout  time.Duration `json:"timeout,omitempty"`
	Capture  bool          `json:"capture,omitempty"` // output comes back framed
	Changes  bool          `json:"changes,omitempty"`
	Vars     []string      `json:"vars,omitempty"`
	Path     string        `json:"path,omitempty"`
	Mode     uint32        `json:"mode,omitempty"`
	MaxBytes int64         `json:"max,omitempty"`
	DataLen  int64         `json:"len,omitempty"`
	// History is the REPL's history for a line (the history builtin
	// lists it), HistBase the number before its first entry.
	History  []string `json:"history,omitempty"`
	HistBase int      `json:"histBase,omitempty"`
}

// reply answers one request (or says the worker is ready).
type reply struct {
	Status      int      `json:"status"`
	Interrupted bool     `json:"interrupted,omitempty"` // Ctrl-C ended the line
	Exited      bool     `json:"exited,omitempty"`      // the session is over
	KillSig     int      `json:"killSig,omitempty"`     // SIGTERM/SIGHUP ended it
	Dir         string   `json:"dir"`
	Desc        string   `json:"desc,omitempty"`
	Cands       []string `json:"cands,omitempty"`
	Jobs        int      `json:"jobs,omitempty"` // background jobs running

	Limit      string         `json:"limit,omitempty"`
	Finished   bool           `json:"finished,omitempty"`
	Duration   time.Duration  `json:"duration,omitempty"`
	Vars       map[string]any `json:"vars,omitempty"`
	Changes    []vfs.Change   `json:"changes,omitempty"`
	HasChanges bool           `json:"hasChanges,omitempty"`
	Entries    []DirEntry     `json:"entries,omitempty"`
	Err        string         `json:"err,omitempty"`
	// Checkpoint says the payload is a checkpoint (not a file read).
	Checkpoint bool `json:"ckpt,omitempty"`

	data []byte // the payload sent before it
}

// DirEntry is one entry of a directory listed through a session.
type DirEntry struct {
	Name   string      `json:"name"`
	Size   int64       `json:"size"`
	Mode   fs.FileMode `json:"mode"`
	Target string      `json:"target,omitempty"` // a symlink's
}

// checkpoint is what changed in a session since the last checkpoint; as
// the start of a restarted worker, what changed since the session began.
type checkpoint struct {
	Shell  *interp.State // nil: unchanged
	Status int
	Delta  *vfs.Delta
	// What the session has added to a --root directory so far, so that
	// a restarted worker keeps counting --max-fs-bytes and --max-files
	// from there rather than from zero.
	DiskBytes int64
	DiskFiles int
	// DataLens are the lengths of the Delta entries' contents, which
	// follow the gob-encoded checkpoint as raw bytes, in order.
	DataLens []int
}

// encodeCheckpoint writes c gob-encoded, with the files' contents after
// it as they are: gob would build the whole message in memory first.
func encodeCheckpoint(w io.Writer, ck *checkpoint) error {
	c := *ck
	var blobs [][]byte
	if ck.Delta != nil {
		d := *ck.Delta
		d.Entries = append([]vfs.SnapEntry(nil), d.Entries...)
		c.DataLens = make([]int, len(d.Entries))
		for i := range d.Entries {
			c.DataLens[i] = len(d.Entries[i].Data)
			blobs = append(blobs, d.Entries[i].Data)
			d.Entries[i].Data = nil
		}
		c.Delta = &d
	}
	if err := gob.NewEncoder(w).Encode(&c); err != nil {
		return err
	}
	for _, b := range blobs {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// decodeCheckpoint reads a checkpoint and the contents after it.
func decodeCheckpoint(data []byte) (*checkpoint, error) {
	r := bytes.NewReader(data) // a ByteReader: gob reads no further than its value
	var c checkpoint
	if err := gob.NewDecoder(r).Decode(&c); err != nil {
		return nil, err
	}
	rest := data[len(data)-r.Len():]
	if c.Delta != nil {
		if len(c.DataLens) != len(c.Delta.Entries) {
			return nil, errors.New("checkpoint: contents do not match the entries")
		}
		for i, n := range c.DataLens {
			if n < 0 || n > len(rest) {
				return nil, errors.New("checkpoint: truncated contents")
			}
			if n > 0 {
				c.Delta.Entries[i].Data = rest[:n:n]
			}
			rest = rest[n:]
		}
	}
	if len(rest) != 0 {
		return nil, errors.New("checkpoint: bytes left over")
	}
	c.DataLens = nil
	return &c, nil
}

// frameWriter is the worker's end of the reply pipe, shared by the
// replies and the output of a running call (and its background jobs).
type frameWriter struct {
	mu  sync.Mutex
	w   *bufio.Writer
	hdr [1 + binary.MaxVarintLen64]byte
}

func (f *frameWriter) frame(kind byte, p []byte) error {
	f.hdr[0] = kind
	n := binary.PutUvarint(f.hdr[1:], uint64(len(p)))
	if _, err := f.w.Write(f.hdr[:1+n]); err != nil {
		return err
	}
	_, err := f.w.Write(p)
	return err
}

// reply sends a reply and its payload: bytes, or a checkpoint encoded
// in data frames as it goes.
func (f *frameWriter) reply(rep, payload []byte, ck *checkpoint) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(payload) > 0 {
		if err := (dataWriter{f}).writeAll(payload); err != nil {
			return err
		}
	}
	if ck != nil {
		if err := encodeCheckpoint(dataWriter{f}, ck); err != nil {
			return err
		}
	}
	if err := f.frame(frameReply, rep); err != nil {
		return err
	}
	return f.w.Flush()
}

// dataWriter writes data frames of at most frameMax bytes; the caller
// holds the frameWriter's lock.
type dataWriter struct{ f *frameWriter }

func (d dataWriter) Write(p []byte) (int, error) { return len(p), d.writeAll(p) }

func (d dataWriter) writeAll(p []byte) error {
	for len(p) > 0 {
		chunk := p[:min(len(p), frameMax)]
		if err := d.f.frame(frameData, chunk); err != nil {
			return err
		}
		p = p[len(chunk):]
	}
	return nil
}

// stream is a writer of one output stream of a call.
func (f *frameWriter) stream(kind byte) io.Writer { return streamWriter{f, kind} }

type streamWriter struct {
	f    *frameWriter
	kind byte
}

func (s streamWriter) Write(p []byte) (int, error) {
	s.f.mu.Lock()
	defer s.f.mu.Unlock()
	n := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), frameMax)]
		if err := s.f.frame(s.kind, chunk); err != nil {
			return n, err
		}
		n += len(chunk)
		p = p[len(chunk):]
	}
	return n, s.f.w.Flush()
}

// readRequest reads one request and its data, each bounded by max.
func readRequest(br *bufio.Reader, max int64) (*request, []byte, error) {
	msg, err := readMsg(br, 64<<20)
	if err != nil {
		if len(msg) == 0 && errors.Is(err, io.EOF) {
			return nil, nil, io.EOF
		}
		return nil, nil, err
	}
	var req request
	if err := json.Unmarshal(msg, &req); err != nil {
		return nil, nil, fmt.Errorf("bad request: %v", err)
	}
	if req.DataLen < 0 || req.DataLen > max {
		return nil, nil, fmt.Errorf("request data of %d bytes", req.DataLen)
	}
	var data []byte
	if req.DataLen > 0 {
		data = make([]byte, req.DataLen)
		if _, err := io.ReadFull(br, data); err != nil {
			return nil, nil, err
		}
	}
	return &req, data, nil
}

// readMsg reads one newline-terminated message of at most max bytes.
func readMsg(br *bufio.Reader, max int64) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if int64(len(buf)+len(chunk)) > max {
			return nil, errors.New("message too long")
		}
		buf = append(buf, chunk...)
		if err == nil {
			return buf, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return buf, err
		}
	}
}

// readFrame reads one frame of at most max bytes. The buffer grows as
// the bytes arrive, so a forged length costs nothing before the data is
// really there.
func readFrame(br *bufio.Reader, max int64) (byte, []byte, error) {
	kind, err := br.ReadByte()
	if err != nil {
		return 0, nil, err
	}
	n, err := binary.ReadUvarint(br)
	if err != nil {
		return 0, nil, err
	}
	if n > uint64(max) {
		return 0, nil, fmt.Errorf("frame of %d bytes", n)
	}
	var buf bytesBuffer
	if _, err := io.CopyN(&buf, br, int64(n)); err != nil {
		return 0, nil, err
	}
	return kind, buf.b, nil
}

// bytesBuffer is the smallest growing buffer for readFrame.
type bytesBuffer struct{ b []byte }

func (b *bytesBuffer) Write(p []byte) (int, error) { b.b = append(b.b, p...); return len(p), nil }

// releaseBig hands the memory of a big checkpoint or file back to the
// system once it is garbage: the worker's resident size counts against
// --max-memory, and an idle session should not hold twice its files.
func releaseBig(n int) {
	if n >= 32<<20 {
		debug.FreeOSMemory()
	}
}
