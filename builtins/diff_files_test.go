package builtins

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/sandsh/sandsh/internal/suite"
	"github.com/sandsh/sandsh/vfs"
)

// filesFSCase is a differential case for commands that change the
// filesystem: Setup command lines run first on both sides, then Args;
// stdout, status, stderr-emptiness and the resulting tree (names, types,
// permissions, contents and link targets) are compared with GNU's.
type filesFSCase struct {
	Name  string
	Files map[string]string
	Setup [][]string
	Args  []string
	Stdin string
	// SkipStdout, when set, says why stdout cannot be GNU's.
	SkipStdout string
	// NoTree skips the tree comparison (for commands that only read).
	NoTree bool
	// Sort compares stdout as sorted lines, for tools that list a
	// directory in the host's readdir order (find, du, cp -v ...).
	Sort bool
}

func filesRunDiffFS(t *testing.T, cases []filesFSCase) {
	t.Helper()
	for _, c := range cases {
		name := c.Name
		if name == "" {
			name = strings.Join(c.Args, " ")
		}
		t.Run(name, func(t *testing.T) {
			if _, err := exec.LookPath(c.Args[0]); err != nil {
				suite.Skip(t, c.Args[0], "the differential test runs the host's GNU %s", c.Args[0])
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
			hostEnv := []string{"LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=" + dir, "TZ=UTC"}
			for _, s := range c.Setup {
				cmd := exec.Command(s[0], s[1:]...)
				cmd.Dir, cmd.Env = dir, hostEnv
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("host setup %q: %v %s", s, err, out)
				}
			}
			cmd := exec.Command(c.Args[0], c.Args[1:]...)
			cmd.Dir, cmd.Env = dir, hostEnv
			cmd.Stdin = strings.NewReader(c.Stdin)
			var hout, herr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &hout, &herr
			err := cmd.Run()
			hstatus := 0
			if ee, ok := err.(*exec.ExitError); ok {
				hstatus = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}

			env := testEnv(t, c.Files)
			env.Environ = append(env.Environ, "TZ=UTC")
			// The host's tools see the real clock, as do the memory
			// filesystem's timestamps.
			env.Sys.Now = time.Now
			for _, s := range c.Setup {
				if r := run(t, env, "", s...); r.Status != 0 {
					if errors.Is(filesSymlinkProbe(env), afero.ErrNoSymlink) {
						suite.Skip(t, "symlinks", "the host filesystem has none")
					}
					t.Fatalf("sandbox setup %q: %d %s", s, r.Status, r.Stderr)
				}
			}
			got := run(t, env, c.Stdin, c.Args...)
			hostOut := hout.String()
			if c.Sort {
				hostOut, got.Stdout = filesSortLines(hostOut), filesSortLines(got.Stdout)
			}
			if c.SkipStdout == "" && got.Stdout != hostOut {
				t.Errorf("stdout differs\nhost:\n%s\nsandsh:\n%s", hostOut, got.Stdout)
			}
			if got.Status != hstatus {
				t.Errorf("status: host %d, sandsh %d (stderr %q / %q)", hstatus, got.Status, herr.String(), got.Stderr)
			}
			if (got.Stderr == "") != (herr.Len() == 0) {
				t.Errorf("stderr emptiness differs: host %q, sandsh %q", herr.String(), got.Stderr)
			}
			if c.NoTree {
				return
			}
			want, err := filesHostTree(dir)
			if err != nil {
				t.Fatal(err)
			}
			have := filesMemTree(t, env.FS, vfs.WorkDir)
			if want != have {
				t.Errorf("tree differs\nhost:\n%s\nsandsh:\n%s", want, have)
			}
		})
	}
}

func filesSortLines(s string) string {
	sep := "\n"
	if strings.Contains(s, "\x00") {
		sep = "\x00"
	}
	lines := strings.SplitAfter(s, sep)
	sort.Strings(lines)
	return strings.Join(lines, "")
}

// filesSymlinkProbe tries to make a symlink, telling whether the test
// filesystem supports them.
func filesSymlinkProbe(env *Env) error {
	p := "/tmp/.symlink-probe"
	err := env.FS.SymlinkIfPossible("x", p)
	if err == nil {
		env.FS.Remove(p)
	}
	return err
}

// filesSkipNoSymlinks skips a test on a filesystem without symlinks.
func filesSkipNoSymlinks(t *testing.T, env *Env) {
	t.Helper()
	if err := filesSymlinkProbe(env); errors.Is(err, afero.ErrNoSymlink) {
		suite.Skip(t, "symlinks", "the host filesystem has none")
	}
}

func filesTreeLine(rel string, mode fs.FileMode, data []byte, target string) string {
	switch {
	case mode&fs.ModeSymlink != 0:
		return fmt.Sprintf("l %s -> %s", rel, target)
	case mode.IsDir():
		return fmt.Sprintf("d %04o %s", filesUnixPerm(mode), rel)
	}
	sum := sha256.Sum256(data)
	show := string(data)
	if len(show) > 40 {
		show = fmt.Sprintf("%x", sum[:8])
	}
	return fmt.Sprintf("f %04o %s %q", filesUnixPerm(mode), rel, show)
}

func filesUnixPerm(m fs.FileMode) uint32 {
	u := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		u |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		u |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		u |= 0o1000
	}
	return u
}

func filesHostTree(root string) (string, error) {
	var lines []string
	err := filepath.Walk(root, func(p string, fi fs.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			return nil
		}
		var data []byte
		var target string
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ = os.Readlink(p)
		case fi.Mode().IsRegular():
			data, _ = os.ReadFile(p)
		}
		lines = append(lines, filesTreeLine(rel, fi.Mode(), data, target))
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n"), err
}

