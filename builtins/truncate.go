package builtins

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
)

const truncateUsage = `Usage: truncate OPTION... FILE...
Shrink or extend the size of each FILE to the specified size

A FILE argument that does not exist is created.

  -c, --no-create        do not create any files
  -o, --io-blocks        treat SIZE as number of IO blocks instead of bytes
  -r, --reference=RFILE  base size on RFILE
  -s, --size=SIZE        set or adjust the file size by SIZE bytes
      --help     display this help and exit

SIZE may also be prefixed by one of the following modifying characters:
'+' extend by, '-' reduce by, '<' at most, '>' at least,
'/' round down to multiple of, '%' round up to multiple of.
`

var truncateGetopt = Getopt{
	Short:     "cor:s:",
	Long:      []string{"no-create", "io-blocks", "reference=", "size="},
	LongAlias: map[string]string{"no-create": "c", "io-blocks": "o", "reference": "r", "size": "s"},
}

func runTruncate(ctx context.Context, env *Env, args []string) int {
	opts, operands, err := truncateGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("truncate", err, 1)
	}
	noCreate, blocks := false, false
	var ref, sizeArg string
	var haveRef, haveSize bool
	for _, o := range opts {
		switch o.Name {
		case "c":
			noCreate = true
		case "o":
			blocks = true
		case "r":
			ref, haveRef = o.Value, true
		case "s":
			sizeArg, haveSize = o.Value, true
		}
	}
	var op byte
	var size int64
	if haveSize {
		s := sizeArg
		if s != "" && len(s) > 0 && (s[0] == '+' || s[0] == '-' || s[0] == '<' || s[0] == '>' || s[0] == '/' || s[0] == '%') {
			op, s = s[0], s[1:]
		}
		n, err := fileutil.ParseSize(s)
		if err != nil || s != "" && (s[0] == '+' || s[0] == '-') {
			env.Errorf("truncate", "Invalid number: %s", fileutil.Quote(sizeArg))
			return 1
		}
		if blocks {
			n *= 4096
		}
		if (op == '/' || op == '%') && n == 0 {
			env.Errorf("truncate", "division by zero")
			return 1
		}
		size = n
	}
	switch {
	case !haveSize && !haveRef:
		return env.UsageError("truncate", errors.New("you must specify either '--size' or '--reference'"), 1)
	case haveRef && haveSize && op == 0:
		return env.UsageError("truncate", errors.New("you must specify a relative '--size' with '--reference'"), 1)
	case blocks && !haveSize:
		return env.UsageError("truncate", errors.New("'--io-blocks' was specified but '--size' was not"), 1)
	case len(operands) == 0:
		return env.UsageError("truncate", errors.New("missing file operand"), 1)
	}
	refSize := int64(-1)
	if haveRef {
		fi, err := filesStat(env, ref)
		if err != nil {
			filesErrorf(env, "truncate", err, "cannot stat %s", fileutil.Quote(ref))
			return 1
		}
		refSize = fi.Size()
		if !haveSize {
			size = refSize
		}
	}
	status := 0
	for _, name := range operands {
		if ctx.Err() != nil {
			return 130
		}
		if err := truncateOne(env, name, op, size, refSize, noCreate); err != nil {
			status = 1
		}
	}
	return status
}

func truncateOne(env *Env, name string, op byte, size, refSize int64, noCreate bool) error {
	abs := env.Abs(name)
	if strings.HasSuffix(name, "/") {
		// open(2) of "name/" for writing fails this way whatever name is.
		filesErrorf(env, "truncate", syscall.EISDIR, "cannot open %s for writing", fileutil.Quote(name))
		return syscall.EISDIR
	}
	flag := os.O_WRONLY
	if !noCreate {
		flag |= os.O_CREATE
	}
	fi, statErr := env.FS.Stat(abs)
	if statErr != nil && noCreate {
		return nil
	}
	f, err := filesCreate(env.FS, abs, flag, 0o666)
	if err != nil {
		filesErrorf(env, "truncate", filesStatErr(env.FS, abs, err), "cannot open %s for writing", fileutil.Quote(name))
		return err
	}
	defer f.Close()
	cur := int64(0)
	if statErr == nil {
		cur = fi.Size()
	}
	if refSize >= 0 {
		cur = refSize
	}
	n := size
	switch op {
	case '+':
		n = cur + size
	case '-':
		n = max(0, cur-size)
	case '<':
		n = min(cur, size)
	case '>':
		n = max(cur, size)
	case '/':
		n = cur / size * size
	case '%':
		n = (cur + size - 1) / size * size
	}
	if err := f.Truncate(n); err != nil {
		filesErrorf(env, "truncate", err, "failed to truncate %s at %d bytes", fileutil.Quote(name), n)
		return err
	}
	return nil
}
