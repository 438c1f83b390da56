package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sandsh/sandsh/cmd"
	"github.com/sandsh/sandsh/internal/suite"
	"github.com/sandsh/sandsh/jail"
	"github.com/sandsh/sandsh/sandbox"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"sandsh": func() { os.Exit(cmd.Main(os.Args[1:])) },
		// sandsh-nowhere runs sandsh with its working directory and HOME
		// at paths that do not exist on the host, so any code path that
		// bypassed the sandbox filesystem would fail loudly.
		"sandsh-nowhere": func() {
			args := append([]string{"--cwd", "/sandsh-nowhere/cwd", "--env", "HOME=/sandsh-nowhere/home"}, os.Args[1:]...)
			os.Exit(cmd.Main(args))
		},
	})
}

// TestScripts runs the end-to-end CLI tests in testdata/*.txtar.
func TestScripts(t *testing.T) {
	example, err := filepath.Abs("testdata/policy-example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, scriptParams("testdata", nil, func(env *testscript.Env) error {
		env.Setenv("POLICY_EXAMPLE", example) // README's complete example
		return nil
	}))
}

// TestPolicyExample: the README's complete example policy is the file
// testdata/policy-example.yaml (which policy_example.txtar runs), byte for
// byte, so the documentation cannot drift from a policy that loads.
func TestPolicyExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("testdata/policy-example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "### Policy: `--policy FILE`")
	if ok {
		_, rest, ok = strings.Cut(rest, "```yaml\n")
	}
	block, _, ok2 := strings.Cut(rest, "```\n")
	if !ok || !ok2 {
		t.Fatal("README: no yaml block under \"Policy: --policy FILE\"")
	}
	if block != string(example) {
		t.Errorf("README's example policy and testdata/policy-example.yaml differ:\n%s\n---\n%s", block, example)
	}
}

// TestAttackScriptsNowhere runs the attack tests a second time with the
// sandbox's working directory and HOME at paths that do not exist on the
// host: `sandsh` is a wrapper around sandsh-nowhere there.
func TestAttackScriptsNowhere(t *testing.T) {
	files, err := filepath.Glob("testdata/attack_*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no attack scripts: %v", err)
	}
	// The wrapper is written once, before the parallel scripts start:
	// written per script, a sibling's fork could inherit the descriptor
	// still open for writing and the exec would fail with "text file busy".
	bin := t.TempDir()
	wrapper := "#!/bin/sh\nexec sandsh-nowhere \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "sandsh"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, scriptParams("", files, func(env *testscript.Env) error {
		env.Setenv("PATH", bin+string(os.PathListSeparator)+env.Getenv("PATH"))
		return nil
	}))
}

// raceBuild reports whether this binary was built with -race.
func raceBuild() bool {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" {
				return s.Value == "true"
			}
		}
	}
	return false
}

// locksKey holds a script's lockfile locks.
type locksKey struct{}

