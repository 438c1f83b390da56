package expand

import (
	"context"
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"
	"time"
)

// endlessDirs lists two subdirectories in every directory: a tree with
// no bottom, like a symlink loop a walk would follow.
func endlessDirs(string) ([]fs.DirEntry, error) {
	m := fstest.MapFS{"a/x": {}, "b/x": {}}
	return fs.ReadDir(m, ".")
}

// TestGlobCancel: a glob walk ends when its context does (the run's
// timeout), whatever its pattern: ** and a chain of *.
func TestGlobCancel(t *testing.T) {
	for _, pat := range []string{"**", "**/zz", "**/**/**/zz", "*/*/*/*/*/*/*/*/*/*/*/*/*/*/*/*/*/*/*/*/*/*/zz"} {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		cfg := &Config{ReadDir2: endlessDirs, GlobStar: true, Ctx: ctx}
		start := time.Now()
		_, err := cfg.glob("/", pat)
		cancel()
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%s: the walk went on %v past its context", pat, took)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: err %v, want the context's", pat, err)
		}
	}
}
