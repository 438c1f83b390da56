package sandbox

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// ChainError is where an audit log's hash chain breaks: the first event
// whose "prev" is not the sha256 of the line before it, or a line that
// is not an event at all.
type ChainError struct {
	Line int   // 1-based line of the file
	Seq  int64 // the event's seq (0 when the line has none)
	Why  string
}

func (e *ChainError) Error() string {
	if e.Seq > 0 {
		return fmt.Sprintf("seq %d (line %d): %s", e.Seq, e.Line, e.Why)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Why)
}

// VerifyAudit checks an audit log's chain: every event's "prev" is the
// sha256 (hex) of the line before it (of no bytes for the first), and
// "seq" rises. A line changed, removed or inserted after it was written
// breaks the chain at the next event. It returns the number of events
// and the sha256 of the last line (to be kept elsewhere: lines cut from
// the end leave a whole, shorter chain), or the first break.
func VerifyAudit(r io.Reader) (events int64, last string, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	prev := hashLine(nil)
	var seq int64
	for n := 1; ; n++ {
		line, tooLong, rerr := readBoundedLine(br, MaxAuditEvent)
		if rerr != nil && rerr != io.EOF {
			return events, prev, rerr
		}
		if len(line) == 0 && !tooLong {
			if rerr == io.EOF {
				return events, prev, nil
			}
			return events, prev, &ChainError{Line: n, Why: "an empty line"}
		}
		if tooLong {
			return events, prev, &ChainError{Line: n, Why: fmt.Sprintf("a line over %d bytes is not an event", MaxAuditEvent)}
		}
		var ev struct {
			Prev *string     `json:"prev"`
			Seq  json.Number `json:"seq"`
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		if dec.Decode(&ev) != nil {
			return events, prev, &ChainError{Line: n, Why: "not a JSON event"}
		}
		s, serr := ev.Seq.Int64()
		switch {
		case serr != nil:
			return events, prev, &ChainError{Line: n, Why: "no seq"}
		case ev.Prev == nil:
			return events, prev, &ChainError{Line: n, Seq: s, Why: "no prev: not part of the chain"}
		case *ev.Prev != prev:
			return events, prev, &ChainError{Line: n, Seq: s, Why: "prev is not the sha256 of the line before: a line was changed, removed or inserted"}
		case s <= seq:
			return events, prev, &ChainError{Line: n, Seq: s, Why: fmt.Sprintf("seq does not rise (after %d)", seq)}
		}
		seq = s
		events++
		prev = hashLine(line)
		if rerr == io.EOF {
			return events, prev, &ChainError{Line: n, Seq: s, Why: "the log ends inside this event (no newline)"}
		}
	}
}