func scriptParams(dir string, files []string, setup ...func(*testscript.Env) error) testscript.Params {
	return testscript.Params{
		Dir:   dir,
		Files: files,
		Setup: func(env *testscript.Env) error {
			env.Setenv("SANDSH_CANARY", "host-secret-canary")
			env.Values[hitsKey{}] = new(hitsHolder)
			env.Values[locksKey{}] = map[string]*os.File{}
			for _, s := range setup {
				if err := s(env); err != nil {
					return err
				}
			}
			return nil
		},
		// [race]: this test binary, and so the worker it starts, has the
		// race detector, which multiplies memory use.
		// [need:PROG]: the host has PROG, a program the script compares
		// with; in CI a missing one is an error, not a skip (see
		// internal/suite), so `[!need:bash] skip` cannot go unnoticed.
		Condition: func(cond string) (bool, error) {
			if cond == "race" {
				return raceBuild(), nil
			}
			if prog, ok := strings.CutPrefix(cond, "need:"); ok {
				if _, err := exec.LookPath(prog); err == nil {
					return true, nil
				}
				if suite.Required(prog) {
					return false, fmt.Errorf("CI=true and %s is missing, so this script cannot run", prog)
				}
				return false, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// status N cmd args... runs cmd and checks its exit status.
			"status": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) < 2 {
					ts.Fatalf("usage: status N command [args...]")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("status: %v", err)
				}
				err = ts.Exec(args[1], args[2:]...)
				got := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					got = ee.ExitCode()
				} else if err != nil {
					ts.Fatalf("status: %v", err)
				}
				if (got == want) == neg {
					ts.Fatalf("exit status %d, want %d", got, want)
				}
			},
			// lockfile FILE takes an flock on FILE (created if needed)
			// and holds it until unlockfile FILE or the script's end, as
			// another run holding a --state lock would.
			"lockfile": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 || neg {
					ts.Fatalf("usage: lockfile FILE")
				}
				f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_RDWR|os.O_CREATE, 0o600)
				if err != nil {
					ts.Fatalf("lockfile: %v", err)
				}
				if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
					ts.Fatalf("lockfile: %v", err)
				}
				ts.Defer(func() { f.Close() })
				ts.Value(locksKey{}).(map[string]*os.File)[ts.MkAbs(args[0])] = f
			},
			"unlockfile": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 || neg {
					ts.Fatalf("usage: unlockfile FILE (after lockfile FILE)")
				}
				held := ts.Value(locksKey{}).(map[string]*os.File)
				f := held[ts.MkAbs(args[0])]
				if f == nil {
					ts.Fatalf("unlockfile %s: not locked", args[0])
				}
				delete(held, ts.MkAbs(args[0]))
				f.Close()
			},
			// findings json|sarif FILE N: FILE holds `sandsh check
			// --format json|sarif` output with N findings, each
			// checked field by field (SARIF 2.1.0's required ones).
			"findings": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 3 || neg {
					ts.Fatalf("usage: findings json|sarif FILE N")
				}
				n, err := strconv.Atoi(args[2])
				if err != nil {
					ts.Fatalf("N: %v", err)
				}
				data := []byte(ts.ReadFile(args[1]))
				var got int
				switch args[0] {
				case "json":
					got, err = checkFindingsJSON(data)
				case "sarif":
					got, err = checkSARIF(data)
				default:
					ts.Fatalf("usage: findings json|sarif FILE N")
				}
				if err != nil {
					ts.Fatalf("%s: %v", args[1], err)
				}
				if got != n {
					ts.Fatalf("%s: %d findings, want %d", args[1], got, n)
				}
			},
			// httpserver starts an HTTP server on 127.0.0.1 for the
			// network tests and sets $SRV to its host:port (see
			// netServer); httphits N checks how many requests reached it
			// since the last httphits.
			"httpserver": func(ts *testscript.TestScript, neg bool, args []string) {
				srv, hits, auth := netServer()
				ts.Defer(srv.Close)
				hp := strings.TrimPrefix(srv.URL, "http://")
				ts.Setenv("SRV", hp)
				ts.Setenv("SRV_PORT", hp[strings.LastIndexByte(hp, ':')+1:])
				ts.Value(hitsKey{}).(*hitsHolder).hits = hits
				ts.Value(hitsKey{}).(*hitsHolder).auth = auth
			},
			// httpauth VALUE: the Authorization headers the server got
			// (on /auth), in order, are VALUE ("none" for a request
			// without one; several joined by commas).
			"httpauth": func(ts *testscript.TestScript, neg bool, args []string) {
				h := ts.Value(hitsKey{}).(*hitsHolder)
				if len(args) != 1 || h.auth == nil {
					ts.Fatalf("usage: httpauth VALUE (after httpserver)")
				}
				h.auth.mu.Lock()
				got := strings.Join(h.auth.seen, ",")
				h.auth.seen = nil
				h.auth.mu.Unlock()
				if (got == args[0]) == neg {
					ts.Fatalf("the server got Authorization %q, want %q", got, args[0])
				}
			},
			"httphits": func(ts *testscript.TestScript, neg bool, args []string) {
				want, err := strconv.ParseInt(args[0], 10, 64)
				if len(args) != 1 || err != nil {
					ts.Fatalf("usage: httphits N")
				}
				hits := ts.Value(hitsKey{}).(*hitsHolder).hits
				if hits == nil {
					ts.Fatalf("httphits: no httpserver")
				}
				if got := hits.Swap(0); (got == want) == neg {
					ts.Fatalf("the server had %d requests, want %d", got, want)
				}
			},
			// auditlog FILE reads an audit log and checks every line:
			// JSON, schema version 1, seq 1, 2, 3, …, an event name,
			// run_start first and run_end last.
			"auditlog": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 || neg {
					ts.Fatalf("usage: auditlog FILE")
				}
				lines := strings.Split(strings.TrimSuffix(ts.ReadFile(args[0]), "\n"), "\n")
				started := map[float64]string{} // command_start's cmd → name
				startSeqs := map[float64]bool{} // every command_start's seq
				for i, line := range lines {
					var cmd struct {
						Event  string   `json:"event"`
						Cmd    float64  `json:"cmd"`
						Name   string   `json:"name"`
						Seq    float64  `json:"seq"`
						CmdSeq *float64 `json:"cmd_seq"`
					}
					json.Unmarshal([]byte(line), &cmd)
					if cmd.CmdSeq != nil && !startSeqs[*cmd.CmdSeq] {
						ts.Fatalf("line %d: cmd_seq %v names no earlier command_start", i+1, *cmd.CmdSeq)
					}
					switch cmd.Event {
					case "command_start":
						if _, dup := started[cmd.Cmd]; dup {
							ts.Fatalf("line %d: cmd %v started twice", i+1, cmd.Cmd)
						}
						started[cmd.Cmd] = cmd.Name
						startSeqs[cmd.Seq] = true
					case "command_exit":
						if name, ok := started[cmd.Cmd]; !ok || name != cmd.Name {
							ts.Fatalf("line %d: exit of cmd %v (%s) that did not start", i+1, cmd.Cmd, cmd.Name)
						}
						delete(started, cmd.Cmd)
					}
					var ev struct {
						V     *int    `json:"v"`
						Seq   *int64  `json:"seq"`
						Event string  `json:"event"`
						Time  *string `json:"time"`
					}
					if err := json.Unmarshal([]byte(line), &ev); err != nil {
						ts.Fatalf("line %d: %v: %s", i+1, err, line)
					}
					if ev.V == nil || *ev.V != 1 || ev.Seq == nil || *ev.Seq != int64(i+1) || ev.Event == "" || ev.Time == nil {
						ts.Fatalf("line %d: bad envelope: %s", i+1, line)
					}
					if _, err := time.Parse(time.RFC3339Nano, *ev.Time); err != nil {
						ts.Fatalf("line %d: time: %v", i+1, err)
					}
					if err := checkAuditFields([]byte(line)); err != nil {
						ts.Fatalf("line %d: %v: %s", i+1, err, line)
					}
				}
				if !strings.Contains(lines[0], `"event":"run_start"`) || !strings.Contains(lines[len(lines)-1], `"event":"run_end"`) {
					ts.Fatalf("the log must start with run_start and end with run_end")
				}
				// Every log is one hash chain (prev), whole.
				if _, _, err := sandbox.VerifyAudit(strings.NewReader(ts.ReadFile(args[0]))); err != nil {
					ts.Fatalf("audit chain: %v", err)
				}
			},
		},
	}
}

