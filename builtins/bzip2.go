package builtins

import (
	"compress/bzip2"
	"context"
	"fmt"
	"io"
)

// bzip2Format: the standard library reads bzip2 but does not write it, so
// the bzip2 family decompresses only.
var bzip2Format = &zFormat{
	tool:     "bzip2",
	suffixes: [][2]string{{".bz2", ""}, {".bz", ""}, {".tbz2", ".tar"}, {".tbz", ".tar"}},
	reader: func(r io.Reader) (io.Reader, error) {
		// compress/bzip2 checks the magic on the first Read: peek it
		// here, so "not a bzip2 file" is told from a corrupt one.
		br := zPeeker(r)
		if head, err := br.Peek(3); err != nil || string(head) != "BZh" {
			return nil, fmt.Errorf("not a bzip2 file")
		}
		return bzip2.NewReader(br), nil
	},
	noInput: func(name string, err error) string {
		return fmt.Sprintf("Can't open input file %s: %s.", name, ErrText(err))
	},
	exists:    func(out string) string { return fmt.Sprintf("Output file %s already exists.", out) },
	notFormat: func(name string) string { return fmt.Sprintf("%s is not a bzip2 file.", name) },
	badData: func(name string, err error) string {
		return fmt.Sprintf("%s: Data integrity error when decompressing.", name)
	},
	dataStatus: 2,
}

func runBzip2(ctx context.Context, env *Env, args []string) int {
	return zMain(ctx, env, bzip2Format, args, false, false)
}
