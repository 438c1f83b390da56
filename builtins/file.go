package builtins

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/sandsh/sandsh/builtins/internal/magic"
)

const fileUsage = `Usage: file [OPTION...] [FILE...]
Determine type of FILEs.

  -b, --brief                do not prepend filenames to output lines
  -E                         on filesystem errors, issue an error message
                               and exit
  -f, --files-from FILE      read the filenames to be examined from FILE
  -F, --separator STRING     use string as separator instead of ':'
  -i, --mime                 output MIME type strings (--mime-type and
                               --mime-encoding)
      --mime-type            output the MIME type
      --mime-encoding        output the MIME encoding
  -L, --dereference          follow symlinks
  -h, --no-dereference       don't follow symlinks (default)
  -N, --no-pad               do not pad output
  -0, --print0               terminate filenames with ASCII NUL
      --help                 display this help and exit
`

var fileGetopt = Getopt{
	Short: "bEf:F:ihLN0zsk",
	Long: []string{"brief", "files-from=", "separator=", "mime", "mime-type", "mime-encoding", "dereference",
		"no-dereference", "no-pad", "print0", "uncompress", "special-files", "keep-going"},
	LongAlias: map[string]string{"brief": "b", "files-from": "f", "separator": "F", "mime": "i",
		"dereference": "L", "no-dereference": "h", "no-pad": "N", "print0": "0", "uncompress": "z",
		"special-files": "s", "keep-going": "k"},
}

type fileRun struct {
	env                      *Env
	brief, noPad, errExit    bool
	mimeType, mimeEnc, deref bool
	sep                      string
	nul                      bool
}

func runFile(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := fileGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("file", err, 1)
	}
	r := &fileRun{env: env, sep: ":"}
	var lists []string
	for _, o := range opts {
		switch o.Name {
		case "b":
			r.brief = true
		case "E":
			r.errExit = true
		case "f":
			lists = append(lists, o.Value)
		case "F":
			r.sep = o.Value
		case "i":
			r.mimeType, r.mimeEnc = true, true
		case "mime-type":
			r.mimeType = true
		case "mime-encoding":
			r.mimeEnc = true
		case "L":
			r.deref = true
		case "h":
			r.deref = false
		case "N":
			r.noPad = true
		case "0":
			r.nul = true
		}
	}
	for _, l := range lists {
		names, err := r.readList(l)
		if err != nil {
			env.Errorf("file", "Cannot open `%s' (%s).", l, ErrText(err))
			return 1
		}
		operands = append(operands, names...)
	}
	if len(operands) == 0 {
		fmt.Fprint(env.Stderr, "Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n"+
			"            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n"+
			"            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n"+
			"            <file> ...\n"+
			"       file -C [-m <magicfiles>]\n"+
			"       file [--help]\n")
		return 1
	}
	width := 0
	for _, n := range operands {
		width = max(width, len(r.display(n)))
	}
	out := filesNewWriter(env.Stdout)
	status := 0
	for _, name := range operands {
		if ctx.Err() != nil {
			return 130
		}
		desc, failed := r.describe(name)
		if failed && r.errExit {
			status = 1
		}
		if !r.brief {
			shown := r.display(name)
			out.WriteString(shown)
			if r.nul {
				out.WriteByte(0)
			} else {
				out.WriteString(r.sep)
			}
			if !r.noPad && !failed {
				out.WriteString(strings.Repeat(" ", width-len(shown)))
			}
			out.WriteByte(' ')
		}
		out.WriteString(desc)
		out.WriteByte('\n')
	}
	if err := out.Flush(); err != nil {
		return env.WriteError("file", err)
	}
	return status
}

func (r *fileRun) display(name string) string {
	if name == "-" {
		return "/dev/stdin"
	}
	return name
}

func (r *fileRun) readList(name string) ([]string, error) {
	var rd io.Reader
	if name == "-" {
		rd = r.env.Stdin
	} else {
		f, err := r.env.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		rd = f
	}
	b, err := io.ReadAll(rd)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" {
			names = append(names, l)
		}
	}
	return names, nil
}

// describe returns the description of one file and whether it could not
// be examined.
func (r *fileRun) describe(name string) (string, bool) {
	if name == "-" {
		head, _ := io.ReadAll(io.LimitReader(r.env.Stdin, magic.HeadSize))
		return r.format(magic.Describe(head, int64(len(head)), nil, filesLocation(r.env))), false
	}
	fi, err := filesLstat(r.env, name)
	if err == nil {
		if serr := filesSlashErr(r.env, name); serr != nil {
			return fmt.Sprintf("cannot open `%s' (%s)", name, ErrText(serr)), r.errExit
		}
	}
	if err == nil && r.deref && filesIsLink(fi) {
		if tfi, serr := filesStat(r.env, name); serr == nil {
			fi = tfi
		}
	}
	if err != nil {
		if r.errExit {
			return fmt.Sprintf("ERROR: cannot stat `%s' (%s)", name, ErrText(err)), true
		}
		return fmt.Sprintf("cannot open `%s' (%s)", name, ErrText(err)), false
	}
	switch m := fi.Mode(); {
	case m.IsDir():
		return r.format(magic.Result{Desc: "directory", MIME: "inode/directory", Encoding: "binary"}), false
	case m&fs.ModeSymlink != 0:
		target, _ := r.env.FS.ReadlinkIfPossible(r.env.Abs(name))
		desc := "symbolic link to " + target
		if _, err := filesStat(r.env, name); err != nil {
			desc = "broken " + desc
		}
		return r.format(magic.Result{Desc: desc, MIME: "inode/symlink", Encoding: "binary"}), false
	case m&fs.ModeNamedPipe != 0:
		return r.format(magic.Result{Desc: "fifo (named pipe)", MIME: "inode/fifo", Encoding: "binary"}), false
	case m&fs.ModeSocket != 0:
		return r.format(magic.Result{Desc: "socket", MIME: "inode/socket", Encoding: "binary"}), false
	}
	f, err := r.env.FS.Open(r.env.Abs(name))
	if err != nil {
		return fmt.Sprintf("cannot open `%s' (%s)", name, ErrText(err)), r.errExit
	}
	defer f.Close()
	head := make([]byte, magic.HeadSize)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && err != io.EOF {
		return fmt.Sprintf("cannot read `%s' (%s)", name, ErrText(err)), r.errExit
	}
	size := fi.Size()
	tail := func(k int) []byte {
		b := make([]byte, k)
		if _, err := f.ReadAt(b, size-int64(k)); err != nil {
			return nil
		}
		return b
	}
	return r.format(magic.Describe(head[:n], size, tail, filesLocation(r.env))), false
}

func (r *fileRun) format(res magic.Result) string {
	switch {
	case r.mimeType && r.mimeEnc:
		return res.MIME + "; charset=" + res.Encoding
	case r.mimeType:
		return res.MIME
	case r.mimeEnc:
		return res.Encoding
	}
	return res.Desc
}
