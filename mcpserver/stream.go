package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sandsh/sandsh/worker"
)

// streamer sends a run's output to its client as the script writes it:
// as progress notifications when the call carried a progress token
// (each message one JSON object, {"stream":"stdout","data":"..."}, the
// progress the bytes sent so far), else as log notifications (level
// info, logger "stdout" or "stderr"), which the SDK sends only to a
// client that set a log level. The result still carries the whole
// output, trimmed as without streaming.
type streamer struct {
	ctx   context.Context // the SDK's: it routes a notification to its request
	ss    *mcp.ServerSession
	token any

	mu   sync.Mutex
	sent float64
}

// streamWriter is one stream of a run: it keeps the head and tail for
// the result and sends the rest on, whole characters only.
type streamWriter struct {
	st   *streamer
	name string
	keep *worker.HeadTail
	pend []byte // the start of a character split by a write
	hide func(string) string
}

func newStreamer(ctx context.Context, req *mcp.CallToolRequest) *streamer {
	if req == nil || req.Session == nil {
		return nil
	}
	return &streamer{ctx: ctx, ss: req.Session, token: req.Params.GetProgressToken()}
}

func (st *streamer) writer(name string, keep int) *streamWriter {
	return &streamWriter{st: st, name: name, keep: worker.NewHeadTail(keep)}
}

func (w *streamWriter) Write(p []byte) (int, error) {
	w.keep.Write(p)
	b := append(w.pend, p...)
	end := len(b)
	// Hold back a character whose bytes have not all come yet.
	for k := 1; k < utf8.UTFMax && k <= len(b); k++ {
		if utf8.RuneStart(b[len(b)-k]) {
			if !utf8.FullRune(b[len(b)-k:]) {
				end = len(b) - k
			}
			break
		}
	}
	if w.hide != nil {
		end = hideCut(b[:end])
	}
	w.pend = append([]byte(nil), b[end:]...)
	if end > 0 {
		w.st.send(w.name, b[:end], w.hide)
	}
	return len(p), nil
}

// maxHidden bounds what a stream whose host paths are hidden holds back
// waiting for a line's end: a path is shorter than this (PATH_MAX).
const maxHidden = 4096

// hideCut is how much of b a stream whose host paths are hidden may send
// now: whole lines, so that a path split across two writes is still
// hidden; of a line longer than 16 times maxHidden, all but its last
// maxHidden bytes (at a character's start).
func hideCut(b []byte) int {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return i + 1
	}
	if len(b) <= 16*maxHidden {
		return 0
	}
	cut := len(b) - maxHidden
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return cut
}

// flush sends what a split character or line held back.
func (w *streamWriter) flush() {
	if len(w.pend) > 0 {
		w.st.send(w.name, w.pend, w.hide)
		w.pend = nil
	}
}

// send sends one chunk; a client that is gone misses it (the result
// has the output).
func (st *streamer) send(name string, p []byte, hide func(string) string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.sent += float64(len(p))
	text := string(p)
	if !utf8.ValidString(text) {
		text = string([]rune(text)) // invalid bytes become U+FFFD
	}
	if hide != nil {
		text = hide(text)
	}
	if st.token != nil {
		msg, _ := json.Marshal(struct {
			Stream string `json:"stream"`
			Data   string `json:"data"`
		}{name, text})
		st.ss.NotifyProgress(st.ctx, &mcp.ProgressNotificationParams{ProgressToken: st.token, Progress: st.sent, Message: string(msg)})
		return
	}
	st.ss.Log(st.ctx, &mcp.LoggingMessageParams{Level: "info", Logger: name, Data: text})
}
