package builtins

import (
	"io/fs"
	"testing"

	"github.com/spf13/afero"
)

func TestInstallCommand(t *testing.T) {
	src := map[string]string{"src": "hi\n", "d/": ""}
	cases := []struct {
		shellCase
		// want maps a path under the work dir to its mode ("" file
		// content unchecked); a mode of 0 means the path must not exist.
		want map[string]fs.FileMode
		data map[string]string
	}{
		{shellCase{args: []string{"install", "src", "dst"}, files: src}, map[string]fs.FileMode{"dst": 0o755}, map[string]string{"dst": "hi\n"}},
		{shellCase{args: []string{"install", "-m", "644", "src", "dst"}, files: src}, map[string]fs.FileMode{"dst": 0o644}, nil},
		{shellCase{args: []string{"install", "-m", "u=rw", "src", "dst"}, files: src}, map[string]fs.FileMode{"dst": 0o600}, nil},
		{shellCase{args: []string{"install", "-d", "a/b/c"}}, map[string]fs.FileMode{"a": fs.ModeDir | 0o755, "a/b/c": fs.ModeDir | 0o755}, nil},
		{shellCase{args: []string{"install", "-d", "-m", "700", "a/b"}}, map[string]fs.FileMode{"a": fs.ModeDir | 0o755, "a/b": fs.ModeDir | 0o700}, nil},
		{shellCase{args: []string{"install", "-D", "src", "x/y/z"}, files: src}, map[string]fs.FileMode{"x/y": fs.ModeDir | 0o755, "x/y/z": 0o755}, map[string]string{"x/y/z": "hi\n"}},
		{shellCase{args: []string{"install", "-t", "d", "src"}, files: src}, map[string]fs.FileMode{"d/src": 0o755}, nil},
		{shellCase{args: []string{"install", "src", "d"}, files: src}, map[string]fs.FileMode{"d/src": 0o755}, nil},
		{shellCase{args: []string{"install", "-D", "-t", "n/m", "src"}, files: src}, map[string]fs.FileMode{"n/m/src": 0o755}, nil},
		{shellCase{args: []string{"install", "-v", "src", "v"}, files: src, out: "'src' -> 'v'\n"}, map[string]fs.FileMode{"v": 0o755}, nil},
		{shellCase{args: []string{"install", "-dv", "p/q"}, out: "install: creating directory 'p'\ninstall: creating directory 'p/q'\n"}, nil, nil},
		{shellCase{args: []string{"install", "-T", "src", "d"}, files: src, status: 1, errHas: "cannot overwrite directory 'd'"}, nil, nil},
		{shellCase{args: []string{"install", "nope", "z"}, status: 1, errHas: "cannot stat 'nope': No such file or directory"}, map[string]fs.FileMode{"z": 0}, nil},
		{shellCase{args: []string{"install", "src"}, files: src, status: 1, errHas: "missing destination file operand after 'src'"}, nil, nil},
		{shellCase{args: []string{"install", "d", "z"}, files: src, status: 1, errHas: "omitting directory 'd'"}, nil, nil},
		{shellCase{args: []string{"install", "src", "src", "nodir"}, files: src, status: 1, errHas: "target 'nodir': No such file or directory"}, nil, nil},
		{shellCase{args: []string{"install", "-m", "999", "src", "q"}, files: src, status: 1, errHas: "invalid mode '999'"}, nil, nil},
		{shellCase{args: []string{"install", "-o", "root", "src", "q"}, files: src, status: 1, errHas: "invalid user 'root'"}, nil, nil},
		{shellCase{args: []string{"install", "-o", "sandbox", "-g", "1000", "src", "q"}, files: src}, map[string]fs.FileMode{"q": 0o755}, nil},
		{shellCase{args: []string{"install"}, status: 1, errHas: "missing file operand"}, nil, nil},
	}
	for _, c := range cases {
		var env *Env
		c.setup = func(e *Env) { env = e }
		shellRunCases(t, []shellCase{c.shellCase})
		for p, mode := range c.want {
			fi, err := env.FS.Stat(env.Abs(p))
			if mode == 0 {
				if err == nil {
					t.Errorf("%v: %s exists", c.args, p)
				}
				continue
			}
			if err != nil || fi.Mode()&(fs.ModeDir|fs.ModePerm) != mode {
				t.Errorf("%v: %s: %v %v, want mode %v", c.args, p, fi, err, mode)
			}
		}
		for p, data := range c.data {
			if b, err := afero.ReadFile(env.FS, env.Abs(p)); err != nil || string(b) != data {
				t.Errorf("%v: %s holds %q (%v), want %q", c.args, p, b, err, data)
			}
		}
	}
}
