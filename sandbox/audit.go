package sandbox

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"sync"
	"time"
	"unicode/utf8"
)

// AuditVersion is the schema version every audit event carries in "v".
const AuditVersion = 1

// MaxAuditEvent bounds one event's line. A bigger event (an argv of
// megabytes) is cut down to fit, never dropped: strings and lists are
// shortened and the event says so ("truncated", "original_bytes",
// "original_sizes"). A reader of the log can hold any line in memory, and
// one event cannot crowd out the ones after it.
const MaxAuditEvent = 64 << 10

// AuditError is the first failure of an audit log. A run stops on it.
type AuditError struct{ Err error }

func (e *AuditError) Error() string { return "audit failed: " + e.Err.Error() }
func (e *AuditError) Unwrap() error { return e.Err }

// AuditFile is an audit log's own file: when a write fails, the file is
// cut back to the end of the last whole event, so the log never ends
// inside one.
type AuditFile interface {
	io.Writer
	Truncate(size int64) error
	Seek(offset int64, whence int) (int64, error)
}

// Audit writes the audit log: JSON Lines, one event per decision or
// effect, each with the schema version "v", a sequence number "seq" that
// rises by one, the time, and "event". Argument values matching Redact
// are written as "***". Safe for concurrent use.
//
// The first failure (a write error, an event lost on its way from a
// worker) is kept (Err) and reported to the OnFail hooks. After a write
// error nothing more is written: a log is either whole or ends with the
// last whole event (and an audit_failed event when it still fits).
type Audit struct {
	mu      sync.Mutex
	w       io.Writer
	file    AuditFile // w, when the log owns its file
	written int64     // bytes of whole events written
	seq     int64
	redact  *regexp.Regexp
	err     *AuditError
	broken  bool // a write failed: nothing more is written
	hooks   map[int]func(error)
	nextID  int
	lost    []string // why events were lost, for the audit_lost event
	prev    string   // sha256 (hex) of the last line written: the next event's "prev"
}

// NewAudit returns an audit log writing to w; redact (may be nil) masks
// matching argument values.
func NewAudit(w io.Writer, redact *regexp.Regexp) *Audit { return &Audit{w: w, redact: redact} }

// NewAuditFile is NewAudit for a file the log owns (opened empty), which
// a failed write cuts back to the last whole event.
func NewAuditFile(f AuditFile, redact *regexp.Regexp) *Audit {
	return &Audit{w: f, file: f, redact: redact}
}

// Err is the log's first failure, or nil.
func (a *Audit) Err() error {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err == nil {
		return nil
	}
	return a.err
}

// OnFail calls f (once, from the goroutine that met it) with the log's
// first failure; at once if it has failed already. remove unregisters f.
func (a *Audit) OnFail(f func(error)) (remove func()) {
	if a == nil {
		return func() {}
	}
	a.mu.Lock()
	if a.err != nil {
		err := a.err
		a.mu.Unlock()
		f(err)
		return func() {}
	}
	if a.hooks == nil {
		a.hooks = map[int]func(error){}
	}
	id := a.nextID
	a.nextID++
	a.hooks[id] = f
	a.mu.Unlock()
	return func() {
		a.mu.Lock()
		delete(a.hooks, id)
		a.mu.Unlock()
	}
}

// failLocked records the first failure and returns the hooks to call
// once the lock is released.
func (a *Audit) failLocked(err error) []func(error) {
	if a.err != nil {
		return nil
	}
	a.err = &AuditError{Err: err}
	var hooks []func(error)
	for _, h := range a.hooks {
		hooks = append(hooks, h)
	}
	a.hooks = nil
	return hooks
}

func runHooks(hooks []func(error), err error) {
	for _, h := range hooks {
		h(err)
	}
}

// Emit writes one event. fields must not hold "v", "seq", "time" or
// "event".
func (a *Audit) Emit(event string, fields map[string]any) (seq int64) {
	if a == nil {
		return 0
	}
	a.mu.Lock()
	a.seq++
	seq = a.seq
	ev := map[string]any{"v": AuditVersion, "seq": a.seq, "time": time.Now().UTC().Format(time.RFC3339Nano), "event": event}
	for k, v := range fields {
		ev[k] = v
	}
	line := encodeEvent(ev)
	hooks := a.writeLocked(line)
	err := a.err
	a.mu.Unlock()
	runHooks(hooks, err)
	return seq
}

