package interp_test

// Temporary probe (fuzz work in progress; will be deleted).

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/vfs"
)

func TestZZProbe(t *testing.T) {
	if s := os.Getenv("PROBE_STACK"); s != "" {
		var n int
		fmt.Sscan(s, &n)
		debug.SetMaxStack(n)
	}
	f := os.Getenv("PROBE_FILE")
	if f == "" {
		t.Skip()
	}
	data, _ := os.ReadFile(f)
	fsys := vfs.NewMem()
	vfs.Populate(fsys, vfs.WorkDir)
	var out, errb bytes.Buffer
	gw := restrict.New(builtins.NewRegistry(), restrict.Restricted(true))
	lim := interp.DefaultLimits()
	lim.Timeout = 10 * time.Second
	if os.Getenv("PROBE_NOCALL") != "" {
		lim.MaxCallDepth = 0
	}
	r, _ := interp.New(interp.WithFS(fsys), interp.WithGateway(gw),
		interp.WithStdio(strings.NewReader(""), &out, &errb), interp.WithDir(vfs.WorkDir), interp.WithLimits(lim))
	start := time.Now()
	st, err := r.RunReader(context.Background(), bytes.NewReader(data), "probe")
	t.Logf("status %d err %v in %v\nstdout %.300q\nstderr %.300q", st, err, time.Since(start), out.String(), errb.String())
}

func TestZZCorpusTimes(t *testing.T) {
	dir := os.Getenv("PROBE_CORPUS")
	if dir == "" {
		t.Skip()
	}
	ents, _ := os.ReadDir(dir)
	type tm struct {
		name string
		d    time.Duration
	}
	var worst []tm
	n := 0
	defer func() { t.Logf("%d inputs", n) }()
	for _, e := range ents {
		data, _ := os.ReadFile(dir + "/" + e.Name())
		lines := strings.SplitN(string(data), "\n", 3)
		if len(lines) < 2 {
			continue
		}
		lit := strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")")
		s, err := strconv.Unquote(lit)
		if err != nil {
			continue
		}
		lim := fuzzLimits()
		res := runHostile(t, []byte(s), lim, "line one\nline two\n")
		n++
		if res.elapsed > 300*time.Millisecond {
			worst = append(worst, tm{e.Name(), res.elapsed})
			t.Logf("%v %s %q", res.elapsed, e.Name(), s)
		}
	}
}
