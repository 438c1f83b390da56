package builtins

import (
	"context"
	"fmt"
	"io"

	"github.com/ulikunitz/xz"
)

// xzFormat reads and writes .xz with github.com/ulikunitz/xz.
var xzFormat = &zFormat{
	tool:     "xz",
	suffixes: [][2]string{{".xz", ""}, {".txz", ".tar"}},
	reader: func(r io.Reader) (io.Reader, error) {
		return xz.NewReader(r)
	},
	writer: func(w io.Writer) (io.WriteCloser, error) {
		return xz.NewWriter(w)
	},
	noInput:    func(name string, err error) string { return fmt.Sprintf("%s: %s", name, ErrText(err)) },
	exists:     func(out string) string { return fmt.Sprintf("%s: File exists", out) },
	notFormat:  func(name string) string { return fmt.Sprintf("%s: File format not recognized", name) },
	badData:    func(name string, err error) string { return fmt.Sprintf("%s: Compressed data is corrupt", name) },
	dataStatus: 1,
}

func runXz(ctx context.Context, env *Env, args []string) int {
	return zMain(ctx, env, xzFormat, args, false, false)
}