// writeLocked writes one event's line, unless the log has failed, with
// "prev", the sha256 of the line before it (of no bytes for the first):
// the events form a chain that `sandsh audit verify` checks, so a line
// changed, removed or inserted afterwards is found. On a write error the
// owned file is cut back to the last whole event and a last audit_failed
// event is tried, so the log ends by saying why.
func (a *Audit) writeLocked(line []byte) []func(error) {
	if a.broken {
		return nil
	}
	if a.prev == "" {
		a.prev = hashLine(nil)
	}
	line = withPrev(line, a.prev)
	n, err := a.w.Write(append(line, '\n'))
	if err == nil {
		a.written += int64(n)
		a.prev = hashLine(line)
		return nil
	}
	a.broken = true
	hooks := a.failLocked(err)
	if a.file != nil {
		if a.file.Truncate(a.written) == nil {
			if _, serr := a.file.Seek(a.written, io.SeekStart); serr == nil {
				a.seq++
				last := withPrev(encodeEvent(map[string]any{"v": AuditVersion, "seq": a.seq, "time": time.Now().UTC().Format(time.RFC3339Nano),
					"event": "audit_failed", "reason": err.Error(), "unwritten_seq": a.seq - 1}), a.prev)
				if _, err := a.file.Write(append(last, '\n')); err != nil {
					a.file.Truncate(a.written)
				}
			}
		}
	}
	return hooks
}

// encodeEvent is an event's line, cut down to MaxAuditEvent when it is
// bigger. An event that cannot be encoded at all (not JSON-representable)
// is still written, as its name and the reason.
func encodeEvent(ev map[string]any) []byte {
	line, err := json.Marshal(ev)
	if err != nil {
		line, _ = json.Marshal(map[string]any{"v": ev["v"], "seq": ev["seq"], "time": ev["time"], "event": ev["event"],
			"truncated": true, "encode_error": err.Error()})
		return line
	}
	if len(line) <= MaxAuditEvent-prevBytes {
		return line
	}
	return shrinkEvent(line)
}

// prevBytes is what "prev" adds to a line: `"prev":"<64 hex>",`.
const prevBytes = len(`"prev":"",`) + 64

// withPrev puts "prev" first in an encoded event (over any the event
// carried: a relayed worker's line has its own chain).
func withPrev(line []byte, prev string) []byte {
	out := make([]byte, 0, len(line)+prevBytes)
	out = append(out, `{"prev":"`...)
	out = append(out, prev...)
	out = append(out, '"')
	if len(line) > 2 {
		out = append(out, ',')
	}
	return append(out, line[1:]...)
}

// hashLine is the sha256 (hex) of one line's bytes, without its newline.
func hashLine(line []byte) string {
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}

// The bounds an oversized event is cut to first: each string and each
// list; both shrink until the event fits.
const (
	auditStringMax = 4 << 10
	auditListMax   = 256
	auditSizesMax  = 32 // entries of original_sizes
)

// shrinkEvent cuts an encoded event over MaxAuditEvent down: every
// string to auditStringMax bytes and every list to auditListMax
// elements, then smaller, until it fits. The event says it was cut
// ("truncated": true), how big it was ("original_bytes") and the
// original size of what was cut ("original_sizes": a path such as
// "argv.1" to a string's bytes or a list's length).
func shrinkEvent(line []byte) []byte {
	var ev map[string]any
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if dec.Decode(&ev) != nil {
		return line // cannot happen: line was just encoded
	}
	head := map[string]any{"v": ev["v"], "seq": ev["seq"], "time": ev["time"], "event": ev["event"],
		"truncated": true, "original_bytes": len(line)}
	for strMax, listMax := auditStringMax, auditListMax; strMax >= 16; strMax, listMax = strMax/4, max(listMax/4, 1) {
		out := map[string]any{}
		sizes := map[string]int{}
		for k, v := range ev {
			if _, fixed := head[k]; fixed {
				continue
			}
			out[k] = cutValue(v, k, strMax, listMax, sizes)
		}
		for k, v := range head {
			out[k] = v
		}
		out["original_sizes"] = boundSizes(sizes)
		if b, err := json.Marshal(out); err == nil && len(b) <= MaxAuditEvent-prevBytes {
			return b
		}
	}
	b, _ := json.Marshal(head)
	return b
}

// cutValue shortens v's strings and lists, noting each cut in sizes
// under its path.
func cutValue(v any, path string, strMax, listMax int, sizes map[string]int) any {
	switch x := v.(type) {
	case string:
		if len(x) <= strMax {
			return x
		}
		sizes[path] = len(x)
		cut := strMax
		for cut > 0 && !utf8.RuneStart(x[cut]) {
			cut--
		}
		return x[:cut]
	case []any:
		out := x
		if len(x) > listMax {
			sizes[path] = len(x)
			out = x[:listMax]
		}
		res := make([]any, len(out))
		for i, e := range out {
			res[i] = cutValue(e, fmt.Sprintf("%s.%d", path, i), strMax, listMax, sizes)
		}
		return res
	case map[string]any:
		res := make(map[string]any, len(x))
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			if i >= listMax {
				sizes[path] = len(x)
				break
			}
			res[k] = cutValue(x[k], path+"."+k, strMax, listMax, sizes)
		}
		return res
	}
	return v
}

