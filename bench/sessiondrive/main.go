// Command sessiondrive drives a sandsh binary the way a client does, for
// bench/session.sh: an MCP client on `sandsh mcp` (the official SDK's
// client over stdio) or a person at the interactive shell (a pty). It
// fills a session with MB megabytes of random files, then times CALLS
// `echo` calls in that session and prints the median and the minimum in
// milliseconds, and the RSS of the session's processes when idle.
//
//	go run ./bench/sessiondrive -sandsh ./sandsh -mode mcp -mb 100
//	go run ./bench/sessiondrive -sandsh ./sandsh -mode repl -mb 100
//	go run ./bench/sessiondrive -sandsh ./sandsh -mode http -clients 8 -calls 50
//	go run ./bench/sessiondrive -sandsh ./sandsh -mode idle -sessions 32
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/creack/pty"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	bin := flag.String("sandsh", "./sandsh", "the sandsh binary")
	mode := flag.String("mode", "mcp", "mcp, repl, http (calls/s over sandsh mcp --http), idle (memory per idle session) or first (a new session's first call)")
	mb := flag.Int("mb", 0, "megabytes of random files the session holds before the timed calls")
	calls := flag.Int("calls", 9, "timed calls")
	extra := flag.String("flags", "", "extra sandsh flags, space-separated")
	clients := flag.Int("clients", 1, "-mode http: concurrent clients, each in a session of its own")
	sessions := flag.Int("sessions", 32, "-mode idle: idle sessions to measure")
	flag.Parse()
	var args []string
	if *extra != "" {
		args = strings.Fields(*extra)
	}
	var err error
	switch *mode {
	case "mcp":
		err = driveMCP(*bin, args, *mb, *calls)
	case "repl":
		err = driveREPL(*bin, args, *mb, *calls)
	case "http":
		err = driveHTTP(*bin, args, *clients, *calls)
	case "idle":
		err = driveIdle(*bin, args, *sessions)
	case "first":
		err = driveFirst(*bin, args, *calls)
	default:
		err = fmt.Errorf("unknown -mode %q", *mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sessiondrive:", err)
		os.Exit(1)
	}
}

// fill is the script that gives a session mb megabytes of random files.
func fill(mb int) string {
	return fmt.Sprintf("mkdir -p data && for i in $(seq %d); do head -c 1000000 /dev/urandom > data/f$i; done; du -sk data | cut -f1", mb)
}

func report(times []time.Duration, rss int64) {
	slices.Sort(times)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	fmt.Printf("median_ms=%.2f min_ms=%.2f rss_kb=%d\n", ms(times[len(times)/2]), ms(times[0]), rss)
}

func driveMCP(bin string, flags []string, mb, calls int) error {
	ctx := context.Background()
	cs, proc, stop, err := startStdio(bin, flags)
	if err != nil {
		return err
	}
	defer stop()
	run := func(script string) (string, error) { return callRun(ctx, cs, "bench", script) }
	if _, err := run(fill(mb)); err != nil {
		return err
	}
	var times []time.Duration
	for i := 0; i < calls; i++ {
		start := time.Now()
		out, err := run("echo hi")
		if err != nil {
			return err
		}
		times = append(times, time.Since(start))
		if out != "hi\n" {
			return fmt.Errorf("echo hi printed %q", out)
		}
	}
	time.Sleep(200 * time.Millisecond)
	report(times, treeRSS(proc.Pid))
	return nil
}

// callRun calls the run tool in session (none when "") and returns its
// stdout; a status other than 0 is an error.
func callRun(ctx context.Context, cs *mcp.ClientSession, session, script string) (string, error) {
	args := map[string]any{"script": script}
	if session != "" {
		args["session"] = session
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args})
	if err != nil {
		return "", err
	}
	if res.IsError {
		return "", fmt.Errorf("run %q: %v", script, text(res))
	}
	var m map[string]any // sandsh mcp's result is one JSON text
	if err := json.Unmarshal([]byte(text(res)), &m); err != nil {
		return "", fmt.Errorf("run %q: result: %v", script, err)
	}
	if st, _ := m["status"].(float64); st != 0 {
		return "", fmt.Errorf("run %q: status %v: %v", script, st, m["stderr"])
	}
	out, _ := m["stdout"].(string)
	return out, nil
}

// driveFirst times the first call of new sessions, and calls without a
// session, on one server (run it with --pool 0 and --pool N). Between
// calls it leaves the server a quiet gap, as between clients, in which
// a pool refills; the gap is the same with and without a pool. Beside
// them it times a call in a session that is already warm, after the
// same gap: a client's calls come after its own think time, and a call
// after a quiet gap pays for waking the server and the worker up (their
// threads sleep; the CPU may be in a deeper idle state), which a call
// right after another does not (-mode mcp).
func driveFirst(bin string, flags []string, calls int) error {
	ctx := context.Background()
	cs, proc, stop, err := startStdio(bin, flags)
	if err != nil {
		return err
	}
	defer stop()
	time.Sleep(time.Second) // the server's start (and its pool's) is not timed
	if _, err := callRun(ctx, cs, "warm", "echo hi"); err != nil {
		return err
	}
	const gap = 400 * time.Millisecond
	var first, none, warm []time.Duration
	timed := func(to *[]time.Duration, session string) error {
		time.Sleep(gap)
		start := time.Now()
		out, err := callRun(ctx, cs, session, "echo hi")
		if err != nil {
			return err
		}
		*to = append(*to, time.Since(start))
		if out != "hi\n" {
			return fmt.Errorf("echo hi printed %q", out)
		}
		return nil
	}
	for i := 0; i < calls; i++ {
		name := fmt.Sprintf("new%d", i)
		if err := timed(&first, name); err != nil {
			return err
		}
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "close_session", Arguments: map[string]any{"session": name}}); err != nil {
			return err
		}
		if err := timed(&warm, "warm"); err != nil {
			return err
		}
		if err := timed(&none, ""); err != nil {
			return err
		}
	}
	for _, l := range [][]time.Duration{first, none, warm} {
		slices.Sort(l)
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	fmt.Printf("median_ms=%.2f min_ms=%.2f nosession_median_ms=%.2f warm_after_gap_median_ms=%.2f ratio=%.2f rss_kb=%d\n",
		ms(first[len(first)/2]), ms(first[0]), ms(none[len(none)/2]), ms(warm[len(warm)/2]),
		float64(first[len(first)/2])/float64(warm[len(warm)/2]), treeRSS(proc.Pid))
	return nil
}

