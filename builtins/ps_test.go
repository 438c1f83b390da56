package builtins

import (
	"syscall"
	"testing"
	"time"
)

// fakeProcs is a process table for the tests of ps, pgrep and pkill.
type fakeProcs struct {
	procs  []Process
	killed map[int]int
}

func (f *fakeProcs) List() []Process { return f.procs }

func (f *fakeProcs) Signal(pid, sig int) error {
	for _, p := range f.procs {
		if p.PID == pid {
			if pid == 4201 {
				return syscall.EPERM
			}
			f.killed[pid] = sig
			return nil
		}
	}
	return syscall.ESRCH
}

func newFakeProcs() *fakeProcs {
	t0 := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	return &fakeProcs{killed: map[int]int{}, procs: []Process{
		{PID: 4201, PPID: 4199, PGID: 4201, SID: 4201, Argv: []string{"bash", "s.sh"}, Comm: "bash", Start: t0},
		{PID: 4202, PPID: 4201, PGID: 4202, SID: 4201, Argv: []string{"sleep", "10"}, Comm: "sleep", Start: t0.Add(time.Second)},
		{PID: 4203, PPID: 4201, PGID: 4201, SID: 4201, Argv: []string{"sleep", "11"}, Comm: "sleep", Start: t0.Add(2 * time.Second)},
	}}
}

func withProcs(e *Env) {
	e.Procs = newFakeProcs()
	e.Sys.Now = func() time.Time { return time.Date(2024, 5, 1, 10, 1, 5, 0, time.UTC) }
}

func TestPsCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"ps", "-p", "4202", "-o", "comm="}, setup: withProcs, out: "sleep\n"},
		{args: []string{"ps", "-p", "4202", "-o", "args="}, setup: withProcs, out: "sleep 10\n"},
		{args: []string{"ps", "-o", "pid=,ppid=", "-p", "4202,4203"}, setup: withProcs, out: " 4202  4201\n 4203  4201\n"},
		{args: []string{"ps", "-p4201", "-opid,comm"}, setup: withProcs, out: "  PID COMMAND\n 4201 bash\n"},
		{args: []string{"ps", "-o", "pid=X,comm=", "-p", "4201"}, setup: withProcs, out: "    X \n 4201 bash\n"},
		{args: []string{"ps", "-p", "4201"}, setup: withProcs, out: "  PID TTY          TIME CMD\n 4201 ?        00:00:00 bash\n"},
		{args: []string{"ps", "-p", "99"}, setup: withProcs, out: "  PID TTY          TIME CMD\n", status: 1},
		{args: []string{"ps", "-e", "-o", "pid="}, setup: withProcs, out: " 4201\n 4202\n 4203\n"},
		{args: []string{"ps", "-ef"}, setup: withProcs, out: "UID        PID  PPID  C STIME TTY          TIME CMD\n" +
			"sandbox   4201  4199  0 10:00 ?        00:00:00 bash s.sh\n" +
			"sandbox   4202  4201  0 10:00 ?        00:00:00 sleep 10\n" +
			"sandbox   4203  4201  0 10:00 ?        00:00:00 sleep 11\n"},
		{args: []string{"ps", "--ppid", "4201", "-o", "pid", "--no-headers"}, setup: withProcs, out: " 4202\n 4203\n"},
		{args: []string{"ps", "-g", "4202", "-o", "pgid=,etime=,etimes="}, setup: withProcs, out: " 4202       01:04      64\n"},
		{args: []string{"ps", "-C", "bash", "-o", "comm="}, setup: withProcs, out: "bash\n"},
		{args: []string{"ps", "4203", "-o", "args="}, setup: withProcs, out: "sleep 11\n"},
		{args: []string{"ps", "-o", "bogus"}, setup: withProcs, status: 1, errHas: `unknown user-defined format specifier "bogus"`},
		{args: []string{"ps", "-p", "x"}, setup: withProcs, status: 1, errHas: "process ID list syntax error"},
		{args: []string{"ps", "-p", "99999999"}, setup: withProcs, status: 1, errHas: "process ID list syntax error"},
		{args: []string{"ps", "-Z"}, setup: withProcs, status: 1, errHas: "unsupported SysV option"},
		{args: []string{"ps", "-p"}, setup: withProcs, status: 1, errHas: "must follow -p"},
		{name: "no table", args: []string{"ps", "-e", "-o", "pid="}, status: 1},
	})
}

func TestPgrepCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"pgrep", "sleep"}, setup: withProcs, out: "4202\n4203\n"},
		{args: []string{"pgrep", "-x", "slee"}, setup: withProcs, out: "", status: 1},
		{args: []string{"pgrep", "-f", "sleep 1[1]"}, setup: withProcs, out: "4203\n"},
		{args: []string{"pgrep", "-l", "-n", "sl"}, setup: withProcs, out: "4203 sleep\n"},
		{args: []string{"pgrep", "-a", "-o", "sl"}, setup: withProcs, out: "4202 sleep 10\n"},
		{args: []string{"pgrep", "-c", "-v", "bash"}, setup: withProcs, out: "2\n"},
		{args: []string{"pgrep", "-d", ",", "-P", "4201"}, setup: withProcs, out: "4202,4203\n"},
		{args: []string{"pgrep", "-g", "4202"}, setup: withProcs, out: "4202\n"},
		{args: []string{"pgrep", "-i", "BASH"}, setup: withProcs, out: "4201\n"},
		{args: []string{"pgrep", "-u", "sandbox", "-x", "bash"}, setup: withProcs, out: "4201\n"},
		{args: []string{"pgrep", "-u", "root", "bash"}, setup: withProcs, status: 1},
		{args: []string{"pgrep"}, setup: withProcs, status: 2, errHas: "no matching criteria specified"},
		{args: []string{"pgrep", "a", "b"}, setup: withProcs, status: 2, errHas: "only one pattern"},
		{args: []string{"pgrep", "("}, setup: withProcs, status: 2, errHas: "invalid regular expression"},
		{args: []string{"pgrep", "-P", "-1"}, setup: withProcs, status: 2, errHas: "invalid argument"},
		{args: []string{"pgrep", "-n", "-o", "x"}, setup: withProcs, status: 2, errHas: "mutually exclusive"},
	})
}

func TestPkillCommand(t *testing.T) {
	var fp *fakeProcs
	set := func(e *Env) { withProcs(e); fp = e.Procs.(*fakeProcs) }
	cases := []struct {
		shellCase
		killed map[int]int
	}{
		{shellCase{args: []string{"pkill", "-f", "sleep 10"}, setup: set}, map[int]int{4202: 15}},
		{shellCase{args: []string{"pkill", "-9", "sleep"}, setup: set}, map[int]int{4202: 9, 4203: 9}},
		{shellCase{args: []string{"pkill", "-INT", "-n", "sleep"}, setup: set}, map[int]int{4203: 2}},
		{shellCase{args: []string{"pkill", "--signal", "USR1", "-g", "4202"}, setup: set}, map[int]int{4202: 10}},
		{shellCase{args: []string{"pkill", "-e", "-x", "sleep", "-P", "4201", "-o"}, setup: set, out: "killed sleep (pid 4202)\n"}, map[int]int{4202: 15}},
		{shellCase{args: []string{"pkill", "nomatch"}, setup: set, status: 1}, map[int]int{}},
		{shellCase{args: []string{"pkill", "bash"}, setup: set, status: 1, errHas: "killing pid 4201 failed: Operation not permitted"}, map[int]int{}},
		{shellCase{args: []string{"pkill", "--signal", "NOPE", "x"}, setup: set, status: 2, errHas: "Unknown signal"}, map[int]int{}},
	}
	for _, c := range cases {
		shellRunCases(t, []shellCase{c.shellCase})
		if len(fp.killed) != len(c.killed) {
			t.Errorf("%v: killed %v, want %v", c.args, fp.killed, c.killed)
		}
		for pid, sig := range c.killed {
			if fp.killed[pid] != sig {
				t.Errorf("%v: killed %v, want %v", c.args, fp.killed, c.killed)
			}
		}
	}
}