func filesMemTree(t *testing.T, fsys vfs.FS, root string) string {
	var lines []string
	var walk func(dir, rel string)
	walk = func(dir, rel string) {
		list, err := filesReadDir(fsys, dir)
		if err != nil {
			t.Fatalf("read %s: %v", dir, err)
		}
		for _, fi := range list {
			p, r := path.Join(dir, fi.Name()), path.Join(rel, fi.Name())
			var data []byte
			var target string
			switch {
			case fi.Mode()&fs.ModeSymlink != 0:
				target, _ = fsys.ReadlinkIfPossible(p)
			case fi.Mode().IsRegular():
				data, _ = afero.ReadFile(fsys, p)
			}
			lines = append(lines, filesTreeLine(r, fi.Mode(), data, target))
			if fi.IsDir() {
				walk(p, r)
			}
		}
	}
	walk(root, "")
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// Fixtures shared by the cases below.
var (
	filesTwo   = map[string]string{"a": "alpha\n", "b": "beta\nbeta2\n"}
	filesTree1 = map[string]string{"d/x": "x\n", "d/y": "yy\n", "d/sub/z": "zzz\n", "d/.hid": "h\n", "f": "file\n"}
	filesText  = map[string]string{"t": "one\n\n\n\ntwo\tx\n\x01\x7f\x80\xff end\r\n\nlast"}
)

func TestDiffFilesCat(t *testing.T) {
	runDiff(t, []diffCase{
		{Files: filesTwo, Args: []string{"cat", "a", "b"}},
		{Files: filesTwo, Args: []string{"cat", "a", "-", "b"}, Stdin: "in\n"},
		{Files: filesTwo, Args: []string{"cat"}, Stdin: "just stdin"},
		{Files: filesTwo, Args: []string{"cat", "nofile", "a"}},
		{Files: filesTree1, Args: []string{"cat", "d", "f"}},
		{Files: filesText, Args: []string{"cat", "-n", "t"}},
		{Files: filesText, Args: []string{"cat", "-b", "t"}},
		{Files: filesText, Args: []string{"cat", "-s", "t"}},
		{Files: filesText, Args: []string{"cat", "-sn", "t", "t"}},
		{Files: filesText, Args: []string{"cat", "-E", "t"}},
		{Files: filesText, Args: []string{"cat", "-T", "t"}},
		{Files: filesText, Args: []string{"cat", "-A", "t"}},
		{Files: filesText, Args: []string{"cat", "-v", "t"}},
		{Files: filesText, Args: []string{"cat", "-e", "t"}},
		{Files: filesText, Args: []string{"cat", "-t", "t"}},
		{Files: filesText, Args: []string{"cat", "--number", "--show-ends", "t"}},
		{Files: filesText, Args: []string{"cat", "-bn", "t"}},
		{Files: filesTwo, Args: []string{"cat", "-n", "a", "b", "a"}},
		{Files: map[string]string{"a": "no newline", "b": "next\n"}, Args: []string{"cat", "-n", "a", "b"}},
		{Files: filesTwo, Args: []string{"cat", "-z", "a"}},
		{Files: filesTwo, Args: []string{"cat", "--bogus", "a"}},
		{Files: filesTwo, Args: []string{"cat", "--", "a"}},
		{Args: []string{"cat", "-u"}, Stdin: "x\ny\n"},
		{Args: []string{"cat", "-A"}, Stdin: "\x00\x1b[1m\xc3\xa9\n"},
	})
}

func TestDiffFilesLs(t *testing.T) {
	runDiff(t, []diffCase{
		{Files: filesTree1, Args: []string{"ls"}},
		{Files: filesTree1, Args: []string{"ls", "-a"}},
		{Files: filesTree1, Args: []string{"ls", "-A", "d"}},
		{Files: filesTree1, Args: []string{"ls", "-R"}},
		{Files: filesTree1, Args: []string{"ls", "-Ra", "d"}},
		{Files: filesTree1, Args: []string{"ls", "-1", "d", "f"}},
		{Files: filesTree1, Args: []string{"ls", "-d", "d", "f", "."}},
		{Files: filesTree1, Args: []string{"ls", "f", "nofile", "d"}},
		{Files: filesTree1, Args: []string{"ls", "nofile"}},
		{Files: filesTree1, Args: []string{"ls", "-F", "d"}},
		{Files: filesTree1, Args: []string{"ls", "-p", "-a", "d"}},
		{Files: filesTree1, Args: []string{"ls", "-r", "d"}},
		{Files: filesTree1, Args: []string{"ls", "-S", "d"}},
		{Files: filesTree1, Args: []string{"ls", "-Sr", "d"}},
		{Files: filesTree1, Args: []string{"ls", "-s", "d"}},
		{Files: filesTree1, Args: []string{"ls", "-sh", "d"}},
		{Files: filesTree1, Args: []string{"ls", "-m", "d"}},
		{Files: filesTree1, Args: []string{"ls", "-x", "d"}},
		{Files: filesTree1, Args: []string{"ls", "-C", "d"}},
		{Files: filesTree1, Args: []string{"ls", "-C", "-w", "10", "d"}},
		{Files: filesTree1, Args: []string{"ls", "--color=never", "d"}},
		{Files: filesTree1, Args: []string{"ls", "--color=bogus", "d"}},
		{Files: filesTree1, Args: []string{"ls", "-y"}},
		{Files: filesTree1, Args: []string{"ls", "-l", "d"}, SkipStdout: "owner and group names: the host shows the user running the tests, sandsh its virtual sandbox user"},
		{Files: filesTree1, Args: []string{"ls", "d/"}},
		{Files: filesTree1, Args: []string{"ls", "-d", "d/"}},
		{Files: filesTree1, Args: []string{"ls", "d/sub", "d"}},
		{Files: map[string]string{"a1": "", "a10": "", "a2": "", "B": "", "_x": "", "-y": ""}, Args: []string{"ls"}},
		{Files: map[string]string{"a1": "", "a10": "", "a2": "", "B": "", "_x": ""}, Args: []string{"ls", "-m", "-w", "12"}},
		{Files: map[string]string{"aaaaaaaaaaaa": "", "b": "", "ccccccc": "", "dd": "", "eeeeeeeeeeeeeeeeeeeee": "", "f": "", "g": "", "hhhh": ""},
			Args: []string{"ls", "-C", "-w", "40"}},
		{Files: map[string]string{"aaaaaaaaaaaa": "", "b": "", "ccccccc": "", "dd": "", "eeeeeeeeeeeeeeeeeeeee": "", "f": "", "g": "", "hhhh": ""},
			Args: []string{"ls", "-x", "-w", "40"}},
		{Files: map[string]string{"big": strings.Repeat("x", 5000), "small": "x", "empty": ""}, Args: []string{"ls", "-s"}},
		{Files: map[string]string{"big": strings.Repeat("x", 5000), "small": "x", "empty": ""}, Args: []string{"ls", "-S"}},
		{Files: map[string]string{"big": strings.Repeat("x", 5000), "small": "x", "empty": ""}, Args: []string{"ls", "-sSr"}},
	})
}

func TestDiffFilesLsState(t *testing.T) {
	old := [][]string{{"touch", "-d", "2023-06-01 10:00", "a"}, {"touch", "-d", "2023-12-31 23:59:59", "b"},
		{"touch", "-d", "2022-01-01", "c"}, {"mkdir", "sub"}, {"touch", "-d", "2021-05-05", "sub"}}
	filesRunDiffFS(t, []filesFSCase{
		{Files: map[string]string{"a": "1", "b": "22", "c": "333"}, Setup: old, Args: []string{"ls", "-t"}, NoTree: true},
		{Files: map[string]string{"a": "1", "b": "22", "c": "333"}, Setup: old, Args: []string{"ls", "-tr"}, NoTree: true},
		{Files: map[string]string{"a": "1", "b": "22", "c": "333"}, Setup: old, Args: []string{"ls", "-l", "--time-style=long-iso"}, NoTree: true, SkipStdout: "owner and group names: the host shows the user running the tests, sandsh its virtual sandbox user"},
		{Files: map[string]string{"a": "1", "b": "22", "c": "333"}, Setup: old, Args: []string{"ls", "-g", "--full-time", "c"}, NoTree: true, SkipStdout: "owner and group names: the host shows the user running the tests, sandsh its virtual sandbox user"},
		{Files: map[string]string{"a": "x"}, Setup: [][]string{{"ln", "-s", "a", "la"}, {"ln", "-s", "nowhere", "dang"}, {"mkdir", "d"}, {"ln", "-s", "d", "ld"}},
			Args: []string{"ls", "-F"}, NoTree: true},
		{Files: map[string]string{"a": "x"}, Setup: [][]string{{"mkdir", "d"}, {"touch", "d/in"}, {"ln", "-s", "d", "ld"}},
			Args: []string{"ls", "ld"}, NoTree: true},
		{Files: map[string]string{"a": "x"}, Setup: [][]string{{"mkdir", "d"}, {"touch", "d/in"}, {"ln", "-s", "d", "ld"}},
			Args: []string{"ls", "-d", "ld"}, NoTree: true},
		{Files: map[string]string{"a": "x"}, Setup: [][]string{{"mkdir", "d"}, {"touch", "d/in"}, {"ln", "-s", "d", "ld"}},
			Args: []string{"ls", "-L", "ld"}, NoTree: true},
		{Files: map[string]string{"x": "#!/bin/sh\n"}, Setup: [][]string{{"chmod", "755", "x"}, {"mkdir", "d"}},
			Args: []string{"ls", "-F"}, NoTree: true},
		{Files: map[string]string{"x": "#!/bin/sh\n"}, Setup: [][]string{{"chmod", "755", "x"}, {"mkdir", "d"}},
			Args: []string{"ls", "--file-type"}, NoTree: true},
	})
}

func TestDiffFilesCp(t *testing.T) {
	filesRunDiffFS(t, []filesFSCase{
		{Files: filesTwo, Args: []string{"cp", "a", "c"}},
		{Files: filesTwo, Args: []string{"cp", "a", "b"}},
		{Files: filesTwo, Args: []string{"cp", "a", "a"}},
		{Files: filesTwo, Args: []string{"cp", "a"}},
		{Files: filesTwo, Args: []string{"cp"}},
		{Files: filesTwo, Args: []string{"cp", "nofile", "c"}},
		{Files: filesTwo, Args: []string{"cp", "-v", "a", "b", "d/"}},
		{Files: filesTree1, Args: []string{"cp", "f", "d"}},
		{Files: filesTree1, Args: []string{"cp", "-v", "f", "d/x"}},
		{Files: filesTree1, Args: []string{"cp", "d", "e"}},
		{Files: filesTree1, Args: []string{"cp", "-r", "d", "e"}},
		{Files: filesTree1, Args: []string{"cp", "-R", "d", "f2"}},
		{Files: filesTree1, Args: []string{"cp", "-rv", "d", "e"}, Sort: true},
		{Files: map[string]string{"d/sub/z": "z"}, Args: []string{"cp", "-rv", "d", "e"}},
		{Files: filesTree1, Args: []string{"cp", "-r", "d", "d/sub"}, NoTree: true},
		{Files: filesTree1, Args: []string{"cp", "-r", "d", "f"}},
		{Files: filesTree1, Args: []string{"cp", "-r", "d/", "e/"}},
		{Files: filesTree1, Setup: [][]string{{"mkdir", "e"}}, Args: []string{"cp", "-r", "d", "e"}},
		{Files: filesTree1, Setup: [][]string{{"mkdir", "-p", "e/d"}}, Args: []string{"cp", "-rv", "d", "e"}, Sort: true},
		{Files: map[string]string{"d/sub/z": "z", "e/d/": ""}, Args: []string{"cp", "-rv", "d", "e"}},
		{Files: filesTree1, Setup: [][]string{{"mkdir", "e"}}, Args: []string{"cp", "-t", "e", "f", "d/x"}},
		{Files: filesTree1, Args: []string{"cp", "-t", "nodir", "f"}},
		{Files: filesTree1, Args: []string{"cp", "-T", "f", "g"}},
		{Files: filesTree1, Args: []string{"cp", "-T", "f", "d"}},
		{Files: filesTree1, Args: []string{"cp", "-T", "f", "g", "h"}},
		{Files: filesTree1, Args: []string{"cp", "f", "d/x", "nodir"}},
		{Files: filesTree1, Args: []string{"cp", "f", "d/x", "f"}},
		{Files: filesTree1, Args: []string{"cp", "f", "nodir/g"}},
		{Files: filesTwo, Args: []string{"cp", "-n", "a", "b"}},
		{Files: filesTwo, Args: []string{"cp", "-f", "a", "b"}},
		{Files: filesTwo, Setup: [][]string{{"chmod", "751", "a"}}, Args: []string{"cp", "a", "c"}},
		{Files: filesTwo, Setup: [][]string{{"chmod", "751", "a"}}, Args: []string{"cp", "a", "b"}},
		{Files: filesTwo, Setup: [][]string{{"chmod", "751", "a"}}, Args: []string{"cp", "-p", "a", "c"}},
		{Files: filesTwo, Setup: [][]string{{"chmod", "700", "a"}}, Args: []string{"cp", "--preserve=mode", "a", "b"}},
		{Files: filesTree1, Setup: [][]string{{"chmod", "700", "d/sub"}}, Args: []string{"cp", "-a", "d", "e"}},
		{Files: filesTree1, Setup: [][]string{{"chmod", "700", "d/sub"}}, Args: []string{"cp", "-r", "d", "e"}},
		{Files: filesTwo, Setup: [][]string{{"ln", "-s", "a", "la"}}, Args: []string{"cp", "la", "c"}},
		{Files: filesTwo, Setup: [][]string{{"ln", "-s", "a", "la"}}, Args: []string{"cp", "-P", "la", "c"}},
		{Files: filesTwo, Setup: [][]string{{"ln", "-s", "a", "la"}}, Args: []string{"cp", "-d", "la", "c"}},
		{Files: filesTree1, Setup: [][]string{{"ln", "-s", "../f", "d/lf"}}, Args: []string{"cp", "-r", "d", "e"}},
		{Files: filesTree1, Setup: [][]string{{"ln", "-s", "../f", "d/lf"}}, Args: []string{"cp", "-rL", "d", "e"}},
		{Files: filesTree1, Setup: [][]string{{"ln", "-s", "../f", "d/lf"}}, Args: []string{"cp", "-a", "d", "e"}},
		{Files: filesTree1, Setup: [][]string{{"ln", "-s", "d", "ld"}}, Args: []string{"cp", "-r", "ld", "e"}},
		{Files: filesTree1, Setup: [][]string{{"ln", "-s", "d", "ld"}}, Args: []string{"cp", "-rH", "ld", "e"}},
		{Files: filesTwo, Setup: [][]string{{"ln", "-s", "b", "lb"}}, Args: []string{"cp", "a", "lb"}},
		{Files: filesTwo, Setup: [][]string{{"ln", "-s", "a", "la"}}, Args: []string{"cp", "la", "a"}},
		{Files: filesTree1, Args: []string{"cp", "-rn", "d", "e"}},
		{Files: filesTree1, Args: []string{"cp", "--parents", "d/sub/z", "f"}},
		{Files: map[string]string{"d/sub/z": "z", "out/": ""}, Args: []string{"cp", "--parents", "d/sub/z", "out"}},
		{Files: filesTwo, Args: []string{"cp", "--bogus", "a", "b"}},
		{Files: filesTwo, Args: []string{"cp", "-s", "a", "c"}},
		{Files: filesTwo, Args: []string{"cp", "-u", "a", "c"}},
	})
}

func TestDiffFilesMv(t *testing.T) {
	filesRunDiffFS(t, []filesFSCase{
		{Files: filesTwo, Args: []string{"mv", "a", "c"}},
		{Files: filesTwo, Args: []string{"mv", "a", "b"}},
		{Files: filesTwo, Args: []string{"mv", "-v", "a", "b"}},
		{Files: filesTwo, Args: []string{"mv", "a", "a"}},
		{Files: filesTwo, Args: []string{"mv", "a"}},
		{Files: filesTwo, Args: []string{"mv", "nofile", "x"}},
		{Files: filesTwo, Args: []string{"mv", "-n", "a", "b"}},
		{Files: filesTree1, Args: []string{"mv", "f", "d"}},
		{Files: filesTree1, Args: []string{"mv", "-v", "f", "d/x", "d/sub"}},
		{Files: filesTree1, Args: []string{"mv", "d", "e"}},
		{Files: filesTree1, Args: []string{"mv", "d", "f"}},
		{Files: filesTree1, Args: []string{"mv", "f", "d/sub/z", "nodir"}},
		{Files: filesTree1, Args: []string{"mv", "d", "d/sub"}},
		{Files: filesTree1, Args: []string{"mv", "d/", "e"}},
		{Files: filesTree1, Setup: [][]string{{"mkdir", "-p", "e/d"}}, Args: []string{"mv", "d", "e"}},
		{Files: filesTree1, Setup: [][]string{{"mkdir", "-p", "e/d/q"}}, Args: []string{"mv", "d", "e"}},
		{Files: filesTree1, Setup: [][]string{{"mkdir", "e"}}, Args: []string{"mv", "-t", "e", "d", "f"}},
		{Files: filesTree1, Setup: [][]string{{"mkdir", "e"}}, Args: []string{"mv", "-T", "d", "e"}},
		{Files: filesTree1, Args: []string{"mv", "-T", "f", "d"}},
		{Files: filesTree1, Args: []string{"mv", "f", "nodir/f"}},
		{Files: filesTwo, Setup: [][]string{{"ln", "-s", "a", "la"}}, Args: []string{"mv", "la", "lb"}},
		{Files: filesTree1, Setup: [][]string{{"ln", "-s", "d", "ld"}}, Args: []string{"mv", "f", "ld"}},
		{Files: filesTwo, Args: []string{"mv", "--bogus", "a", "b"}},
	})
}

func TestDiffFilesRm(t *testing.T) {
	filesRunDiffFS(t, []filesFSCase{
		{Files: filesTwo, Args: []string{"rm", "a"}},
		{Files: filesTwo, Args: []string{"rm", "-v", "a", "b"}},
		{Files: filesTwo, Args: []string{"rm", "nofile", "a"}},
		{Files: filesTwo, Args: []string{"rm", "-f", "nofile", "a"}},
		{Files: filesTwo, Args: []string{"rm"}},
		{Files: filesTwo, Args: []string{"rm", "-f"}},
		{Files: filesTree1, Args: []string{"rm", "d"}},
		{Files: filesTree1, Args: []string{"rm", "-d", "d"}},
		{Files: filesTree1, Args: []string{"rm", "-r", "d"}},
		{Files: filesTree1, Args: []string{"rm", "-rv", "d"}, Sort: true},
		{Files: map[string]string{"d/sub/z": "z"}, Args: []string{"rm", "-rv", "d"}},
		{Files: filesTree1, Args: []string{"rm", "-Rf", "d", "f", "nofile"}},
		{Files: filesTree1, Args: []string{"rm", "-r", "."}},
		{Files: filesTree1, Args: []string{"rm", "-rf", "d/.."}},
		{Files: filesTree1, Args: []string{"rm", "-r", "/"}},
		{Files: filesTree1, Args: []string{"rm", "f/"}},
		{Files: map[string]string{"d/sub/z": "z", "f": ""}, Args: []string{"rm", "-rv", "d/", "f"}},
		{Files: map[string]string{"e/": ""}, Args: []string{"rm", "-dv", "e"}},
		{Files: filesTwo, Setup: [][]string{{"ln", "-s", "a", "la"}}, Args: []string{"rm", "la"}},
		{Files: filesTree1, Setup: [][]string{{"ln", "-s", "d", "ld"}}, Args: []string{"rm", "-r", "ld"}},
		{Files: filesTree1, Setup: [][]string{{"ln", "-s", "d", "ld"}}, Args: []string{"rm", "ld/"}},
		{Files: map[string]string{"d/x": ""}, Setup: [][]string{{"ln", "-s", "d", "ld"}}, Args: []string{"rm", "-r", "ld/"}},
		{Files: filesTwo, Args: []string{"rm", "--bogus", "a"}},
	})
}

func TestDiffFilesMkdirRmdir(t *testing.T) {
	filesRunDiffFS(t, []filesFSCase{
		{Args: []string{"mkdir", "a"}},
		{Args: []string{"mkdir", "a", "b", "c"}},
		{Args: []string{"mkdir", "-v", "a", "b"}},
		{Args: []string{"mkdir", "a/b"}},
		{Args: []string{"mkdir", "-p", "a/b/c"}},
		{Args: []string{"mkdir", "-pv", "a/b/c"}},
		{Args: []string{"mkdir", "-pv", "a//b/./c/"}},
		{Files: filesTree1, Args: []string{"mkdir", "d"}},
		{Files: filesTree1, Args: []string{"mkdir", "-p", "d"}},
		{Files: filesTree1, Args: []string{"mkdir", "-p", "f"}},
		{Files: filesTree1, Args: []string{"mkdir", "-p", "f/x"}},
		{Files: filesTree1, Args: []string{"mkdir", "f/x"}},
		{Files: filesTree1, Args: []string{"mkdir", "-pv", "d/sub/new/deeper"}},
		{Args: []string{"mkdir"}},
		{Args: []string{"mkdir", "-m", "700", "a"}},
		{Args: []string{"mkdir", "-m", "1777", "a"}},
		{Args: []string{"mkdir", "-m", "u=rwx,g=rx,o=", "a"}},
		{Args: []string{"mkdir", "-m", "g-w", "a"}},
		{Args: []string{"mkdir", "-m", "+t", "a"}},
		{Args: []string{"mkdir", "-m", "-w", "a"}},
		{Args: []string{"mkdir", "-m", "=rwx", "a"}},
		{Args: []string{"mkdir", "-m", "bogus", "a"}},
		{Args: []string{"mkdir", "-pm", "700", "a/b/c"}},
		{Files: filesTree1, Args: []string{"rmdir", "d/sub"}},
		{Files: map[string]string{"a/b/c/": ""}, Args: []string{"rmdir", "a/b/c"}},
		{Files: map[string]string{"a/b/c/": ""}, Args: []string{"rmdir", "-p", "a/b/c"}},
		{Files: map[string]string{"a/b/c/": ""}, Args: []string{"rmdir", "-pv", "a/b/c/"}},
		{Files: map[string]string{"a/b/c/": "", "a/f": ""}, Args: []string{"rmdir", "-p", "a/b/c"}},
		{Files: map[string]string{"a/b/c/": "", "a/f": ""}, Args: []string{"rmdir", "-p", "--ignore-fail-on-non-empty", "a/b/c"}},
		{Files: filesTree1, Args: []string{"rmdir", "d"}},
		{Files: filesTree1, Args: []string{"rmdir", "f"}},
		{Files: filesTree1, Args: []string{"rmdir", "nofile"}},
		{Files: filesTree1, Args: []string{"rmdir"}},
		{Files: filesTree1, Args: []string{"rmdir", "--ignore-fail-on-non-empty", "d"}},
	})
}

func TestDiffFilesTouchChmodLn(t *testing.T) {
	filesRunDiffFS(t, []filesFSCase{
		{Args: []string{"touch", "a", "b"}},
		{Files: filesTwo, Args: []string{"touch", "a"}},
		{Args: []string{"touch", "-c", "a"}},
		{Args: []string{"touch", "nodir/a"}},
		{Args: []string{"touch"}},
		{Args: []string{"touch", "-d", "garbage", "a"}},
		{Args: []string{"touch", "-t", "202401020304.05", "a"}},
		{Args: []string{"touch", "-t", "99", "a"}},
		{Args: []string{"touch", "-r", "nofile", "a"}},
		{Files: filesTwo, Setup: [][]string{{"touch", "-d", "2020-02-03 04:05:06", "a"}},
			Args: []string{"touch", "-r", "a", "b"}},
		{Files: filesTwo, Setup: [][]string{{"touch", "-d", "@1000000000", "a"}, {"touch", "-t", "200001010000", "b"}},
			Args: []string{"ls", "-t"}},
		{Files: filesTwo, Setup: [][]string{{"touch", "-d", "2020-01-01T10:00:00Z", "a"}, {"touch", "-d", "2020-01-01 09:00", "b"}},
			Args: []string{"ls", "-t"}},
		{Files: filesTwo, Args: []string{"chmod", "755", "a"}},
		{Files: filesTwo, Args: []string{"chmod", "u+x,g+w", "a", "b"}},
		{Files: filesTwo, Args: []string{"chmod", "-v", "a=r", "a"}},
		{Files: filesTwo, Args: []string{"chmod", "-c", "644", "a", "b"}},
		{Files: filesTwo, Args: []string{"chmod", "-c", "600", "a", "b"}},
		{Files: filesTwo, Args: []string{"chmod", "-w", "a"}},
		{Files: filesTwo, Args: []string{"chmod", "+x", "a"}},
		{Files: filesTwo, Args: []string{"chmod", "-x,+w", "a"}},
		{Files: filesTwo, Setup: [][]string{{"chmod", "666", "a"}}, Args: []string{"chmod", "-w", "a"}},
		{Files: filesTwo, Args: []string{"chmod", "go=u", "a"}},
		{Files: filesTwo, Args: []string{"chmod", "u+s,g+s,+t", "a"}},
		{Files: filesTwo, Args: []string{"chmod", "4755", "a"}},
		{Files: filesTwo, Args: []string{"chmod", "bogus", "a"}},
		{Files: filesTwo, Args: []string{"chmod", "755"}},
		{Files: filesTwo, Args: []string{"chmod"}},
		{Files: filesTwo, Args: []string{"chmod", "755", "nofile", "a"}},
		{Files: filesTree1, Args: []string{"chmod", "-R", "a+X", "d"}},
		{Files: filesTree1, Args: []string{"chmod", "-R", "go-rwx", "d"}},
		{Files: filesTree1, Args: []string{"chmod", "-Rv", "u=rwx", "d"}, Sort: true},
		{Files: map[string]string{"d/sub/z": "z"}, Args: []string{"chmod", "-Rv", "u=rwx", "d"}},
		{Files: filesTree1, Args: []string{"chmod", "--reference=d", "f"}},
		{Files: filesTree1, Setup: [][]string{{"chmod", "700", "f"}}, Args: []string{"chmod", "--reference=f", "d/x"}},
		{Files: filesTwo, Setup: [][]string{{"ln", "-s", "a", "la"}}, Args: []string{"chmod", "700", "la"}},
		{Files: filesTwo, Setup: [][]string{{"ln", "-s", "zz", "dang"}}, Args: []string{"chmod", "700", "dang"}},
		{Files: filesTwo, Args: []string{"ln", "-s", "a", "la"}},
		{Files: filesTwo, Args: []string{"ln", "-sv", "a", "b"}},
		{Files: filesTwo, Args: []string{"ln", "-sfv", "a", "b"}},
		{Files: filesTwo, Args: []string{"ln", "-s", "/some/where", "abs"}},
		{Files: filesTree1, Args: []string{"ln", "-s", "../f", "d"}},
		{Files: filesTree1, Args: []string{"ln", "-s", "f", "d/x", "d/sub"}},
		{Files: filesTree1, Args: []string{"ln", "-s", "f"}},
		{Files: filesTree1, Args: []string{"ln", "-s", "d/x"}},
		{Files: filesTree1, Args: []string{"ln", "-s", "f", "nodir/l"}},
		{Files: filesTree1, Args: []string{"ln", "-sT", "f", "d"}},
		{Files: filesTree1, Args: []string{"ln", "-sfT", "f", "d"}},
		{Files: filesTree1, Args: []string{"ln", "-st", "d", "../f"}},
		{Files: filesTree1, Args: []string{"ln", "-sr", "f", "d/sub/lnk"}},
		{Files: filesTree1, Args: []string{"ln", "-r", "f", "d/sub/lnk"}},
		{Files: filesTree1, Setup: [][]string{{"mkdir", "e"}, {"ln", "-s", "e", "le"}}, Args: []string{"ln", "-s", "f", "le"}},
		{Files: filesTree1, Setup: [][]string{{"mkdir", "e"}, {"ln", "-s", "e", "le"}}, Args: []string{"ln", "-sfn", "f", "le"}},
		{Files: filesTree1, Args: []string{"ln"}},
		{Files: filesTree1, Args: []string{"ln", "d", "hd"}},
		{Files: filesTree1, Args: []string{"ln", "nofile", "x"}},
	})
}

func TestDiffFilesStat(t *testing.T) {
	const fmtAll = "%n|%N|%s|%a|%A|%F|%h|%b|%B|%o|%f|%t|%T|%m"
	runDiff(t, []diffCase{
		{Files: filesTree1, Args: []string{"stat", "-c", fmtAll, "f", "d", "d/sub", "d/.hid"}},
		{Files: map[string]string{"e": "", "a b": "x"}, Args: []string{"stat", "-c", fmtAll, "e", "a b"}},
		{Files: filesTree1, Args: []string{"stat", "--format=%s %n", "f", "nofile", "d"}},
		{Files: filesTree1, Args: []string{"stat", "--printf=%s\\t%n\\n", "f", "d/x"}},
		{Files: filesTree1, Args: []string{"stat", "--printf=[%10s][%-6n][%05a][%F][%U]\\n", "f"}, SkipStdout: "owner and group names: the host shows the user running the tests, sandsh its virtual sandbox user"},
		{Files: filesTree1, Args: []string{"stat", "--printf=[%10s][%-6n][%05a][%F][%h]\\n", "f"}},
		{Files: filesTree1, Args: []string{"stat", "-c", "[%10s][%-6n][%05a][%-5h][%%]", "f"}},
		{Files: filesTree1, Args: []string{"stat", "f"}, SkipStdout: "inode, device, owner and the times are the host's; sandsh shows virtual ones"},
		{Files: filesTree1, Args: []string{"stat", "-t", "f"}, SkipStdout: "inode, device, owner and the times are the host's; sandsh shows virtual ones"},
		{Files: filesTree1, Args: []string{"stat"}},
		{Files: filesTree1, Args: []string{"stat", "-c"}},
		{Files: filesTree1, Args: []string{"stat", "-f", "."}, SkipStdout: "the host filesystem's type, size and free space; sandsh shows its virtual filesystem's"},
		{Files: filesTree1, Args: []string{"stat", "-L", "-c", "%F", "d", "f"}},
	})
	filesRunDiffFS(t, []filesFSCase{
		{Files: filesTwo, Setup: [][]string{{"ln", "-s", "a", "la"}}, Args: []string{"stat", "-c", "%n|%N|%F|%s|%A", "la", "a"}, NoTree: true},
		{Files: filesTwo, Setup: [][]string{{"ln", "-s", "a", "la"}}, Args: []string{"stat", "-L", "-c", "%n|%N|%F|%s|%A", "la"}, NoTree: true},
		{Files: filesTwo, Setup: [][]string{{"ln", "-s", "nowhere", "dang"}}, Args: []string{"stat", "-L", "dang"}, NoTree: true},
		{Files: filesTwo, Setup: [][]string{{"touch", "-d", "2021-03-04 05:06:07.5", "a"}},
			Args: []string{"stat", "-c", "%y|%Y|%.3Y|%.9Y|%10Y", "a"}, NoTree: true},
		{Files: filesTwo, Setup: [][]string{{"chmod", "4751", "a"}, {"chmod", "1777", "b"}}, Args: []string{"stat", "-c", "%a %A %f", "a", "b"}, NoTree: true},
	})
}

func TestDiffFilesDuDf(t *testing.T) {
	big := map[string]string{"big": strings.Repeat("0123456789", 10000), "d/e/g": "x\n", "d/f": strings.Repeat("y", 5000)}
	filesRunDiffFS(t, []filesFSCase{
		{Files: big, Args: []string{"du", "big"}, NoTree: true},
		{Files: big, Args: []string{"du", "-s", "d"}, NoTree: true},
		{Files: big, Args: []string{"du", "-sh", "d", "big"}, NoTree: true},
		{Files: big, Args: []string{"du", "-b", "big", "d/f"}, NoTree: true},
		{Files: big, Args: []string{"du", "-k", "big"}, NoTree: true},
		{Files: big, Args: []string{"du", "-m", "big"}, NoTree: true},
		{Files: big, Args: []string{"du", "--apparent-size", "-s", "d"}, NoTree: true},
		{Files: big, Args: []string{"du", "-sb", "d"}, NoTree: true},
		{Files: big, Args: []string{"du", "-hb", "d/e"}, NoTree: true},
		{Files: big, Args: []string{"du", "-a", "d"}, NoTree: true, Sort: true},
		{Files: big, Args: []string{"du", "d"}, NoTree: true, Sort: true},
		{Files: big, Args: []string{"du", "-S", "d"}, NoTree: true, Sort: true},
		{Files: big, Args: []string{"du", "-c", "big", "d"}, NoTree: true, Sort: true},
		{Files: big, Args: []string{"du", "-d", "1", "."}, NoTree: true, Sort: true},
		{Files: big, Args: []string{"du", "--max-depth=0", "d"}, NoTree: true},
		{Files: big, Args: []string{"du", "-a", "--max-depth=1", "d"}, NoTree: true, Sort: true},
		{Files: big, Args: []string{"du", "-sa", "d"}, NoTree: true},
		{Files: big, Args: []string{"du", "nofile", "big"}, NoTree: true},
		{Files: big, Args: []string{"du", "-BM", "big"}, NoTree: true},
		{Files: big, Args: []string{"du", "-B1M", "big"}, NoTree: true},
		{Files: big, Args: []string{"du", "-B", "2K", "big"}, NoTree: true},
		{Files: big, Args: []string{"du", "--si", "big"}, NoTree: true},
		{Files: big, Args: []string{"du", "-0", "big"}, NoTree: true},
		{Files: big, Args: []string{"du", "--inodes", "-s", "d"}, NoTree: true},
		{Files: big, Args: []string{"du", "--exclude=f", "-a", "d"}, NoTree: true, Sort: true},
		{Files: big, Setup: [][]string{{"ln", "-s", "big", "lb"}}, Args: []string{"du", "lb"}, NoTree: true},
		{Files: big, Setup: [][]string{{"ln", "-s", "big", "lb"}}, Args: []string{"du", "-L", "lb"}, NoTree: true},
		{Files: big, Args: []string{"df", "nofile"}, NoTree: true},
		{Files: big, Args: []string{"df", "."}, NoTree: true, SkipStdout: "the host filesystem's size and free space; sandsh shows its virtual filesystem's"},
		{Files: big, Args: []string{"df", "-h"}, NoTree: true, SkipStdout: "the host filesystem's size and free space; sandsh shows its virtual filesystem's"},
	})
}

func TestDiffFilesFind(t *testing.T) {
	tree := map[string]string{"d/x.txt": "x", "d/y.TXT": "yy", "d/sub/z.go": strings.Repeat("z", 3000), "d/sub/deep/w": "",
		"d/empty/": "", "d/.hidden": "h", "top": "t"}
	ff := func(args ...string) filesFSCase {
		return filesFSCase{Files: tree, Args: append([]string{"find"}, args...), Sort: true}
	}
	filesRunDiffFS(t, []filesFSCase{
		ff(), ff("."), ff("d"), ff("d/"), ff("./d"), ff("d", "top"), ff("nofile", "top"),
		ff("d", "-name", "*.txt"), ff("d", "-iname", "*.txt"), ff("d", "-name", "[xy]*"), ff("d", "-name", "[!x]*"),
		ff("d", "-name", "?.go"), ff(".", "-name", "d"), ff("d", "-path", "*sub*"), ff("d", "-ipath", "*SUB/Z*"),
		ff("d", "-type", "f"), ff("d", "-type", "d"), ff("d", "-type", "f,d"), ff("d", "-type", "z"), ff("d", "-type", "l"),
		ff("d", "-maxdepth", "1"), ff("d", "-mindepth", "2"), ff("d", "-maxdepth", "0"), ff("d", "-mindepth", "1", "-maxdepth", "1", "-type", "d"),
		ff("d", "-empty"), ff("d", "-not", "-empty"), ff("d", "!", "-name", "*.*"),
		ff("d", "-size", "0"), ff("d", "-size", "-1k"), ff("d", "-size", "+1k"), ff("d", "-size", "2c"), ff("d", "-size", "+1"),
		ff("d", "-size", "6"), ff("d", "-size", "-6"), ff("d", "-size", "3000c"), ff("d", "-size", "3k"), ff("d", "-size", "bogus"),
		ff("d", "-name", "*.txt", "-o", "-name", "*.go"), ff("d", "(", "-name", "x*", "-o", "-name", "z*", ")", "-print"),
		ff("d", "-type", "f", "-a", "-name", "w"), ff("d", "-name", "x*", ",", "-name", "y*"),
		ff("d", "-name", "sub", "-prune", "-o", "-print"), ff("d", "-name", "sub", "-prune"),
		ff("d", "-print0"), ff("d", "-name", "x*", "-quit"), ff("d", "-quit"),
		ff("d", "-printf", "%p|%f|%h|%P|%H|%d|%s|%m|%M|%y|%Y|%k|%b\\n"),
		ff("d", "-printf", "[%-12f][%5s][%.3p]\\n"), ff("top", "-printf", "%f\\0%p\\t%%\\101\\n"),
		ff("top", "-printf", "no newline"),
		ff("d", "-regex", ".*/[xy]\\..*"), ff("d", "-regex", "d/sub.*"), ff("d", "-iregex", ".*TXT"),
		ff("d", "-regextype", "posix-extended", "-regex", ".*/(x|z)\\..*"), ff("d", "-regex", ".*/\\(x\\|z\\)\\..+"),
		ff("d", "-perm", "644"), ff("d", "-perm", "-u+r"), ff("d", "-perm", "/111", "-type", "f"), ff("d", "-perm", "-755"),
		ff("d", "-links", "2"), ff("d", "-links", "+2"),
		ff("d", "-depth"), ff("d", "-depth", "-name", "sub"),
		ff("d", "-exec", "basename", "-a", "found", "{}", ";"), ff("d", "-name", "*.go", "-exec", "cat", "{}", "+"),
		ff("d", "-type", "f", "-exec", "ls", "{}", "+"), ff("d", "-execdir", "basename", "-a", "{}", "{}.x", ";"),
		ff("d", "-name", "x*", "-exec", "cat", "{}", ";", "-print"), ff("d", "-exec", "readlink", "{}", ";", "-o", "-print"),
		ff("d", "-exec", "readlink", "{}", "+"), ff("d", "-exec", "ls", "{}"), ff("d", "-exec", "ls", "a{}b", "+"),
		ff("d", "-exec", "ls", "-d", "x{}y", ";"), ff("d", "-exec", ";"),
		ff("d", "-bogus"), ff("d", "-name"), ff("d", "-maxdepth", "x"), ff("d", "-o"), ff("d", "(", "-name", "x"),
		ff("d", "-name", "x", "extra"), ff("d", "-true"), ff("d", "-false"), ff("d", "-not", "-true", "-o", "-name", "w"),
		ff("d", "-newer", "nofile"), ff("d", "-user", "nobodyatall"), ff("d", "-mtime", "x"),
		ff("d", "-mtime", "-1"), ff("d", "-mtime", "0"), ff("d", "-mmin", "-60"), ff("d", "-mtime", "+1000"),
		ff("-maxdepth", "1"), ff("-H", "d", "-name", "w"), ff("-L", "d", "-type", "f"),
	})
	// Cases that change the tree or need symlinks and timestamps.
	filesRunDiffFS(t, []filesFSCase{
		{Files: tree, Args: []string{"find", "d", "-name", "*.txt", "-delete"}},
		{Files: tree, Args: []string{"find", "d", "-delete"}},
		{Files: tree, Args: []string{"find", "d", "-name", "sub", "-delete"}},
		{Files: tree, Args: []string{"find", "d", "-type", "f", "-exec", "rm", "{}", ";"}, Sort: true},
		{Files: tree, Args: []string{"find", "d", "-empty", "-delete", "-print"}, Sort: true},
		{Files: tree, Setup: [][]string{{"ln", "-s", "x.txt", "d/lx"}, {"ln", "-s", "sub", "d/lsub"}, {"ln", "-s", "gone", "d/dang"}},
			Args: []string{"find", "d", "-type", "l"}, Sort: true, NoTree: true},
		{Files: tree, Setup: [][]string{{"ln", "-s", "x.txt", "d/lx"}, {"ln", "-s", "sub", "d/lsub"}, {"ln", "-s", "gone", "d/dang"}},
			Args: []string{"find", "-L", "d", "-type", "f"}, Sort: true, NoTree: true},
		{Files: tree, Setup: [][]string{{"ln", "-s", "x.txt", "d/lx"}, {"ln", "-s", "sub", "d/lsub"}, {"ln", "-s", "gone", "d/dang"}},
			Args: []string{"find", "-L", "d", "-type", "l"}, Sort: true, NoTree: true},
		{Files: tree, Setup: [][]string{{"ln", "-s", "x.txt", "d/lx"}, {"ln", "-s", "sub", "d/lsub"}, {"ln", "-s", "gone", "d/dang"}},
			Args: []string{"find", "d", "-xtype", "f"}, Sort: true, NoTree: true},
		{Files: tree, Setup: [][]string{{"ln", "-s", "x.txt", "d/lx"}, {"ln", "-s", "gone", "d/dang"}},
			Args: []string{"find", "d", "-lname", "*.txt", "-printf", "%p -> %l %y %Y\\n"}, Sort: true, NoTree: true},
		{Files: tree, Setup: [][]string{{"ln", "-s", "x.txt", "d/lx"}, {"ln", "-s", "gone", "d/dang"}},
			Args: []string{"find", "d", "-printf", "%p %y %Y\\n"}, Sort: true, NoTree: true},
		{Files: tree, Setup: [][]string{{"ln", "-s", "d", "ld"}}, Args: []string{"find", "ld"}, Sort: true, NoTree: true},
		{Files: tree, Setup: [][]string{{"ln", "-s", "d", "ld"}}, Args: []string{"find", "-H", "ld", "-name", "w"}, Sort: true, NoTree: true},
		{Files: tree, Setup: [][]string{{"ln", "-s", "..", "d/sub/up"}}, Args: []string{"find", "-L", "d", "-name", "w"}, Sort: true, NoTree: true},
		{Files: tree, Setup: [][]string{{"touch", "-d", "2020-01-01", "d/x.txt"}, {"touch", "-d", "2021-01-01", "top"}},
			Args: []string{"find", "d", "-newer", "top"}, Sort: true, NoTree: true},
		{Files: tree, Setup: [][]string{{"touch", "-d", "2020-01-01", "d/x.txt"}},
			Args: []string{"find", "d", "-mtime", "+30"}, Sort: true, NoTree: true},
		{Files: tree, Setup: [][]string{{"touch", "-d", "2020-01-01", "d/x.txt"}},
			Args: []string{"find", "d", "-newermt", "2021-06-01"}, Sort: true, NoTree: true},
		{Files: tree, Setup: [][]string{{"touch", "-d", "2020-01-01 12:34:56", "d/x.txt"}},
			Args: []string{"find", "d/x.txt", "-printf", "%t|%T@|%TY-%Tm-%Td %TH:%TM:%TS|%Tk|%T+|%TF %TT|%Ta %Tb %Te\\n"}, NoTree: true},
		{Files: tree, Setup: [][]string{{"touch", "-d", "2020-01-01 12:34:56", "d/x.txt"}},
			Args: []string{"find", "d/x.txt", "-ls"}, NoTree: true, SkipStdout: "inode, owner and time are the host's; sandsh shows virtual ones"},
		{Files: tree, Setup: [][]string{{"chmod", "755", "d/x.txt"}}, Args: []string{"find", "d", "-perm", "-111", "-type", "f"}, Sort: true, NoTree: true},
		{Files: tree, Setup: [][]string{{"chmod", "755", "d/x.txt"}}, Args: []string{"find", "d", "-executable", "-type", "f"}, Sort: true, NoTree: true},
		{Files: tree, Args: []string{"find", "d", "-name", "x*", "-fprint", "out"}},
		{Files: tree, Args: []string{"find", "d", "-name", "x*", "-fprintf", "out", "%f %s\\n"}},
	})
}

func TestDiffFilesNames(t *testing.T) {
	runDiff(t, []diffCase{
		{Args: []string{"basename", "/usr/lib/libc.so"}},
		{Args: []string{"basename", "/usr/lib/"}},
		{Args: []string{"basename", "/"}},
		{Args: []string{"basename", "//"}},
		{Args: []string{"basename", ""}},
		{Args: []string{"basename", "a.txt", ".txt"}},
		{Args: []string{"basename", ".txt", ".txt"}},
		{Args: []string{"basename", "dir/a.txt", "a.txt"}},
		{Args: []string{"basename", "-s", ".c", "x/a.c", "b.c", "c.h"}},
		{Args: []string{"basename", "-a", "x/a", "y/b/"}},
		{Args: []string{"basename", "--suffix=.c", "a.c"}},
		{Args: []string{"basename", "-z", "a/b", "-a", "c"}},
		{Args: []string{"basename", "a", "b", "c"}},
		{Args: []string{"basename"}},
		{Args: []string{"basename", "--", "-a"}},
		{Args: []string{"dirname", "/usr/lib/libc.so"}},
		{Args: []string{"dirname", "/usr/lib/"}},
		{Args: []string{"dirname", "lib"}},
		{Args: []string{"dirname", "/"}},
		{Args: []string{"dirname", "//"}},
		{Args: []string{"dirname", "//a"}},
		{Args: []string{"dirname", "///a//b//"}},
		{Args: []string{"dirname", "a/b", "c", "/d"}},
		{Args: []string{"dirname", ""}},
		{Args: []string{"dirname", "."}},
		{Args: []string{"dirname", ".."}},
		{Args: []string{"dirname", "-z", "a/b"}},
		{Args: []string{"dirname"}},
	})
	links := [][]string{{"mkdir", "-p", "d/e"}, {"touch", "f"}, {"ln", "-s", "d", "ld"}, {"ln", "-s", "nowhere", "dang"},
		{"ln", "-s", "f", "lf"}, {"ln", "-s", "lf", "llf"}, {"ln", "-s", "loop1", "loop2"}, {"ln", "-s", "loop2", "loop1"},
		{"ln", "-s", "../f", "d/e/up"}}
	rl := func(args ...string) filesFSCase {
		return filesFSCase{Setup: links, Args: args, NoTree: true}
	}
	filesRunDiffFS(t, []filesFSCase{
		rl("readlink", "lf"), rl("readlink", "llf", "dang", "f"), rl("readlink", "-v", "f"), rl("readlink", "d/e/up"),
		rl("readlink", "-n", "lf"), rl("readlink", "-n", "lf", "dang"), rl("readlink", "-z", "lf", "dang"),
		rl("readlink", "nofile"), rl("readlink"), rl("readlink", "-f", "nodir/x"), rl("readlink", "-e", "dang"),
		rl("readlink", "-ve", "dang"), rl("readlink", "-e", "loop1"), rl("readlink", "-f", "f/"), rl("readlink", "-f", ""),
		rl("realpath", "nofile/x"), rl("realpath", "-e", "dang"), rl("realpath", "-q", "nodir/x"), rl("realpath"),
		rl("realpath", ""), rl("realpath", "f/"), rl("realpath", "-e", "loop1"), rl("realpath", "--relative-to=d/e", "f", "d", "ld/e"),
		rl("realpath", "--relative-to=.", "ld/e/up", "llf"), rl("realpath", "--relative-base=.", "ld/e", "f", "."),
		rl("realpath", "--relative-to=d", "--relative-base=.", "d/e", "f"),
		rl("realpath", "-s", "--relative-to=.", "ld/e/..", "llf"), rl("realpath", "-L", "--relative-to=.", "ld/e/.."),
		rl("realpath", "-m", "--relative-to=.", "nodir/x/../y", "dang/z"), rl("realpath", "-s", "-m", "--relative-to=d", "x/../y"),
	})
	filesRunDiffFS(t, []filesFSCase{
		{Args: []string{"mktemp", "foo"}},
		{Args: []string{"mktemp", "fooXX"}},
		{Args: []string{"mktemp", "--suffix=.c", "aXXXb"}},
		{Args: []string{"mktemp", "nodir/XXX"}},
		{Args: []string{"mktemp", "-q", "nodir/XXX"}},
		{Args: []string{"mktemp", "a", "b"}},
		{Args: []string{"mktemp", "-d", "-p", "/nonexistent"}},
		{Args: []string{"mktemp", "-t", "a/bXXX"}},
		{Args: []string{"mktemp", "--bogus"}},
	})
}

func TestDiffFilesFileTeeSplitTruncate(t *testing.T) {
	kinds := map[string]string{
		"sh":     "#!/bin/bash\necho hi\n",
		"posix":  "#!/bin/sh\nexit 0\n",
		"py":     "#!/usr/bin/env python3\nprint(1)\n",
		"pl":     "#!/usr/bin/perl\n",
		"json":   "{\"a\": [1, 2]}\n",
		"arr":    "[1,2]\n",
		"bad":    "{\"a\":\n",
		"utf":    "h\xc3\xa9llo\n",
		"latin":  "caf\xe9\n",
		"crlf":   "a\r\nb\r\n",
		"mixed":  "a\r\nb\n",
		"cr":     "a\rb\r",
		"nonl":   "abc",
		"empty":  "",
		"bin":    "\x00\x01\x02\x03",
		"long":   strings.Repeat("x", 400) + "\n",
		"xml":    "<?xml version=\"1.0\"?>\n<a/>\n",
		"html":   "<!DOCTYPE html>\n<html></html>\n",
		"png":    "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x00\x10\x00\x00\x00\x20\x08\x06\x00\x00\x00\x00\x00\x00\x00",
		"gif":    "GIF89a\x10\x00\x20\x00\x00\x00",
		"pdf":    "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n",
		"bz":     "BZh91AY&SY",
		"esc":    "hi\x1b[0m\n",
		"bom":    "\xef\xbb\xbfhi\n",
		"d/":     "",
		"tab":    "a\tb\n",
		"crlfsh": "#!/bin/bash\r\necho\r\n",
		// #! lines file's magic knows by path, through env, or not at all
		"envS":  "#!/usr/bin/env -S node --flag\n",
		"envsh": "#!/usr/bin/env sh\n",
		"envaw": "#!/usr/bin/env awk -f\n",
		"node":  "#!/usr/bin/env node\n",
		"awk":   "#!/usr/bin/awk -f\n",
		"gawk":  "#!/usr/bin/gawk -f\n",
		"mawk":  "#!/usr/bin/mawk -f\n",
		"dash":  "#!/bin/dash\n",
		"zsh":   "#!/usr/bin/env zsh\n",
		"other": "#!/opt/tool run\n",
		// an ELF header with no program headers: no linking reported
		"elf": "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x3e\x00\x01\x00\x00\x00" + string(make([]byte, 40)),
	}
	var names []string
	for n := range kinds {
		names = append(names, strings.TrimSuffix(n, "/"))
	}
	sort.Strings(names)
	runDiff(t, []diffCase{
		{Files: kinds, Args: append([]string{"file"}, names...)},
		{Files: kinds, Args: append([]string{"file", "-b"}, names...)},
		{Files: kinds, Args: append([]string{"file", "-i"}, names...)},
		{Files: kinds, Args: []string{"file", "--mime-type", "sh", "json", "d", "empty"}},
		{Files: kinds, Args: []string{"file", "--mime-encoding", "sh", "utf", "latin", "bin"}},
		{Files: kinds, Args: []string{"file", "nofile", "sh"}},
		{Files: kinds, Args: []string{"file", "-E", "nofile"}},
		{Files: kinds, Args: []string{"file", "-N", "sh", "json"}},
		{Files: kinds, Args: []string{"file", "-F", " =", "sh"}},
		{Files: kinds, Args: []string{"file", "-"}, Stdin: "plain text\n"},
		{Files: kinds, Args: []string{"file"}},
	})
	filesRunDiffFS(t, []filesFSCase{
		{Files: kinds, Setup: [][]string{{"ln", "-s", "sh", "lsh"}, {"ln", "-s", "nowhere", "dang"}}, Args: []string{"file", "lsh", "dang"}, NoTree: true},
		{Files: kinds, Setup: [][]string{{"ln", "-s", "sh", "lsh"}}, Args: []string{"file", "-L", "lsh"}, NoTree: true},
		{Files: kinds, Setup: [][]string{{"ln", "-s", "sh", "lsh"}}, Args: []string{"file", "-i", "lsh"}, NoTree: true},
	})
	in := "one\ntwo\nthree\nfour\nfive\nsix\nseven\n"
	filesRunDiffFS(t, []filesFSCase{
		{Args: []string{"tee", "a", "b"}, Stdin: in},
		{Args: []string{"tee"}, Stdin: in},
		{Files: map[string]string{"a": "old\n"}, Args: []string{"tee", "-a", "a"}, Stdin: in},
		{Files: map[string]string{"a": "old\n"}, Args: []string{"tee", "a"}, Stdin: in},
		{Args: []string{"tee", "nodir/a", "b"}, Stdin: in},
		{Args: []string{"tee", "-"}, Stdin: in},
		{Files: map[string]string{"d/": ""}, Args: []string{"tee", "d"}, Stdin: in},
		{Args: []string{"tee", "--output-error=warn", "a"}, Stdin: in},
		{Args: []string{"tee", "--bogus"}, Stdin: in},
		{Args: []string{"split"}, Stdin: in},
		{Args: []string{"split", "-l", "2"}, Stdin: in},
		{Args: []string{"split", "-l2", "-", "part."}, Stdin: in},
		{Args: []string{"split", "-b", "5"}, Stdin: in},
		{Args: []string{"split", "-b", "5", "-d"}, Stdin: in},
		{Args: []string{"split", "-b", "5", "-a", "3", "-x"}, Stdin: in},
		{Args: []string{"split", "-C", "10"}, Stdin: in},
		{Args: []string{"split", "-C", "3"}, Stdin: in},
		{Args: []string{"split", "-l", "1", "--additional-suffix=.txt", "--verbose"}, Stdin: in},
		{Args: []string{"split", "-l", "1", "-a", "1"}, Stdin: strings.Repeat("x\n", 30)},
		{Args: []string{"split", "-l", "1", "-d", "-a", "1"}, Stdin: strings.Repeat("x\n", 11)},
		{Args: []string{"split", "-l", "1"}, Stdin: strings.Repeat("x\n", 700)},
		{Args: []string{"split", "-l", "1", "-d"}, Stdin: strings.Repeat("y\n", 95)},
		{Args: []string{"split", "--numeric-suffixes=7", "-l", "3"}, Stdin: in},
		{Args: []string{"split", "-t", ",", "-l", "2"}, Stdin: "a,b,c,d,e"},
		{Args: []string{"split", "-l", "0"}, Stdin: in},
		{Args: []string{"split", "-b", "x"}, Stdin: in},
		{Args: []string{"split", "nofile"}},
		{Args: []string{"split", "a", "b", "c"}},
		{Files: map[string]string{"ten": "0123456789"}, Args: []string{"split", "-n", "3", "ten"}},
		{Files: map[string]string{"ten": "0123456789"}, Args: []string{"split", "-n", "2/3", "ten"}},
		{Files: map[string]string{"two": "ab"}, Args: []string{"split", "-n", "4", "two", "z"}},
		{Files: map[string]string{"two": "ab"}, Args: []string{"split", "-e", "-n", "4", "two", "z"}},
		{Files: map[string]string{"l": "a\nbb\nccc\ndddd\neeeee\n"}, Args: []string{"split", "-n", "l/4", "l"}},
		{Files: map[string]string{"l": "aaaaaaaaaa\nb\n"}, Args: []string{"split", "-n", "l/3", "l"}},
		{Files: map[string]string{"l": "aaaaaaaaaa\nb\n"}, Args: []string{"split", "-e", "-n", "l/3", "l"}},
		{Files: map[string]string{"l": in}, Args: []string{"split", "-n", "l/2/3", "l"}},
		{Files: map[string]string{"l": in}, Args: []string{"split", "-n", "r/3", "l"}},
		{Files: map[string]string{"l": in}, Args: []string{"split", "-n", "r/2/3", "l"}},
		{Files: map[string]string{"l": in}, Args: []string{"split", "-n", "0", "l"}},
		{Files: map[string]string{"l": in}, Args: []string{"split", "-n", "4/3", "l"}},
		{Args: []string{"split", "-n", "2"}, Stdin: in},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "-s", "4", "a"}},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "-s", "+4", "a", "new"}},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "-s", "-4", "a"}},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "-s", "-40", "a"}},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "-s", "<4", "a"}},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "-s", ">40", "a"}},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "-s", "/4", "a"}},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "-s", "%4", "a"}},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "-s", "1K", "a"}},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "-s", "1KB", "a"}},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "-c", "-s", "0", "a", "nofile"}},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "-s", "0", "nodir/x"}},
		{Files: map[string]string{"a": "0123456789", "r": "xyz"}, Args: []string{"truncate", "-r", "r", "a"}},
		{Files: map[string]string{"a": "0123456789", "r": "xyz"}, Args: []string{"truncate", "-r", "r", "-s", "+2", "a"}},
		{Files: map[string]string{"a": "0123456789", "r": "xyz"}, Args: []string{"truncate", "-r", "r", "-s", "2", "a"}},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "a"}},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "-s", "5"}},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "-s", "x", "a"}},
		{Files: map[string]string{"a": "0123456789"}, Args: []string{"truncate", "-s", "/0", "a"}},
		{Files: map[string]string{"d/": ""}, Args: []string{"truncate", "-s", "0", "d"}},
		{Files: map[string]string{"a": "01"}, Args: []string{"truncate", "-o", "-s", "1", "a"}},
	})
}