// startStdio starts `sandsh mcp FLAGS` and connects the SDK's client to
// it over its stdin and stdout; stop ends both.
func startStdio(bin string, flags []string) (*mcp.ClientSession, *os.Process, func(), error) {
	// The server's stdin and stdout are pipes of our own (os.StartProcess,
	// not os/exec: only restrict/ imports os/exec in this module).
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	proc, err := os.StartProcess(bin, append([]string{bin, "mcp"}, flags...),
		&os.ProcAttr{Env: os.Environ(), Files: []*os.File{inR, outW, os.Stderr}})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("starting %s mcp: %w", bin, err)
	}
	inR.Close()
	outW.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "sessiondrive", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		inW.Close()
		proc.Wait()
		return nil, nil, nil, fmt.Errorf("connecting to %s mcp: %w", bin, err)
	}
	return cs, proc, func() { cs.Close(); inW.Close(); proc.Wait() }, nil
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// driveREPL types lines at the interactive shell on a pty and times each
// from the keystroke to the next prompt.
func driveREPL(bin string, flags []string, mb, calls int) error {
	tty, term, err := pty.Open()
	if err != nil {
		return fmt.Errorf("opening a pty: %w", err)
	}
	if err := pty.Setsize(tty, &pty.Winsize{Rows: 50, Cols: 200}); err != nil {
		return err
	}
	proc, err := os.StartProcess(bin, append([]string{bin}, flags...), &os.ProcAttr{
		Env:   append(os.Environ(), "NO_COLOR=1", "TERM=dumb"),
		Files: []*os.File{term, term, term},
		Sys:   &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0},
	})
	term.Close()
	if err != nil {
		return fmt.Errorf("starting %s on a pty: %w", bin, err)
	}
	defer func() { proc.Kill(); proc.Wait(); tty.Close() }()
	out := make(chan []byte, 1024)
	go func() {
		for {
			b := make([]byte, 4096)
			n, err := tty.Read(b)
			if n > 0 {
				out <- b[:n]
			}
			if err != nil {
				close(out)
				return
			}
		}
	}()
	var seen bytes.Buffer
	// waitFor reads until want has appeared and then a prompt after it.
	waitFor := func(want string, limit time.Duration) error {
		deadline := time.After(limit)
		for {
			if i := bytes.Index(seen.Bytes(), []byte(want)); i >= 0 {
				if j := bytes.Index(seen.Bytes()[i+len(want):], []byte(" $ ")); j >= 0 {
					seen.Reset()
					return nil
				}
			}
			select {
			case b, ok := <-out:
				if !ok {
					return fmt.Errorf("the shell ended; it printed %q", seen.String())
				}
				seen.Write(b)
			case <-deadline:
				return fmt.Errorf("no %q after %v; the shell printed %q", want, limit, seen.String())
			}
		}
	}
	if err := waitFor("", 10*time.Second); err != nil {
		return err
	}
	if _, err := io.WriteString(tty, fill(mb)+"; echo FILLED$((1+1))\r"); err != nil {
		return err
	}
	if err := waitFor("FILLED2\r\n", 5*time.Minute); err != nil {
		return err
	}
	var times []time.Duration
	for i := 0; i < calls; i++ {
		k := 1000 + i
		start := time.Now()
		if _, err := io.WriteString(tty, "echo X$(("+strconv.Itoa(k)+"))\r"); err != nil {
			return err
		}
		if err := waitFor("X"+strconv.Itoa(k)+"\r\n", time.Minute); err != nil {
			return err
		}
		times = append(times, time.Since(start))
	}
	time.Sleep(200 * time.Millisecond)
	report(times, treeRSS(proc.Pid))
	return nil
}

// treeRSS is the resident memory of pid and its descendants, in KiB.
func treeRSS(pid int) int64 {
	var total int64
	eachInTree(pid, func(p int) { total += rssOf(p) })
	return total
}

// eachInTree calls f with pid and each of its descendants.
func eachInTree(pid int, f func(pid int)) {
	f(pid)
	kids, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, k := range kids {
		b, err := os.ReadFile(k)
		if err != nil {
			continue
		}
		for _, w := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(w); err == nil {
				eachInTree(c, f)
			}
		}
	}
}

func rssOf(pid int) int64 { return kbField(fmt.Sprintf("/proc/%d/status", pid), "VmRSS:") }

// kbField is the value, in kB, of the line of a /proc file that starts
// with key (0 when there is none).
func kbField(file, key string) int64 {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
