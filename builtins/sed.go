package builtins

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/spf13/afero"

	"github.com/sandsh/sandsh/builtins/internal/sed"
	"github.com/sandsh/sandsh/vfs"
)

const sedUsage = `Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
      --debug
                 annotate program execution (accepted, ignored)
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  --follow-symlinks
                 follow symlinks when processing in place
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the ` + "`l'" + ` command
  --posix
                 disable all GNU extensions.
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single,
                 continuous long stream.
      --sandbox
                 operate in sandbox mode (disable e/r/w commands).
  -u, --unbuffered
                 load minimal amounts of data from the input files and flush
                 the output buffers more often
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read.
`

var sedGetopt = Getopt{
	Same:  map[string]string{"r": "E"},
	Short: "nrsuEzbi::l:e:f:",
	Long: []string{"quiet", "silent", "expression=", "file=", "in-place?", "line-length=",
		"null-data", "zero-terminated", "regexp-extended", "separate", "unbuffered", "posix",
		"debug", "sandbox", "follow-symlinks", "binary", "version"},
	LongAlias: map[string]string{"quiet": "n", "silent": "n", "expression": "e", "file": "f",
		"in-place": "i", "line-length": "l", "null-data": "z", "zero-terminated": "z",
		"regexp-extended": "E", "separate": "s", "unbuffered": "u", "binary": "b"},
}

// sedConfig is the result of parsing sed's command line.
type sedConfig struct {
	opt     sed.Options
	scripts []sed.Script
	files   []string
	follow  bool
	version bool
}

func runSed(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	cfg, status := sedParseArgs(env, name, args[1:])
	if status >= 0 {
		return status
	}
	if cfg.version {
		fmt.Fprintf(env.Stdout, "sed (GNU sed) %s\n", sed.Version)
		return 0
	}
	prog, err := sed.Compile(cfg.scripts, cfg.opt)
	if err != nil {
		var se *sed.Error
		if errors.As(err, &se) {
			env.Errorf(name, "%s", se.Msg)
			return se.Status
		}
		env.Errorf(name, "%v", err)
		return 1
	}
	files := cfg.files
	if cfg.follow {
		files = sedFollowAll(env, files)
	}
	st, err := prog.Run(ctx, files, sedIO(env, name))
	if err != nil {
		return env.WriteError(name, err)
	}
	return st
}

// sedParseArgs parses the command line. It returns a status >= 0 when sed
// must stop at once.
func sedParseArgs(env *Env, name string, args []string) (*sedConfig, int) {
	opts, operands, err := sedGetopt.Parse(args)
	if err != nil {
		fmt.Fprintf(env.Stderr, "%s: %v\n%s", name, err, sedUsage)
		return nil, 1
	}
	cfg := &sedConfig{opt: sed.Options{LineWrap: 70, UTF8: sedUTF8(env), MaxLine: env.LineMax()}}
	if _, ok := env.LookupEnv("POSIXLY_CORRECT"); ok {
		cfg.opt.Posix = sed.PosixCorrect
	}
	haveScript := false
	for _, o := range opts {
		switch o.Name {
		case "n":
			cfg.opt.Quiet = true
		case "r", "E":
			cfg.opt.Extended = true
		case "s":
			cfg.opt.Separate = true
		case "u":
			cfg.opt.Unbuffered = true
		case "z":
			cfg.opt.NullData = true
		case "i":
			cfg.opt.InPlace, cfg.opt.Separate = true, true
			cfg.opt.InPlaceSuffix = o.Value
		case "l":
			cfg.opt.LineWrap = sedAtoi(o.Value)
		case "e":
			cfg.scripts = append(cfg.scripts, sed.Script{Text: []byte(o.Value), Opt: sedSnapshot(cfg.opt)})
			haveScript = true
		case "f":
			text, err := sedReadScript(env, o.Value)
			if err != nil {
				env.Errorf(name, "couldn't open file %s: %s", o.Value, ErrText(err))
				return nil, 4
			}
			cfg.scripts = append(cfg.scripts, sed.Script{Text: text, File: o.Value, Opt: sedSnapshot(cfg.opt)})
			haveScript = true
		case "posix":
			cfg.opt.Posix = sed.PosixBasic
		case "sandbox":
			cfg.opt.Sandbox = true
		case "follow-symlinks":
			cfg.follow = true
		case "version":
			cfg.version = true
		}
	}
	if cfg.version {
		return cfg, -1
	}
	if !haveScript {
		if len(operands) == 0 {
			fmt.Fprint(env.Stderr, sedUsage)
			return nil, 1
		}
		cfg.scripts = []sed.Script{{Text: []byte(operands[0])}}
		operands = operands[1:]
	}
	cfg.files = operands
	return cfg, -1
}

