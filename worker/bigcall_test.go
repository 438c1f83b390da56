//go:build !race

// The race detector's shadow memory would count against the worker's
// --max-memory here.

package worker

import "testing"

// TestSessionBigCall: a call that writes a large file is checkpointed
// without holding its bytes twice in the worker, whose memory is
// limited: no restart, and the file is there for the next call.
func TestSessionBigCall(t *testing.T) {
	t.Parallel()
	s := startTest(t, func(o *Options) { o.MaxMemory, o.MaxFSBytes, o.MaxFileSize = "512MiB", "1GiB", "1GiB" })
	res := run(t, s, Call{Script: `head -c 200000000 /dev/zero > big`})
	if res.Status != 0 || res.Restarted != "" {
		t.Fatalf("the writing call: %+v %q", res, res.Stderr)
	}
	res = run(t, s, Call{Script: `wc -c < big`})
	if string(res.Stdout) != "200000000\n" || res.Restarted != "" {
		t.Errorf("the next call: %q %q %q", res.Stdout, res.Stderr, res.Restarted)
	}
	// A restart carries the big file to the new worker.
	if res := run(t, s, Call{Script: "#panic"}); res.Restarted == "" {
		t.Errorf("no restart: %+v", res)
	}
	res = run(t, s, Call{Script: `wc -c < big`})
	if string(res.Stdout) != "200000000\n" || res.Restarted != "" {
		t.Errorf("after the restart: %q %q %q", res.Stdout, res.Stderr, res.Restarted)
	}
}
