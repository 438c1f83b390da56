package worker_test

import (
	"context"
	"fmt"

	"github.com/sandsh/sandsh/worker"
)

// A Go program gets sandsh's full walls by embedding it: worker.Init,
// called first in main, lets the program serve as its own confined,
// supervised worker, and each session is one such worker:
//
//	func main() {
//		worker.Init() // returns at once, unless this process is a worker
//		...
//	}
//
// (In this test binary, TestMain does it.) A runaway script ends with the
// limit's status, and the session goes on.
func Example() {
	o := worker.DefaultOptions()
	o.MaxMemory, o.MaxVarBytes = "256MiB", "4GiB"
	s, err := worker.StartSession(&o, worker.SessionConfig{})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	ctx := context.Background()
	s.Run(ctx, worker.Call{Script: `greet() { echo "hello, $1"; }; cd /tmp`})
	res, _ := s.Run(ctx, worker.Call{Script: `greet "$(pwd)"`})
	fmt.Printf("%s", res.Stdout)
	res, _ = s.Run(ctx, worker.Call{Script: `x=abc; while :; do x=$x$x; done`})
	fmt.Println(res.Status, res.Limit)
	res, _ = s.Run(ctx, worker.Call{Script: `greet again`})
	fmt.Printf("%s", res.Stdout)
	// Output:
	// hello, /tmp
	// 125 max-memory
	// hello, again
}

// Options.NoWorker runs the session in this process: the same calls,
// with fewer walls (no Landlock, seccomp, rlimits or supervisor; a Go
// stack overflow or a huge allocation ends the program).
func ExampleSession_inProcess() {
	o := worker.DefaultOptions()
	o.NoWorker = true
	s, err := worker.StartSession(&o, worker.SessionConfig{})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	ctx := context.Background()
	s.WriteFile(ctx, "notes.txt", []byte("one\ntwo\n"), 0o644)
	res, _ := s.Run(ctx, worker.Call{Script: `wc -l < notes.txt; echo new > out`, Changes: true})
	fmt.Printf("%s%v\n", res.Stdout, res.Changes)
	// Output:
	// 2
	// [{/workspace/out added}]
}