// TestJailScripts runs testdata/jail/*.txtar once per jail backend this
// host has: the same tests must pass on each.
func TestJailScripts(t *testing.T) {
	backends := []string{"ns"}
	if err := jail.BwrapUsable(); err == nil {
		backends = append(backends, "bwrap")
	} else {
		suite.MissingBwrap(t, errors.Is(err, jail.ErrBwrapOld), "%s: %v", "the second jail backend's run of testdata/jail", err)
	}
	for _, b := range backends {
		t.Run(b, func(t *testing.T) {
			p := scriptParams("testdata/jail", nil, func(env *testscript.Env) error {
				env.Setenv("SANDSH_JAIL_BACKEND", b)
				return nil
			})
			// [bwrap]: what only sandsh's own backend can tell (bwrap
			// turns a program's death by a signal into an exit status).
			cond := p.Condition
			p.Condition = func(c string) (bool, error) {
				if c == "bwrap" {
					return b == "bwrap", nil
				}
				return cond(c)
			}
			testscript.Run(t, p)
		})
	}
}

// auditSchema lists, per event of the audit log (README, "Audit log"),
// the fields every such event carries and their JSON types; denied events
// carry one of three sets (a command, a file operation, a script).
// Events not listed (another feature's) are only checked for the
// envelope.
var auditSchema = map[string][]map[string]string{
	"run_start":     {{"argv": "array", "limits": "object"}},
	"command_start": {{"cmd": "number", "name": "string", "argv": "array", "kind": "string", "route": "string", "via": "array", "decision": "string", "rule": "string"}},
	"command_exit":  {{"cmd": "number", "name": "string", "argv": "array", "kind": "string", "route": "string", "via": "array", "decision": "string", "rule": "string", "status": "number", "duration_ms": "number"}},
	"denied": {
		{"name": "string", "argv": "array", "kind": "string", "via": "array", "decision": "string", "rule": "string", "message": "string"},
		{"op": "string", "path": "string", "access": "string", "decision": "string", "rule": "string", "message": "string"},
		{"script": "string", "line": "number", "decision": "string", "rule": "string", "message": "string"},
	},
	"file":         {{"op": "string", "path": "string"}},
	"limit":        {{"limit": "string", "detail": "string"}},
	"run_end":      {{"status": "number", "duration_ms": "number"}},
	"net":          {{"method": "string", "url": "string", "status": "number", "bytes": "number", "decision": "string"}},
	"audit_failed": {{"reason": "string", "unwritten_seq": "number"}},
	"audit_lost":   {{"lost": "array"}},
}

