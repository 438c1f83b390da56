package builtins

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/sandsh/sandsh/internal/suite"
	"github.com/sandsh/sandsh/vfs"
)

// dataFSCase is a differential case that also compares the files the
// command leaves behind (for patch, tar, gzip, unzip...).
type dataFSCase struct {
	Name  string
	Files map[string]string
	Stdin string
	Args  []string
	// Script runs several commands in sequence (each a command line);
	// when set, Args is ignored and only the final tree and the last
	// status are compared.
	Script [][]string
	// SkipStdout, when set, says why stdout cannot be GNU's (archive
	// bytes, timestamps).
	SkipStdout string
	// Ignore lists file names (globs on the base name) not compared.
	Ignore []string
}

func dataHostTree(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out[rel] = "-> " + l
		case d.IsDir():
			out[rel+"/"] = ""
		default:
			b, _ := os.ReadFile(p)
			out[rel] = string(b)
		}
		return nil
	})
	return out
}

func dataSandboxTree(t *testing.T, env *Env) map[string]string {
	out := map[string]string{}
	root := env.Dir
	afero.Walk(env.FS, root, func(p string, fi fs.FileInfo, err error) error {
		if err != nil || p == root {
			return nil
		}
		rel := strings.TrimPrefix(p, root+"/")
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			l, _ := env.FS.ReadlinkIfPossible(p)
			out[rel] = "-> " + l
		case fi.IsDir():
			out[rel+"/"] = ""
		default:
			b, _ := afero.ReadFile(env.FS, p)
			out[rel] = string(b)
		}
		return nil
	})
	return out
}

func dataIgnored(name string, globs []string) bool {
	for _, g := range globs {
		if ok, _ := filepath.Match(g, filepath.Base(strings.TrimSuffix(name, "/"))); ok {
			return true
		}
	}
	return false
}

func runDataFSDiff(t *testing.T, cases []dataFSCase) {
	t.Helper()
	for _, c := range cases {
		script := c.Script
		if script == nil {
			script = [][]string{c.Args}
		}
		name := c.Name
		if name == "" {
			name = strings.Join(script[len(script)-1], " ")
		}
		t.Run(name, func(t *testing.T) {
			for _, line := range script {
				if _, err := exec.LookPath(line[0]); err != nil {
					suite.Skip(t, line[0], "the differential test runs the host's %s", line[0])
				}
			}
			dir := t.TempDir()
			for fname, data := range c.Files {
				p := filepath.Join(dir, fname)
				if strings.HasSuffix(fname, "/") {
					os.MkdirAll(p, 0o755)
					continue
				}
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			env := testEnv(t, c.Files)
			env.Environ = append(env.Environ, "TZ=UTC")
			var hout, herr bytes.Buffer
			var got result
			hstatus := 0
			for _, line := range script {
				hout.Reset()
				herr.Reset()
				cmd := exec.Command(line[0], line[1:]...)
				cmd.Dir = dir
				cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=" + dir, "TZ=UTC"}
				cmd.Stdin = strings.NewReader(c.Stdin)
				cmd.Stdout, cmd.Stderr = &hout, &herr
				err := cmd.Run()
				hstatus = 0
				if ee, ok := err.(*exec.ExitError); ok {
					hstatus = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				got = run(t, env, c.Stdin, line...)
			}
			if c.SkipStdout == "" && got.Stdout != hout.String() {
				t.Errorf("stdout differs\nhost:\n%s\nsandsh:\n%s", hout.String(), got.Stdout)
			}
			if got.Status != hstatus {
				t.Errorf("status: host %d, sandsh %d (stderr %q / %q)", hstatus, got.Status, herr.String(), got.Stderr)
			}
			if (got.Stderr == "") != (herr.Len() == 0) {
				t.Errorf("stderr emptiness differs: host %q, sandsh %q", herr.String(), got.Stderr)
			}
			ht, st := dataHostTree(t, dir), dataSandboxTree(t, env)
			var names []string
			for n := range ht {
				names = append(names, n)
			}
			for n := range st {
				if _, ok := ht[n]; !ok {
					names = append(names, n)
				}
			}
			sort.Strings(names)
			for _, n := range names {
				if dataIgnored(n, c.Ignore) {
					continue
				}
				h, hok := ht[n]
				s, sok := st[n]
				switch {
				case !hok:
					t.Errorf("sandsh left %s, host did not", n)
				case !sok:
					t.Errorf("host left %s, sandsh did not", n)
				case h != s:
					t.Errorf("%s differs\nhost:   %q\nsandsh: %q", n, h, s)
				}
			}
		})
	}
}

var _ = vfs.WorkDir
