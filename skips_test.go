package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoSilentSkips: a test skips only through internal/suite (Skip,
// Missing; the testscript condition [!need:PROG]), which fails it in CI unless
// suite.Allowed lists what is missing. A direct t.Skip, or a testscript
// `skip`, would let a CI run go green with a wall or an oracle untested.
func TestNoSilentSkips(t *testing.T) {
	fset := token.NewFileSet()
	skipLine := regexp.MustCompile(`(?m)^\s*((\[[^]]*\]\s*)*)skip\b`)
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "third_party") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".txtar") {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			script, _, _ := strings.Cut(string(data), "\n-- ")
			for _, m := range skipLine.FindAllStringSubmatchIndex(script, -1) {
				if !strings.Contains(script[m[2]:m[3]], "[!need:") {
					t.Errorf("%s:%d: testscript skip not under [!need:PROG] (which fails in CI)", path, 1+strings.Count(script[:m[0]], "\n"))
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") || strings.HasPrefix(filepath.ToSlash(path), "internal/suite/") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name != "suite" {
					switch sel.Sel.Name {
					case "Skip", "Skipf", "SkipNow":
						t.Errorf("%s: %s.%s: skip through suite.Skip, which fails in CI unless suite.Allowed lists the reason", fset.Position(call.Pos()), id.Name, sel.Sel.Name)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
