package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hostCalls are the os functions that reach the host filesystem,
// environment or process table. Only vfs/, cmd/ and worker/ may call them (and the
// gateway in restrict/, for host programs in unrestricted mode and the
// jail's processes, and jail/, which builds the jail for --allow-run).
var hostCalls = map[string]bool{
	"Open": true, "OpenFile": true, "Create": true, "ReadFile": true, "WriteFile": true,
	"Stat": true, "Lstat": true, "ReadDir": true, "Mkdir": true, "MkdirAll": true, "MkdirTemp": true,
	"CreateTemp": true, "Remove": true, "RemoveAll": true, "Rename": true, "Chmod": true, "Chown": true,
	"Lchown": true, "Chtimes": true, "Chdir": true, "Getwd": true, "Symlink": true, "Readlink": true,
	"Link": true, "Truncate": true, "DirFS": true, "OpenRoot": true, "OpenInRoot": true, "TempDir": true,
	"UserHomeDir": true, "UserConfigDir": true, "UserCacheDir": true, "Getenv": true, "LookupEnv": true,
	"Environ": true, "Setenv": true, "Unsetenv": true, "Clearenv": true, "ExpandEnv": true, "Hostname": true,
	"Getpid": true, "Getppid": true, "Getuid": true, "Geteuid": true, "Getgid": true, "StartProcess": true,
	"FindProcess": true, "Executable": true, "CopyFS": true,
}

// netImports reach the network; only netgate/ may import them (policy/
// parses allow entries with net/netip and net/url, which open nothing).
var netImports = map[string]bool{
	"net": true, "net/http": true, "net/http/httptrace": true, "net/http/httputil": true, "net/rpc": true,
	"net/rpc/jsonrpc": true, "net/smtp": true, "crypto/tls": true, "golang.org/x/net/proxy": true,
}

// socketCalls open or connect sockets without package net (Unix socket
// pairs and fd passing, which reach nothing outside, are not in it).
var socketCalls = map[string]bool{"Socket": true, "Connect": true}

// TestHostBoundary fails if code outside the allowed packages imports
// os/exec or calls os functions that touch the host, or reaches the
// network outside netgate/.
func TestHostBoundary(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			// bench/ holds tools that drive the built sandsh from the
			// outside, as its users do (an MCP client, a person at a
			// pty); no package of sandsh imports them.
			if path == "bench" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		top := strings.Split(filepath.ToSlash(path), "/")[0]
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		osName := ""
		var sysNames []string
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if p == "os/exec" && top != "restrict" {
				t.Errorf("%s imports os/exec: only restrict/ may start host processes", path)
			}
			// mcpserver/http.go serves `sandsh mcp --http`: it listens
			// for MCP clients and never connects out; a script reaches
			// the network through netgate/ alone.
			if netImports[p] && top != "netgate" && filepath.ToSlash(path) != "mcpserver/http.go" {
				t.Errorf("%s imports %s: only netgate/ may reach the network", path, p)
			}
			if p == "syscall" || p == "golang.org/x/sys/unix" {
				sysNames = append(sysNames, importName(imp.Name, path2base(p)))
			}
			if p == "github.com/sandsh/sandsh/internal/suite" {
				t.Errorf("%s imports internal/suite, which only tests may use", path)
			}
			if p == "io/ioutil" && top != "vfs" && top != "cmd" {
				t.Errorf("%s imports io/ioutil, which reaches the host filesystem", path)
			}
			if p == "os" {
				osName = "os"
				if imp.Name != nil {
					osName = imp.Name.Name
				}
			}
		}
		// jail/'s init opens an AF_INET socket only to bring up the
		// loopback of the jail's own, empty network namespace.
		if top != "netgate" && top != "jail" && len(sysNames) > 0 {
			full, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(full, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && slices.Contains(sysNames, id.Name) && socketCalls[sel.Sel.Name] {
						t.Errorf("%s: %s.%s opens a socket; only netgate/ reaches the network", fset.Position(sel.Pos()), id.Name, sel.Sel.Name)
					}
				}
				return true
			})
		}
		// jail/ builds the jail for allowlisted host programs (--allow-run):
		// it resolves the program and the read-only paths on the host and,
		// as the jail's init, mounts and writes inside the jail's own tree.
		// worker/ is the host side of a run (the supervisor, which the
		// walls do not cover: it reads the script file, the policy, the
		// --state file and --import directory, writes the state, exports
		// and the audit log, and starts the worker from its executable).
		// What runs the script is the worker process, confined by
		// Landlock and seccomp before it reads its first script byte.
		// internal/suite, used only by tests, reads CI from the
		// environment. hostfile/ opens the host files sandsh reads and
		// writes for the operator (script, --policy, --state, --audit,
		// --history-file, --export-tar): regular files only, never
		// through a final symlink when writing, never blocking on a FIFO.
		if osName == "" || top == "vfs" || top == "cmd" || top == "jail" || top == "worker" || top == "hostfile" || path == "main.go" ||
			strings.HasPrefix(filepath.ToSlash(path), "internal/suite/") {
			return nil
		}
		full, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(full, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == osName && hostCalls[sel.Sel.Name] {
				if top == "restrict" && (sel.Sel.Name == "Stat") {
					return true // host lookups for unrestricted mode live in the gateway
				}
				if top == "restrict" && (sel.Sel.Name == "StartProcess" || sel.Sel.Name == "Getuid" || sel.Sel.Name == "Getgid") {
					return true // the gateway starts the jail's processes (jail_linux.go)
				}
				if filepath.ToSlash(path) == "third_party/go-landlock/landlock/bug39_workaround.go" && sel.Sel.Name == "Getpid" {
					return true // names /proc/PID/task for a Landlock rule, as before it was vendored
				}
				if filepath.ToSlash(path) == "third_party/jsonschema-go/jsonschema/infer.go" && sel.Sel.Name == "Getenv" {
					return true // upstream's own debug switch (JSONSCHEMAGODEBUG), as before it was vendored
				}
				t.Errorf("%s: os.%s touches the host; go through vfs.FS or the gateway", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func importName(name *ast.Ident, def string) string {
	if name != nil {
		return name.Name
	}
	return def
}

func path2base(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }
