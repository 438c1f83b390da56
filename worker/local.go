package worker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/sandsh/sandsh/jail"
	"github.com/sandsh/sandsh/sandbox"
	"github.com/sandsh/sandsh/vfs"
)

// Init makes this program serve as sandsh's worker (or as a jail's first
// process) when it was started as one, and then exits; otherwise it
// returns at once. A program that starts sessions calls it first in
// main, before anything else runs: the worker is the program itself,
// started again with a marker in its environment.
func Init() {
	if jail.IsInit() {
		os.Exit(jail.InitMain())
	}
	if IsWorker() {
		os.Exit(Main(nil))
	}
}

// localSession is a session run in this process (Options.NoWorker):
// the same sandbox and calls, without the worker's walls.
type localSession struct {
	sb  *sandbox.Sandbox
	lim vfs.SnapLimits
}

func startLocal(o *Options) (*localSession, error) {
	sb, err := NewSandbox(o, io.Discard, io.Discard, bytes.NewReader(nil), "sandsh", nil)
	if err != nil {
		return nil, err
	}
	fsBytes, _ := ParseBytes(o.MaxFSBytes)
	fileSize, _ := ParseBytes(o.MaxFileSize)
	return &localSession{sb: sb, lim: vfs.SnapLimits{MaxBytes: fsBytes, MaxFiles: o.MaxFiles, MaxFileSize: fileSize}}, nil
}

// run is Session.Run in this process.
func (l *localSession) run(ctx context.Context, c Call, stdout, stderr io.Writer) (*Result, error) {
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	if !enterCwd(ctx, l.sb, c.Cwd, stderr) {
		return &Result{Status: 1}, nil
	}
	var before vfs.Manifest
	if c.Changes {
		var err error
		if before, err = vfs.TakeManifest(ctx, l.sb.FS(), "/", manifestMax(l.lim.MaxFiles)); err != nil {
			return nil, fmt.Errorf("changes: %w", err)
		}
	}
	name := c.Name
	if name == "" {
		name = "sandsh"
	}
	res, err := l.sb.Run(ctx, sandbox.Script{Source: c.Script, Name: name, Args: append([]string{name}, c.Args...),
		Command: true, Stdin: bytes.NewReader(c.Stdin), Stdout: stdout, Stderr: stderr})
	if err != nil {
		if errors.Is(err, sandbox.ErrClosed) {
			return nil, ErrSessionClosed
		}
		return nil, err
	}
	out := &Result{Status: finalStatus(stderr, res.Status, res.Err), Limit: res.Limit, Finished: res.Err == nil, Duration: res.Duration}
	out.Vars = varsOf(l.sb, c.Vars)
	if before != nil {
		after, err := vfs.TakeManifest(context.Background(), l.sb.FS(), "/", manifestMax(l.lim.MaxFiles))
		if err != nil {
			return nil, fmt.Errorf("changes: %w", err)
		}
		out.Changes = vfs.Diff(before, after)
		if out.Changes == nil {
			out.Changes = []vfs.Change{}
		}
	}
	return out, nil
}

func (l *localSession) readFile(name string, max int64) ([]byte, error) {
	r := l.sb.Runner()
	return readFile(r.FS(), r.Dir(), name, max, l.lim.MaxFileSize)
}

func (l *localSession) writeFile(name string, data []byte, perm fs.FileMode) error {
	r := l.sb.Runner()
	return writeFile(r.FS(), r.Dir(), name, data, perm)
}

func (l *localSession) readDir(name string) ([]DirEntry, error) {
	r := l.sb.Runner()
	return readDir(r.FS(), r.Dir(), name)
}
