package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// hostCalls are the os functions that reach the host filesystem,
// environment or process table. Only vfs/ and cmd/ may call them (and the
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

// TestHostBoundary fails if code outside the allowed packages imports
// os/exec or calls os functions that touch the host.
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
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if p == "os/exec" && top != "restrict" {
				t.Errorf("%s imports os/exec: only restrict/ may start host processes", path)
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
		// jail/ builds the jail for allowlisted host programs (--allow-run):
		// it resolves the program and the read-only paths on the host and,
		// as the jail's init, mounts and writes inside the jail's own tree.
		if osName == "" || top == "vfs" || top == "cmd" || top == "jail" || path == "main.go" {
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
