package sandbox

import (
	"encoding/json"
	"io"
	"regexp"
	"slices"
	"sync"
	"time"
)

// AuditVersion is the schema version every audit event carries in "v".
const AuditVersion = 1

// Audit writes the audit log: JSON Lines, one event per decision or
// effect, each with the schema version "v", a sequence number "seq" that
// rises by one, the time, and "event". Argument values matching Redact
// are written as "***". Safe for concurrent use.
type Audit struct {
	mu     sync.Mutex
	w      io.Writer
	seq    int64
	redact *regexp.Regexp
}

// NewAudit returns an audit log writing to w; redact (may be nil) masks
// matching argument values.
func NewAudit(w io.Writer, redact *regexp.Regexp) *Audit { return &Audit{w: w, redact: redact} }

// Emit writes one event. fields must not hold "v", "seq", "time" or
// "event".
func (a *Audit) Emit(event string, fields map[string]any) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seq++
	ev := map[string]any{"v": AuditVersion, "seq": a.seq, "time": time.Now().UTC().Format(time.RFC3339Nano), "event": event}
	for k, v := range fields {
		ev[k] = v
	}
	line, err := json.Marshal(ev)
	if err != nil {
		return
	}
	a.w.Write(append(line, '\n'))
}

// Resequence writes an event another Audit produced (a worker's line),
// with this log's next sequence number: the parent sandsh merges its
// worker's events into one monotonic log.
func (a *Audit) Resequence(line []byte) {
	var ev map[string]any
	if json.Unmarshal(line, &ev) != nil {
		return
	}
	event, _ := ev["event"].(string)
	delete(ev, "v")
	delete(ev, "seq")
	delete(ev, "event")
	t := ev["time"]
	delete(ev, "time")
	a.mu.Lock()
	a.seq++
	ev["v"], ev["seq"], ev["event"], ev["time"] = AuditVersion, a.seq, event, t
	out, err := json.Marshal(ev)
	if err == nil {
		a.w.Write(append(out, '\n'))
	}
	a.mu.Unlock()
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
