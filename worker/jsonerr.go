package worker

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
)

// JSONErrors keeps --json's promise that the output is JSON: a run that
// ends before its result is printed (a missing script, a bad flag, a
// bad policy) still prints one object, {"status": N, "error": "..."},
// the error being sandsh's last message on stderr (which stays there
// too).
type JSONErrors struct {
	out *wroteWriter
	err *tailWriter
}

// WatchJSONErrors wraps stdio's output streams when watch is set (the
// command line names --json), so Finish can tell whether a result was
// printed and what sandsh said. Otherwise the streams are left as they
// are: a wrapped stream costs the worker a pipe.
func WatchJSONErrors(stdio *IO, watch bool) *JSONErrors {
	j := &JSONErrors{}
	if watch {
		j.out = &wroteWriter{w: stdio.Out}
		j.err = &tailWriter{w: stdio.Err}
		stdio.Out, stdio.Err = j.out, j.err
	}
	return j
}

// Finish prints the error object if --json is on and the run failed with
// nothing on stdout.
func (j *JSONErrors) Finish(on bool, status int) {
	if !on || j.out == nil || status == 0 || j.out.wrote() {
		return
	}
	msg := fmt.Sprintf("exit status %d", status)
	if m := j.err.lastMessage(); m != "" {
		msg = m
	}
	enc := json.NewEncoder(j.out.w)
	enc.SetEscapeHTML(false)
	enc.Encode(struct {
		Status int    `json:"status"`
		Error  string `json:"error"`
	}{status, msg})
}

type wroteWriter struct {
	mu sync.Mutex
	w  io.Writer
	n  int64
}

func (w *wroteWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.n += int64(len(p))
	w.mu.Unlock()
	return w.w.Write(p)
}

func (w *wroteWriter) wrote() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n > 0
}

// tailWriter passes everything through and keeps the last 4 KiB.
type tailWriter struct {
	mu   sync.Mutex
	w    io.Writer
	tail []byte
}

const tailMax = 4096

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.tail = append(w.tail, p...)
	if len(w.tail) > tailMax {
		w.tail = append([]byte(nil), w.tail[len(w.tail)-tailMax:]...)
	}
	w.mu.Unlock()
	return w.w.Write(p)
}

// lastMessage is the last line sandsh wrote ("sandsh: " taken off).
func (w *tailWriter) lastMessage() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	lines := bytes.Split(bytes.TrimRight(w.tail, "\n"), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		if m, ok := strings.CutPrefix(string(lines[i]), "sandsh: "); ok {
			return strings.ToValidUTF8(m, "\uFFFD")
		}
	}
	return ""
}
