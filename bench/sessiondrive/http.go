package main

// The HTTP modes: `sandsh mcp --http` driven by many SDK clients at once
// (-mode http), and the memory an idle session costs (-mode idle).

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer starts `sandsh mcp --http 127.0.0.1:0` with flags and a
// fresh token, and returns its process, endpoint and token.
func httpServer(bin string, flags []string) (*os.Process, string, string, error) {
	token := rand.Text()
	errR, errW, err := os.Pipe()
	if err != nil {
		return nil, "", "", err
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		return nil, "", "", err
	}
	defer null.Close()
	args := append([]string{bin, "mcp", "--http", "127.0.0.1:0"}, flags...)
	proc, err := os.StartProcess(bin, args, &os.ProcAttr{Env: append(os.Environ(), "SANDSH_MCP_TOKEN="+token),
		Files: []*os.File{null, null, errW}})
	errW.Close()
	if err != nil {
		return nil, "", "", fmt.Errorf("starting %s mcp --http: %w", bin, err)
	}
	line, err := bufio.NewReader(errR).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "sandsh: mcp: serving ")
	if err != nil || !ok {
		proc.Kill()
		proc.Wait()
		return nil, "", "", fmt.Errorf("%s mcp --http said %q", bin, line)
	}
	go func() { // keep draining its stderr
		buf := make([]byte, 4096)
		for {
			if _, err := errR.Read(buf); err != nil {
				return
			}
		}
	}()
	return proc, url, token, nil
}

type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// dialHTTP connects one SDK client, with its own HTTP connections.
func dialHTTP(url, token string) (*mcp.ClientSession, error) {
	hc := &http.Client{Transport: bearer(token)}
	return mcp.NewClient(&mcp.Implementation{Name: "sessiondrive", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
}

// echo runs script in session and checks that it printed want.
func echo(cs *mcp.ClientSession, session, script, want string) error {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run",
		Arguments: map[string]any{"script": script, "session": session}})
	if err != nil {
		return err
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(text(res)), &m); err != nil || res.IsError {
		return fmt.Errorf("run %q: %s", script, text(res))
	}
	if m["stdout"] != want {
		return fmt.Errorf("run %q printed %v: %v", script, m["stdout"], m["stderr"])
	}
	return nil
}

// driveHTTP times `echo hi` from clients concurrent clients, each in
// a session of its own (warmed by one call first), calls calls each,
// and prints the calls per second and the median call's milliseconds.
func driveHTTP(bin string, flags []string, clients, calls int) error {
	flags = append([]string{"--max-sessions", strconv.Itoa(clients + 1), "--max-clients", strconv.Itoa(clients + 8)}, flags...)
	proc, url, token, err := httpServer(bin, flags)
	if err != nil {
		return err
	}
	defer func() { proc.Signal(os.Interrupt); proc.Wait() }()
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		if sessions[i], err = dialHTTP(url, token); err != nil {
			return err
		}
		defer sessions[i].Close()
		if err := echo(sessions[i], fmt.Sprintf("c%d", i), "echo warm", "warm\n"); err != nil {
			return err
		}
	}
	var mu sync.Mutex
	var times []time.Duration
	var first error
	var wg sync.WaitGroup
	start := time.Now()
	for i, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < calls; k++ {
				t0 := time.Now()
				err := echo(cs, fmt.Sprintf("c%d", i), "echo hi", "hi\n")
				mu.Lock()
				times = append(times, time.Since(t0))
				if err != nil && first == nil {
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if first != nil {
		return first
	}
	slices.Sort(times)
	fmt.Printf("clients=%d calls=%d calls_per_s=%.0f median_ms=%.2f p90_ms=%.2f\n", clients, len(times),
		float64(len(times))/elapsed.Seconds(), float64(times[len(times)/2].Microseconds())/1000,
		float64(times[len(times)*9/10].Microseconds())/1000)
	return nil
}

// driveIdle measures what an idle session costs: the proportional set
// size (PSS: a page shared by n processes counts 1/n in each, so the
// binary's text, shared by every worker, is not counted once per
// worker) of the server and all its workers, with no session and with
// n idle ones (each after one call), and prints the difference per
// session.
func driveIdle(bin string, flags []string, n int) error {
	flags = append([]string{"--max-sessions", strconv.Itoa(n + 1)}, flags...)
	proc, url, token, err := httpServer(bin, flags)
	if err != nil {
		return err
	}
	defer func() { proc.Signal(os.Interrupt); proc.Wait() }()
	cs, err := dialHTTP(url, token)
	if err != nil {
		return err
	}
	defer cs.Close()
	if err := echo(cs, "", "echo one-off", "one-off\n"); err != nil {
		return err
	}
	time.Sleep(time.Second)
	base, procs0 := treePSS(proc.Pid)
	for i := 0; i < n; i++ {
		if err := echo(cs, fmt.Sprintf("idle%d", i), "x=1", ""); err != nil {
			return err
		}
	}
	time.Sleep(time.Second)
	all, procs := treePSS(proc.Pid)
	rss := treeRSS(proc.Pid)
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", proc.Pid))
	fmt.Printf("sessions=%d pss0_kb=%d pss_kb=%d procs0=%d procs=%d per_session_pss_kb=%d rss_kb=%d server_fds=%d tasks=%d\n",
		n, base, all, procs0, procs, (all-base)/int64(n), rss, len(fds), treeTasks(proc.Pid))
	return nil
}

// treePSS is the proportional set size of pid and its descendants, in
// KiB, and how many processes they are.
func treePSS(pid int) (total int64, count int) {
	eachInTree(pid, func(p int) { total, count = total+pssOf(p), count+1 })
	return total, count
}

func pssOf(pid int) int64 { return kbField(fmt.Sprintf("/proc/%d/smaps_rollup", pid), "Pss:") }

// treeTasks counts the threads of pid and its descendants (each counts
// against the kernel's pid_max).
func treeTasks(pid int) int {
	n := 0
	eachInTree(pid, func(p int) {
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*", p))
		n += len(tasks)
	})
	return n
}