// boundSizes keeps the first auditSizesMax entries (by path) of sizes.
func boundSizes(sizes map[string]int) map[string]int {
	if len(sizes) <= auditSizesMax {
		return sizes
	}
	keys := make([]string, 0, len(sizes))
	for k := range sizes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]int, auditSizesMax)
	for _, k := range keys[:auditSizesMax] {
		out[k] = sizes[k]
	}
	return out
}

// Relay writes the events another Audit produces (a worker's, read from
// r until EOF) into this log. The other log numbers its events from 1;
// they keep their numbers, offset by this log's count when Relay
// starts, so an event lost on the way leaves a gap in "seq" where it was.
// A line that is not one whole event (over MaxAuditEvent, not JSON, out
// of sequence) is a lost event: the log fails (OnFail hooks run),
// relaying goes on, and an audit_lost event at the end says what was
// lost. Nothing else may write to this log while Relay runs.
func (a *Audit) Relay(r io.Reader) {
	a.mu.Lock()
	base := a.seq
	a.mu.Unlock()
	br := bufio.NewReaderSize(r, 64<<10)
	next := int64(1)
	for {
		line, tooLong, err := readBoundedLine(br, MaxAuditEvent)
		switch {
		case tooLong:
			a.lose(fmt.Sprintf("an event over %d bytes after seq %d", MaxAuditEvent, base+next-1), true)
		case len(line) > 0 && err != nil:
			// The writer ended inside an event (killed by a limit): said
			// in audit_lost, but the run's end is the limit's.
			a.lose(fmt.Sprintf("an event cut off when its writer ended, after seq %d", base+next-1), false)
		case len(line) > 0:
			a.relayLine(line, base, &next)
		}
		if err != nil {
			break
		}
	}
	a.mu.Lock()
	lost := a.lost
	a.lost = nil
	a.mu.Unlock()
	if len(lost) > 0 {
		a.Emit("audit_lost", map[string]any{"lost": lost})
	}
}

// relayLine writes one relayed event with its own number, offset by base.
func (a *Audit) relayLine(line []byte, base int64, next *int64) {
	var ev map[string]any
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if dec.Decode(&ev) != nil {
		a.lose(fmt.Sprintf("an unreadable event after seq %d", base+*next-1), true)
		return
	}
	num, _ := ev["seq"].(json.Number)
	seq, err := num.Int64()
	if err != nil || seq < *next {
		a.lose(fmt.Sprintf("an event out of sequence after seq %d", base+*next-1), true)
		return
	}
	if seq > *next {
		a.lose(fmt.Sprintf("events %d to %d", base+*next, base+seq-1), true)
	}
	*next = seq + 1
	event, _ := ev["event"].(string)
	delete(ev, "prev") // the worker's own chain; this log's is added on writing
	ev["v"], ev["seq"], ev["event"] = AuditVersion, base+seq, event
	if n, ok := ev["cmd_seq"].(json.Number); ok {
		// The command's seq in the worker's numbering, as this log
		// numbers it.
		if c, err := n.Int64(); err == nil {
			ev["cmd_seq"] = base + c
		}
	}
	out := encodeEvent(ev)
	a.mu.Lock()
	a.seq = base + seq
	hooks := a.writeLocked(out)
	err = a.err
	a.mu.Unlock()
	runHooks(hooks, err)
}

// lose notes a lost event and, when fail, fails the log.
func (a *Audit) lose(why string, fail bool) {
	a.mu.Lock()
	a.lost = append(a.lost, why)
	var hooks []func(error)
	if fail {
		hooks = a.failLocked(errors.New("lost " + why))
	}
	err := a.err
	a.mu.Unlock()
	runHooks(hooks, err)
}

// readBoundedLine reads one line (without its newline) of at most max
// bytes; a longer line is skipped whole and reported as tooLong.
func readBoundedLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > max+1 {
			tooLong = true
			buf = nil
		} else if !tooLong {
			buf = append(buf, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSuffix(buf, []byte("\n")), tooLong, err
	}
}

// ArgvFields are an argv's audit fields: "argv", the words (redacted),
// and, when a word is not UTF-8 — which JSON would show with U+FFFD, so
// that two different byte strings looked the same — "argv_b64", the
// exact bytes of each such word in base64 by its index.
func (a *Audit) ArgvFields(args []string, f map[string]any) {
	argv := a.Argv(args)
	f["argv"] = argv
	var b64 map[string]string
	for i, w := range argv {
		if !utf8.ValidString(w) {
			if b64 == nil {
				b64 = map[string]string{}
			}
			b64[fmt.Sprint(i)] = base64.StdEncoding.EncodeToString([]byte(w))
		}
	}
	if b64 != nil {
		f["argv_b64"] = b64
	}
}

// Argv masks the words that match the redaction pattern.
func (a *Audit) Argv(args []string) []string {
	out := slices.Clone(args)
	if a == nil || a.redact == nil {
		return out
	}
	for i, w := range out {
		if a.redact.MatchString(w) {
			out[i] = a.redact.ReplaceAllString(w, "***")
		}
	}
	return out
}
