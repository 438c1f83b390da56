package sandbox_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/sandsh/sandsh/sandbox"
	"github.com/sandsh/sandsh/statefile"
)

// A sandbox runs scripts in memory; what one run leaves, the next sees.
func Example() {
	sb, err := sandbox.New(sandbox.Config{})
	if err != nil {
		panic(err)
	}
	defer sb.Close()
	ctx := context.Background()
	sb.Run(ctx, sandbox.Script{Source: `greet() { echo "hello, $1"; }; cd /tmp`})
	res, _ := sb.Run(ctx, sandbox.Script{Source: `greet "$(pwd)"`})
	fmt.Printf("%s", res.Stdout)
	// Output: hello, /tmp
}

// Files and variables cross between Go and the script.
func ExampleSandbox_SetArray() {
	sb, _ := sandbox.New(sandbox.Config{})
	defer sb.Close()
	sb.SetArray("words", []string{"pear", "apple", "fig"})
	sb.WriteFile("notes.txt", []byte("one\ntwo\n"), 0o644)
	res, _ := sb.Run(context.Background(), sandbox.Script{
		Source: `printf '%s\n' "${words[@]}" | sort > sorted; count=$(wc -l < notes.txt)`,
	})
	sorted, _ := sb.ReadFile("sorted")
	count, _ := sb.Var("count")
	fmt.Printf("status %d\n%scount=%v\n", res.Status, sorted, count)
	// Output:
	// status 0
	// apple
	// fig
	// pear
	// count=2
}

// Limits end runaway scripts with a distinct status and the limit's name.
func ExampleResult() {
	lim := sandbox.DefaultLimits()
	lim.MaxLoopIters = 1000
	sb, _ := sandbox.New(sandbox.Config{Limits: lim})
	defer sb.Close()
	res, _ := sb.Run(context.Background(), sandbox.Script{
		Source: `while :; do :; done`,
		Stdin:  strings.NewReader(""),
	})
	fmt.Println(res.Status, res.Limit)
	// Output: 125 max-loop-iterations
}

// A session saved with State (and statefile.Write, e.g. to a file)
// starts again in a new sandbox, even in another process.
func ExampleSandbox_State() {
	ctx := context.Background()
	sb, _ := sandbox.New(sandbox.Config{})
	sb.Run(ctx, sandbox.Script{Source: `declare -A seen=([apple]=1); mkdir -p notes; cd notes; echo draft > todo`})
	st, _ := sb.State(ctx)
	sb.Close()

	var saved bytes.Buffer
	statefile.Write(&saved, st)
	loaded, err := statefile.Read(&saved, 0)
	if err != nil {
		panic(err)
	}
	sb2, _ := sandbox.New(sandbox.Config{State: loaded})
	defer sb2.Close()
	res, _ := sb2.Run(ctx, sandbox.Script{Source: `echo "$PWD ${!seen[*]} $(cat todo)"`})
	fmt.Printf("%s", res.Stdout)
	// Output: /workspace/notes apple draft
}