func TestDiffFilesSlash(t *testing.T) {
	f := map[string]string{"f": "x\n", "d/in": ""}
	filesRunDiffFS(t, []filesFSCase{
		{Files: f, Args: []string{"cat", "f/"}},
		{Files: f, Args: []string{"cat", "nof/"}},
		{Files: f, Args: []string{"ls", "f/"}},
		{Files: f, Args: []string{"ls", "-d", "d/", "f"}},
		{Files: f, Args: []string{"stat", "-c", "%n", "f/", "d/"}},
		{Files: f, Args: []string{"du", "f/"}},
		{Files: f, Args: []string{"mv", "f/", "g"}},
		{Files: f, Args: []string{"touch", "f/"}},
		{Files: f, Args: []string{"touch", "nof/"}},
		{Files: f, Args: []string{"chmod", "600", "f/"}},
		{Files: f, Args: []string{"truncate", "-s", "0", "f/"}},
		{Files: f, Args: []string{"file", "f/"}},
		{Files: f, Args: []string{"tee", "f/"}, Stdin: "x"},
		{Files: f, Args: []string{"cp", "f/", "g"}},
		{Files: f, Args: []string{"cp", "f", "g/"}},
		{Files: f, Args: []string{"rm", "f/"}},
		{Files: f, Args: []string{"rmdir", "d/"}},
		{Files: f, Setup: [][]string{{"ln", "-s", "f", "lf"}}, Args: []string{"cat", "lf/"}},
		{Files: f, Setup: [][]string{{"ln", "-s", "d", "ld"}}, Args: []string{"ls", "ld/"}},
		{Files: f, Setup: [][]string{{"ln", "-s", "d", "ld"}}, Args: []string{"ls", "-l", "ld/"}, SkipStdout: "owner and group names: the host shows the user running the tests, sandsh its virtual sandbox user"},
		{Files: f, Setup: [][]string{{"ln", "-s", "d", "ld"}}, Args: []string{"du", "-s", "ld/"}},
	})
}