// sedSnapshot copies the options given so far: like GNU sed, each -e and
// -f is compiled with the options that come before it.
func sedSnapshot(o sed.Options) *sed.Options { return &o }

// sedAtoi converts like C's atoi: leading digits, 0 when there are none.
func sedAtoi(s string) int {
	s = strings.TrimLeft(s, " \t")
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(s[:end])
	if err != nil {
		return 0
	}
	return n
}

// sedUTF8 reports whether the locale is a UTF-8 one.
func sedUTF8(env *Env) bool {
	loc := env.Getenv("LC_ALL")
	if loc == "" {
		loc = env.Getenv("LC_CTYPE")
	}
	if loc == "" {
		loc = env.Getenv("LANG")
	}
	loc = strings.ToLower(loc)
	return strings.Contains(loc, "utf-8") || strings.Contains(loc, "utf8")
}

// sedReadScript reads an -f script file ("-" is standard input).
func sedReadScript(env *Env, name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(env.Stdin)
	}
	f, err := env.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(bufio.NewReader(f))
}

// sedIO connects the engine to the sandbox.
func sedIO(env *Env, name string) *sed.IO {
	return &sed.IO{
		Stdin:  env.Stdin,
		Stdout: env.Stdout,
		Stderr: env.Stderr,
		Open:   env.Open,
		Create: func(file string) (io.WriteCloser, error) {
			return env.FS.OpenFile(env.Abs(file), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		},
		Edit: func(file string) (sed.InPlaceFile, error) { return sedStartEdit(env, file) },
		Exec: func(ctx context.Context, cmdline string, stdout io.Writer) int {
			if env.Exec == nil {
				fmt.Fprintf(env.Stderr, "%s: cannot run commands here\n", name)
				return 127
			}
			sub := env.Sub()
			sub.Stdin, sub.Stdout = strings.NewReader(""), stdout
			return env.Exec(ctx, env.Child(sub, "sed", "sed e"), []string{"sh", "-c", cmdline})
		},
		ErrText: ErrText,
		Name:    name,
	}
}

// sedEdit is an in-place edit: the new contents go to a temporary file in
// the same directory, which replaces the original on Commit.
type sedEdit struct {
	env    *Env
	target string // absolute
	tmp    string
	f      afero.File
	mode   fs.FileMode
}

func sedStartEdit(env *Env, file string) (sed.InPlaceFile, error) {
	target := env.Abs(file)
	fi, err := env.FS.Stat(target)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, sed.ErrNotRegular
	}
	dir := path.Dir(target)
	for i := 0; ; i++ {
		tmp := fmt.Sprintf("%s/sed%06d", dir, i)
		f, err := env.FS.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return &sedEdit{env: env, target: target, tmp: tmp, f: f, mode: fi.Mode().Perm()}, nil
		}
		if !errors.Is(err, fs.ErrExist) || i > 1000 {
			return nil, err
		}
	}
}

func (e *sedEdit) Write(p []byte) (int, error) { return e.f.Write(p) }

func (e *sedEdit) Commit(backup string) error {
	if err := e.f.Close(); err != nil {
		e.env.FS.Remove(e.tmp)
		return err
	}
	e.env.FS.Chmod(e.tmp, e.mode)
	if backup != "" {
		if err := e.env.FS.Rename(e.target, e.env.Abs(backup)); err != nil {
			e.env.FS.Remove(e.tmp)
			return err
		}
	}
	if err := e.env.FS.Rename(e.tmp, e.target); err != nil {
		e.env.FS.Remove(e.tmp)
		return err
	}
	return nil
}

func (e *sedEdit) Abort() {
	e.f.Close()
	e.env.FS.Remove(e.tmp)
}

// sedFollowAll replaces each symlink among files by the file it points
// to, for --follow-symlinks.
func sedFollowAll(env *Env, files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f
		if f != "-" {
			out[i] = sedFollow(env, f)
		}
	}
	return out
}

func sedFollow(env *Env, name string) string {
	for range 40 {
		fi, err := vfs.Lstat(env.FS, env.Abs(name))
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return name
		}
		target, err := env.FS.ReadlinkIfPossible(env.Abs(name))
		if err != nil {
			return name
		}
		if path.IsAbs(target) {
			name = target
		} else {
			name = path.Join(path.Dir(name), target)
		}
	}
	return name
}
