package builtins

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// TestGrepBenchHost times grep, head, tail and wc on a big file; it runs
// only when SANDSH_BENCH_FILE names a host file (compare with GNU by hand).
func TestGrepBenchHost(t *testing.T) {
	file := os.Getenv("SANDSH_BENCH_FILE")
	if file == "" {
		t.Skip("SANDSH_BENCH_FILE not set")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	env := testEnv(t, map[string]string{"big.txt": string(data)})
	for _, cmd := range strings.Split(os.Getenv("SANDSH_BENCH_CMDS"), ";") {
		args := strings.Fields(cmd)
		sub := env.Sub()
		sub.Stdout, sub.Stderr = io.Discard, io.Discard
		start := time.Now()
		st := sub.Run(context.Background(), append(args, "big.txt"))
		t.Logf("%6.3fs [%d] %s", time.Since(start).Seconds(), st, cmd)
	}
}
