package builtins

import (
	"testing"
	"time"
)

func TestTimeCommand(t *testing.T) {
	// A clock that advances 1.5 s per reading makes the elapsed time known.
	ticking := func(e *Env) {
		now := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
		e.Sys.Now = func() time.Time { now = now.Add(1500 * time.Millisecond); return now }
	}
	shellRunCases(t, []shellCase{
		{args: []string{"time", "echo", "hi"}, out: "hi\n",
			errHas: "0.00user 0.00system 0:00.00elapsed 0%CPU (0avgtext+0avgdata 0maxresident)k\n0inputs+0outputs (0major+0minor)pagefaults 0swaps\n"},
		{args: []string{"time", "-p", "true"}, errHas: "real 1.50\nuser 0.00\nsys 0.00\n", setup: ticking},
		{args: []string{"time", "-f", "%e %E %C %x", "true"}, errHas: "1.50 0:01.50 true 0\n", setup: ticking},
		{args: []string{"time", "false"}, status: 1, errHas: "Command exited with non-zero status 1\n"},
		{args: []string{"time", "-q", "-f", "%x", "false"}, status: 1, errHas: "1\n"},
		{args: []string{"time"}, status: 125, errHas: "missing program to run"},
		{args: []string{"time", "nosuch"}, status: 127, errHas: "cannot run nosuch", setup: shellLookPath},
	})
	env := testEnv(t, nil)
	r := run(t, env, "", "time", "-o", "report", "-f", "%x", "true")
	if r.Stderr != "" || readFile(t, env, "report") != "0\n" {
		t.Fatalf("time -o: stderr %q, report %q", r.Stderr, readFile(t, env, "report"))
	}
	run(t, env, "", "time", "-a", "-o", "report", "-f", "again", "true")
	if got := readFile(t, env, "report"); got != "0\nagain\n" {
		t.Fatalf("time -a -o: report %q", got)
	}
}