func TestDiffFilesLsLong(t *testing.T) {
	files := map[string]string{"a": "hello", "big": strings.Repeat("b", 123456), "d/x": "", "d/sub/y": "", "e": "",
		"exe": "#!/bin/sh\n"}
	setup := [][]string{{"chmod", "755", "exe"}, {"chmod", "1777", "d/sub"}, {"chmod", "4711", "e"},
		{"ln", "-s", "a", "la"}, {"ln", "-s", "d", "ld"}, {"ln", "-s", "gone", "dang"},
		{"touch", "-d", "2001-02-03 04:05:06", "a", "big", "d", "d/x", "d/sub", "d/sub/y", "e", "exe"},
		// Fixed link times too: "now" can fall on either side of a minute
		// between the host run and the sandsh run.
		{"touch", "-h", "-d", "2001-02-03 04:05:06", "la", "ld", "dang"}}
	ls := func(args ...string) filesFSCase {
		return filesFSCase{Files: files, Setup: setup, Args: append([]string{"ls", "-go", "--time-style=long-iso"}, args...), NoTree: true}
	}
	filesRunDiffFS(t, []filesFSCase{
		ls(), ls("-A"), ls("-h"), ls("-s"), ls("-sh"), ls("-F"), ls("-p"), ls("-S"), ls("-Sr"), ls("-R"), ls("-d", "d", "ld"),
		ls("la", "ld", "dang"), ls("-L", "la", "ld"), ls("--si"), ls("d", "a", "ld"), ls("--full-time", "a"),
		ls("--time-style=iso", "a"), ls("--time-style=+%Y|%j", "a"), ls("-n", "a"),
		ls("-c", "a"), ls("-u", "a"), ls("-t", "a", "big", "exe"), ls("--sort=size"), ls("-U", "a"), ls("-1"), ls("-C"),
	})
}

