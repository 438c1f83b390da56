package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sandsh/sandsh/sandbox"
)

func events(t *testing.T, data []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "" {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line %d is not one whole event: %v: %.200q", i+1, err, line)
		}
		out = append(out, ev)
	}
	return out
}

// TestAuditBigEvent: an event over MaxAuditEvent is cut down, never
// dropped, and says so; the events after it are all there.
func TestAuditBigEvent(t *testing.T) {
	var buf bytes.Buffer
	a := sandbox.NewAudit(&buf, nil)
	big := strings.Repeat("x", 1<<20)
	a.Emit("command_start", map[string]any{"name": "basename", "argv": []string{"basename", big, big, big, big, big}})
	many := make([]string, 100000)
	for i := range many {
		many[i] = "word"
	}
	a.Emit("command_start", map[string]any{"name": "echo", "argv": many})
	a.Emit("file", map[string]any{"op": "create", "path": "/workspace/f2"})
	evs := events(t, buf.Bytes())
	if len(evs) != 3 {
		t.Fatalf("%d events, want 3", len(evs))
	}
	for i, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
		if len(line) > sandbox.MaxAuditEvent {
			t.Errorf("event %d: %d bytes, over %d", i+1, len(line), sandbox.MaxAuditEvent)
		}
	}
	ev := evs[0]
	if ev["truncated"] != true || ev["original_bytes"].(float64) < 5<<20 || ev["seq"].(float64) != 1 || ev["event"] != "command_start" {
		t.Errorf("big argv: %.300v", ev)
	}
	sizes, _ := ev["original_sizes"].(map[string]any)
	if sizes["argv.1"] != float64(1<<20) || sizes["argv.5"] != float64(1<<20) {
		t.Errorf("original_sizes %v", sizes)
	}
	if argv := ev["argv"].([]any); len(argv) != 6 || argv[0] != "basename" || !strings.HasPrefix(big, argv[1].(string)) || argv[1] == "" {
		t.Errorf("argv not kept as its cut-down words")
	}
	if evs[1]["truncated"] != true || evs[1]["original_sizes"].(map[string]any)["argv"] != float64(100000) {
		t.Errorf("long argv: %.300v", evs[1])
	}
	if evs[2]["truncated"] != nil || evs[2]["seq"].(float64) != 3 {
		t.Errorf("small event: %v", evs[2])
	}
}

// TestAuditRelay: the worker's events keep their numbers, so a lost one
// leaves a gap; a line over the bound, garbage and a gap each fail the
// log (the hooks run) without stopping the relay; audit_lost says what
// was lost.
func TestAuditRelay(t *testing.T) {
	var worker bytes.Buffer
	w := sandbox.NewAudit(&worker, nil)
	w.Emit("command_start", map[string]any{"name": "a"}) // 1
	w.Emit("command_start", map[string]any{"name": "b"}) // 2
	stream := worker.String()
	stream += `{"v":1,"seq":3,"event":"command_start","argv":["` + strings.Repeat("y", 5<<20) + `"]}` + "\n"
	stream += "not json\n"
	stream += `{"v":1,"seq":6,"event":"file","path":"/workspace/f2"}` + "\n"
	var out bytes.Buffer
	parent := sandbox.NewAudit(&out, nil)
	parent.Emit("run_start", nil)
	var hooked error
	parent.OnFail(func(err error) { hooked = err })
	parent.Relay(strings.NewReader(stream))
	parent.Emit("run_end", nil)
	evs := events(t, out.Bytes())
	var seqs []float64
	for _, ev := range evs {
		seqs = append(seqs, ev["seq"].(float64))
	}
	if fmt.Sprint(seqs) != "[1 2 3 7 8 9]" {
		t.Errorf("seqs %v, want [1 2 3 7 8 9] (the lost 4 to 6 a gap)", seqs)
	}
	// The worker's Emit returns its own seq, which the relay offsets
	// in cmd_seq as in seq.
	out.Reset()
	worker.Reset()
	w = sandbox.NewAudit(&worker, nil)
	if s := w.Emit("command_start", map[string]any{"name": "mkdir"}); s != 1 {
		t.Errorf("Emit returned seq %d, want 1", s)
	}
	w.Emit("file", map[string]any{"op": "mkdir", "cmd_seq": 1})
	p2 := sandbox.NewAudit(&out, nil)
	p2.Emit("run_start", nil)
	p2.Relay(strings.NewReader(worker.String()))
	if evs2 := events(t, out.Bytes()); len(evs2) != 3 || evs2[1]["seq"] != 2.0 || evs2[2]["cmd_seq"] != 2.0 {
		t.Errorf("relayed cmd_seq not offset: %v", evs2)
	}
	if evs[3]["path"] != "/workspace/f2" {
		t.Errorf("the event after the loss was not relayed: %v", evs[3])
	}
	lost := evs[4]
	if lost["event"] != "audit_lost" || !strings.Contains(fmt.Sprint(lost["lost"]), "events 4 to 6") || !strings.Contains(fmt.Sprint(lost["lost"]), "over 65536 bytes") {
		t.Errorf("audit_lost: %v", lost)
	}
	if parent.Err() == nil || hooked == nil {
		t.Errorf("the log did not fail: %v %v", parent.Err(), hooked)
	}
	var ae *sandbox.AuditError
	if !errors.As(parent.Err(), &ae) {
		t.Errorf("Err is %T", parent.Err())
	}

	// A worker that ends inside an event (killed by a limit) is noted,
	// but that alone does not fail the log.
	out.Reset()
	parent = sandbox.NewAudit(&out, nil)
	parent.Relay(strings.NewReader(worker.String() + `{"v":1,"seq":3,"ev`))
	if parent.Err() != nil || !strings.Contains(out.String(), "cut off") {
		t.Errorf("cut-off last line: %v %s", parent.Err(), out.String())
	}
}

