package restrict

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"time"
)

// maxAskOutput bounds what is read of an ask command's answer.
const maxAskOutput = 4096

// RunAskCommand runs the operator's --ask-command (a shell command line,
// the operator's own program: it runs on the host, outside the sandbox,
// in the supervising parent and never in the worker) with question on
// its standard input, and returns what it printed. A command that does
// not finish within timeout is killed with everything it started;
// timedOut says so.
func RunAskCommand(ctx context.Context, command string, question []byte, timeout time.Duration) (answer []byte, timedOut bool, err error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Stdin = bytes.NewReader(question)
	var out bytes.Buffer
	cmd.Stdout = &limitedBuffer{b: &out, max: maxAskOutput}
	setAskGroup(cmd)
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	if ctx.Err() != nil {
		return nil, errors.Is(ctx.Err(), context.DeadlineExceeded), ctx.Err()
	}
	return out.Bytes(), false, err
}

// limitedBuffer keeps the first max bytes and drops the rest.
type limitedBuffer struct {
	b   *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
