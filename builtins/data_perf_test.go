package builtins

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// TestDataPerf compares timings with the host tools on big files. It only
// runs when DATA_PERF is set (it is a measuring aid, not a check).
func TestDataPerf(t *testing.T) {
	if os.Getenv("DATA_PERF") == "" {
		t.Skip("set DATA_PERF=1")
	}
	env := testEnv(t, nil)
	for _, f := range []string{"text.txt", "text2.txt", "data.json", "bin.dat", "text.b64"} {
		b, err := os.ReadFile("/tmp/perf/" + f)
		if err != nil {
			t.Skip(err)
		}
		afero.WriteFile(env.FS, env.Abs(f), b, 0o644)
	}
	for _, line := range strings.Split(os.Getenv("DATA_PERF"), ";") {
		args := strings.Fields(line)
		var out bytes.Buffer
		sub := env.Sub()
		sub.Stdin, sub.Stdout, sub.Stderr = strings.NewReader(""), &out, io.Discard
		start := time.Now()
		st := sub.Run(context.Background(), args)
		mine := time.Since(start)
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = "/tmp/perf"
		cmd.Env = []string{"LC_ALL=C"}
		var hout bytes.Buffer
		cmd.Stdout = &hout
		start = time.Now()
		cmd.Run()
		host := time.Since(start)
		t.Logf("%-40s sandsh %8v (st %d, %d bytes)  host %8v (%d bytes) same=%v", line, mine.Round(time.Millisecond), st, out.Len(), host.Round(time.Millisecond), hout.Len(), bytes.Equal(out.Bytes(), hout.Bytes()))
	}
}