// failingFile is a real file that refuses writes past limit bytes, as a
// full filesystem does.
type failingFile struct {
	*os.File
	limit int64
}

func (f *failingFile) Write(p []byte) (int, error) {
	off, _ := f.Seek(0, io.SeekCurrent)
	if off+int64(len(p)) > f.limit {
		n, _ := f.File.Write(p[:max(f.limit-off, 0)])
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	return f.File.Write(p)
}

// TestAuditWriteError: a write error fails the log, cuts the file back
// to the last whole event, tries an audit_failed event, and writes
// nothing more.
func TestAuditWriteError(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "a.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Events of about 550 bytes (measured): with 300 bytes to spare after
	// the third the fourth does not fit and audit_failed does; with 120
	// bytes to spare after the first the second does not fit and neither
	// does audit_failed.
	pad := strings.Repeat("p", 400)
	var probe bytes.Buffer
	sandbox.NewAudit(&probe, nil).Emit("file", map[string]any{"op": "create", "path": fmt.Sprintf("/workspace/%s%02d", pad, 0)})
	size := int64(probe.Len())
	for _, c := range []struct {
		limit      int64
		whole      int
		saysFailed bool
	}{{3*size + 300, 3, true}, {size + 120, 1, false}} {
		f.Truncate(0)
		f.Seek(0, io.SeekStart)
		a := sandbox.NewAuditFile(&failingFile{File: f, limit: c.limit}, nil)
		for i := range 20 {
			a.Emit("file", map[string]any{"op": "create", "path": fmt.Sprintf("/workspace/%s%02d", pad, i)})
		}
		if a.Err() == nil || !errors.Is(a.Err(), syscall.ENOSPC) {
			t.Fatalf("Err = %v, want ENOSPC", a.Err())
		}
		data, _ := os.ReadFile(f.Name())
		if !bytes.HasSuffix(data, []byte("\n")) {
			t.Fatalf("the log ends inside an event: %q", data)
		}
		evs := events(t, data)
		if c.saysFailed {
			last := evs[len(evs)-1]
			if last["event"] != "audit_failed" || !strings.Contains(last["reason"].(string), "no space left") || last["unwritten_seq"] != float64(c.whole+1) {
				t.Errorf("limit %d: last event %v, want audit_failed", c.limit, last)
			}
			evs = evs[:len(evs)-1]
		}
		if len(evs) != c.whole {
			t.Errorf("limit %d: %d whole events, want %d", c.limit, len(evs), c.whole)
		}
	}
}

// TestAuditStopsRun: in the library, a log that fails stops the run at
// its next event, with ExitAudit and an AuditError; the sandbox runs
// nothing more on that log.
func TestAuditStopsRun(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "a.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a := sandbox.NewAuditFile(&failingFile{File: f, limit: 2000}, nil)
	sb, err := sandbox.New(sandbox.Config{Audit: a})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	start := time.Now()
	res, err := sb.Run(context.Background(), sandbox.Script{Source: `for i in $(seq 100000); do touch f$i; done; echo done`})
	if err != nil {
		t.Fatal(err)
	}
	var ae *sandbox.AuditError
	if res.Status != sandbox.ExitAudit || !errors.As(res.Err, &ae) || strings.Contains(string(res.Stdout), "done") {
		t.Fatalf("status %d err %v stdout %q", res.Status, res.Err, res.Stdout)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the run went on for %v after the log failed", took)
	}
	if _, err := sb.ReadFile("f100"); err == nil {
		t.Errorf("the run went on after the log failed (f100 exists)")
	}
	res, _ = sb.Run(context.Background(), sandbox.Script{Source: `echo again`})
	if res.Status != sandbox.ExitAudit || len(res.Stdout) != 0 {
		t.Errorf("a second run on a failed log: %d %q", res.Status, res.Stdout)
	}
}