func checkAuditFields(line []byte) error {
	var ev map[string]any
	if err := json.Unmarshal(line, &ev); err != nil {
		return err
	}
	shapes, ok := auditSchema[ev["event"].(string)]
	if !ok {
		return nil
	}
	var errs []string
	for _, shape := range shapes {
		var missing []string
		for k, typ := range shape {
			if jsonType(ev[k]) != typ {
				missing = append(missing, k+" ("+typ+")")
			}
		}
		if len(missing) == 0 {
			if op, _ := ev["op"].(string); ev["event"] == "file" && (op == "create" || op == "write") && ev["to"] == nil && jsonType(ev["size"]) != "number" {
				return fmt.Errorf("file %s without a size", op)
			}
			return nil
		}
		slices.Sort(missing)
		errs = append(errs, strings.Join(missing, ", "))
	}
	return fmt.Errorf("%s event lacks %s", ev["event"], strings.Join(errs, " or "))
}

func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case bool:
		return "bool"
	case nil:
		return "missing"
	}
	return "?"
}

// checkFindingsJSON validates `sandsh check --format json`: an array of
// {file, line, column, end: {line, column}, severity, code, message}.
func checkFindingsJSON(data []byte) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var fs []struct {
		File   *string `json:"file"`
		Line   *int    `json:"line"`
		Column *int    `json:"column"`
		End    *struct {
			Line   *int `json:"line"`
			Column *int `json:"column"`
		} `json:"end"`
		Severity *string `json:"severity"`
		Code     *string `json:"code"`
		Message  *string `json:"message"`
	}
	if err := dec.Decode(&fs); err != nil {
		return 0, err
	}
	for i, f := range fs {
		switch {
		case f.File == nil || *f.File == "", f.Line == nil || *f.Line < 1, f.Column == nil || *f.Column < 1,
			f.End == nil || f.End.Line == nil || f.End.Column == nil || *f.End.Line < *f.Line,
			f.Code == nil || *f.Code == "", f.Message == nil || *f.Message == "":
			return 0, fmt.Errorf("finding %d: a field is missing or out of range", i)
		case f.Severity == nil || !slices.Contains([]string{"error", "warning", "info"}, *f.Severity):
			return 0, fmt.Errorf("finding %d: severity %v", i, f.Severity)
		}
	}
	return len(fs), nil
}