func TestDiffFilesLoops(t *testing.T) {
	loop := [][]string{{"mkdir", "-p", "d/sub"}, {"ln", "-s", "..", "d/sub/up"}}
	filesRunDiffFS(t, []filesFSCase{
		{Setup: loop, Args: []string{"ls", "-RL", "d"}, NoTree: true},
		{Setup: loop, Args: []string{"ls", "-R", "d"}, NoTree: true},
		{Setup: loop, Args: []string{"du", "-L", "d"}, NoTree: true, Sort: true},
		{Setup: loop, Args: []string{"cp", "-rL", "d", "e"}, NoTree: true},
		{Setup: loop, Args: []string{"cp", "-r", "d", "e"}},
		{Setup: loop, Args: []string{"chmod", "-R", "700", "d"}},
		{Setup: loop, Args: []string{"rm", "-r", "d"}},
	})
}

func TestDiffFilesDuDedup(t *testing.T) {
	f := map[string]string{"d/e/x": "x", "d/f": "ff"}
	filesRunDiffFS(t, []filesFSCase{
		{Files: f, Args: []string{"du", "d", "d"}, NoTree: true, Sort: true},
		{Files: f, Args: []string{"du", "-l", "d", "d"}, NoTree: true, Sort: true},
		{Files: f, Args: []string{"du", "d/e", "d"}, NoTree: true},
		{Files: f, Args: []string{"du", "-s", "d", "d/e"}, NoTree: true},
		{Files: f, Args: []string{"du", "-a", "d/f", "d"}, NoTree: true, Sort: true},
		{Files: f, Setup: [][]string{{"ln", "d/f", "d/hard"}}, Args: []string{"du", "-a", "d"}, NoTree: true, Sort: true},
		{Files: f, Setup: [][]string{{"ln", "d/f", "d/hard"}}, Args: []string{"du", "-al", "d"}, NoTree: true, Sort: true},
	})
}
