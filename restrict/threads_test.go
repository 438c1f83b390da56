package restrict

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// lockedThreads are OS threads started before Confine, each held by a
// goroutine locked to it, that run a check on request.
type lockedThreads struct{ reqs []chan chan string }

func startThreads(n int) *lockedThreads {
	lt := &lockedThreads{}
	ready := make(chan struct{})
	for range n {
		req := make(chan chan string)
		lt.reqs = append(lt.reqs, req)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread stays this goroutine's
			ready <- struct{}{}
			for reply := range req {
				reply <- threadWalls()
			}
		}()
	}
	for range n {
		<-ready
	}
	return lt
}

// check runs threadWalls on each thread.
func (lt *lockedThreads) check() []string {
	var out []string
	for _, req := range lt.reqs {
		reply := make(chan string)
		req <- reply
		out = append(out, <-reply)
	}
	return out
}

// threadWalls says which walls hold on the calling thread: its own
// no_new_privs and seccomp mode (prctl answers for the calling thread
// only), and whether Landlock refuses a host open made from it.
func threadWalls() string {
	nnp, err1 := unix.PrctlRetInt(unix.PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0)
	sec, err2 := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0)
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("prctl: %v %v", err1, err2)
	}
	_, err := os.Open("/etc/passwd")
	return fmt.Sprintf("NoNewPrivs %d Seccomp %d open %s", nnp, sec, errText(err))
}

// taskStatuses opens the status file of every thread of the process,
// before Confine (Landlock then refuses new opens of /proc, not reads of
// what is open); check reads them after.
type taskStatuses []*os.File

func openTaskStatuses() taskStatuses {
	var ts taskStatuses
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, t := range tasks {
		if f, err := os.Open("/proc/self/task/" + t.Name() + "/status"); err == nil {
			ts = append(ts, f)
		}
	}
	return ts
}

// check says whether every thread opened has no_new_privs and a seccomp
// filter now; a thread that has exited since is skipped.
func (ts taskStatuses) check() string {
	n := 0
	for _, f := range ts {
		b := make([]byte, 4096)
		k, err := f.ReadAt(b, 0)
		if k == 0 {
			if errors.Is(err, syscall.ESRCH) {
				continue
			}
			return fmt.Sprintf("%s: %v", f.Name(), err)
		}
		st := statusFields(string(b[:k]))
		if st["NoNewPrivs"] != "1" || st["Seccomp"] != "2" {
			return fmt.Sprintf("%s: NoNewPrivs %s Seccomp %s", f.Name(), st["NoNewPrivs"], st["Seccomp"])
		}
		n++
	}
	if n < 2 {
		return fmt.Sprintf("only %d threads seen", n)
	}
	return fmt.Sprintf("%d confined", n)
}

func statusFields(s string) map[string]string {
	m := map[string]string{}
	for _, l := range strings.Split(s, "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok {
			m[k] = strings.TrimSpace(v)
		}
	}
	return m
}