// checkSARIF validates the parts of a SARIF 2.1.0 log that the standard
// requires and code-scanning services read: version, runs, each run's
// tool.driver.name and rules, each result's message.text, ruleId and
// ruleIndex agreeing with the rules, level, and a physical location
// with a URI and a region starting at line 1 or later.
func checkSARIF(data []byte) (int, error) {
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool *struct {
				Driver *struct {
					Name  string `json:"name"`
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results *[]struct {
				RuleID    string `json:"ruleId"`
				RuleIndex *int   `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   *struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation *struct {
						ArtifactLocation *struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region *struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		return 0, err
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif") || len(log.Runs) == 0 {
		return 0, fmt.Errorf("version %q, $schema %q, %d runs", log.Version, log.Schema, len(log.Runs))
	}
	n := 0
	for _, run := range log.Runs {
		if run.Tool == nil || run.Tool.Driver == nil || run.Tool.Driver.Name == "" {
			return 0, fmt.Errorf("run without tool.driver.name")
		}
		if run.Results == nil {
			return 0, fmt.Errorf("run without results")
		}
		rules := run.Tool.Driver.Rules
		for i, r := range *run.Results {
			switch {
			case r.Message == nil || r.Message.Text == "":
				return 0, fmt.Errorf("result %d: no message.text", i)
			case r.RuleID == "" || r.RuleIndex == nil || *r.RuleIndex < 0 || *r.RuleIndex >= len(rules) || rules[*r.RuleIndex].ID != r.RuleID:
				return 0, fmt.Errorf("result %d: ruleId %q and ruleIndex %v disagree with the rules", i, r.RuleID, r.RuleIndex)
			case !slices.Contains([]string{"none", "note", "warning", "error"}, r.Level):
				return 0, fmt.Errorf("result %d: level %q", i, r.Level)
			case len(r.Locations) == 0:
				return 0, fmt.Errorf("result %d: no location", i)
			}
			for _, l := range r.Locations {
				pl := l.PhysicalLocation
				if pl == nil || pl.ArtifactLocation == nil || pl.ArtifactLocation.URI == "" || pl.Region == nil || pl.Region.StartLine < 1 || pl.Region.StartColumn < 1 {
					return 0, fmt.Errorf("result %d: bad physicalLocation", i)
				}
			}
			n++
		}
	}
	return n, nil
}

type hitsKey struct{}

// hitsHolder is where httpserver leaves its request counter for httphits.
type hitsHolder struct {
	hits *atomic.Int64
	auth *seenAuth
}

// seenAuth is what the server's /auth got in the Authorization header;
// it answers only "auth checked", so the value never flows back.
type seenAuth struct {
	mu   sync.Mutex
	seen []string
}

// netServer is the network tests' server: /hello, /echo (method, the
// X-Test header, the body), /status/404, /redirect?to=URL, /big (1 MiB).
// Like most servers it normalises a path before it routes (decodes it,
// takes a backslash for a slash, drops path parameters, resolves dot
// segments): /secret answers SECRET and anything under /v1/ "v1 PATH",
// for the path-prefix tests. Every request counts in hits.
func netServer() (*httptest.Server, *atomic.Int64, *seenAuth) {
	hits := new(atomic.Int64)
	auth := new(seenAuth)
	mux := http.NewServeMux()
	mux.HandleFunc("/auth", func(w http.ResponseWriter, r *http.Request) {
		v := r.Header.Get("Authorization")
		if v == "" {
			v = "none"
		}
		auth.mu.Lock()
		auth.seen = append(auth.seen, v)
		auth.mu.Unlock()
		io.WriteString(w, "auth checked\n")
	})
	mux.HandleFunc("/hello", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello\n") })
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%s %s x=%s ct=%s body=%s\n", r.Method, r.URL.RequestURI(), r.Header.Get("X-Test"), r.Header.Get("Content-Type"), b)
	})
	mux.HandleFunc("/status/404", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "nope", 404) })
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { w.Write(make([]byte, 1<<20)) })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		segs := strings.Split(strings.ReplaceAll(r.URL.Path, `\`, "/"), "/")
		for i, s := range segs {
			segs[i], _, _ = strings.Cut(s, ";")
		}
		switch p := path.Clean("/" + strings.Join(segs, "/")); {
		case p == "/secret":
			io.WriteString(w, "SECRET\n")
			return
		case strings.HasPrefix(p, "/v1/"):
			io.WriteString(w, "v1 "+p+"\n")
			return
		}
		mux.ServeHTTP(w, r)
	}))
	return srv, hits, auth
}
