package worker

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/sandbox"
)

// maxAnswer bounds what is read for one y/N answer.
const maxAnswer = 256

// TerminalAsker asks on the interactive shell's terminal whether a
// command an `ask` rule matches may run: y or yes allows, anything else
// (an empty line, end of input, Ctrl-C) refuses. Only the REPL's
// supervisor, which has the terminal, uses one (through TermHold, which
// holds the sandbox's output back meanwhile); everywhere else ask means
// deny unless --ask-command or an MCP client answers.
func TerminalAsker(in io.Reader, out io.Writer) sandbox.Asker {
	return func(ctx context.Context, q sandbox.AskQuestion) sandbox.AskAnswer {
		d := fmt.Sprintf("rule %q", q.Rule)
		if q.Reason != "" {
			d += ": " + q.Reason
		}
		fmt.Fprintf(out, "sandsh: policy: run %q? (%s) [y/N] ", q.Command, d)
		var line []byte
		b := make([]byte, 1)
		for len(line) < maxAnswer && ctx.Err() == nil {
			n, err := in.Read(b)
			if n == 1 {
				if b[0] == '\n' || b[0] == '\r' {
					break
				}
				line = append(line, b[0])
			}
			if err != nil {
				fmt.Fprintln(out)
				return sandbox.AskAnswer{By: "terminal", Answer: "", Why: "the operator said no"}
			}
		}
		ans := strings.ToLower(strings.TrimSpace(string(line)))
		return sandbox.AskAnswer{Allow: ans == "y" || ans == "yes", By: "terminal", Answer: ans, Why: "the operator said no"}
	}
}

// DefaultAskTimeout is how long --ask-command may take to answer.
const DefaultAskTimeout = 30 * time.Second

// asker is who answers the policy's ask rules in this process: in a
// worker, the supervisor through the ask broker; else parentAsker; nil
// (ask is deny) when nobody can answer.
func (o *Options) asker() sandbox.Asker {
	if o.worker != nil {
		return o.worker.ask
	}
	return o.parentAsker()
}

// parentAsker is who answers asks in the supervising process: AskFunc
// (MCP elicitation), else --ask-command, else Ask (the interactive
// shell's terminal), else nobody. The worker, which runs the script,
// never asks itself: it sends the question to the supervisor through the
// ask broker (issue 23.1).
func (o *Options) parentAsker() sandbox.Asker {
	switch {
	case o.AskFunc != nil:
		return o.AskFunc
	case o.AskCommand != "":
		return o.commandAsker()
	}
	return o.Ask
}

// commandAsker runs --ask-command for each question, in the supervising
// process: one JSON object on its standard input, allow, deny or
// allow-session on its standard output; no answer within --ask-timeout
// is deny.
func (o *Options) commandAsker() sandbox.Asker {
	timeout := o.AskTimeout
	if timeout <= 0 {
		timeout = DefaultAskTimeout
	}
	return func(ctx context.Context, q sandbox.AskQuestion) sandbox.AskAnswer {
		data, _ := json.Marshal(q)
		out, timedOut, err := restrict.RunAskCommand(ctx, o.AskCommand, append(data, '\n'), timeout)
		switch {
		case timedOut:
			return sandbox.AskAnswer{By: "timeout", Why: fmt.Sprintf("no answer from --ask-command within %s", timeout)}
		case err != nil:
			return sandbox.AskAnswer{By: "ask-command", Why: "--ask-command failed: " + builtins.ErrText(err)}
		}
		line, _, _ := strings.Cut(string(out), "\n")
		ans := strings.TrimSpace(line)
		switch ans {
		case "allow":
			return sandbox.AskAnswer{Allow: true, By: "ask-command", Answer: ans}
		case "allow-session":
			return sandbox.AskAnswer{Allow: true, Session: true, By: "ask-command", Answer: ans}
		case "deny":
			return sandbox.AskAnswer{By: "ask-command", Answer: ans, Why: "--ask-command said deny"}
		}
		if len(ans) > 64 {
			ans = ans[:64]
		}
		return sandbox.AskAnswer{By: "ask-command", Answer: ans, Why: fmt.Sprintf("--ask-command answered %q, not allow, deny or allow-session", ans)}
	}
}

// maxAskFrame bounds one question or answer on the broker's pipes.
const maxAskFrame = 1 << 20

// startAskBroker adds the broker's pipes to the worker's descriptors and
// records them in the payload; nil when no one in this process can
// answer (then ask is deny in the worker).
func (o *Options) startAskBroker(extra *[]*os.File, p *workerPayload) (*broker, error) {
	ask := o.parentAsker()
	if ask == nil {
		return nil, nil
	}
	b, fds, err := startBroker(extra, func(ctx context.Context, req io.Reader, resp io.Writer) {
		br := bufio.NewReaderSize(req, 64<<10)
		for {
			line, err := readFrameLine(br)
			if err != nil {
				return
			}
			var q sandbox.AskQuestion
			a := sandbox.AskAnswer{By: "supervisor", Why: "the question was not readable"}
			if json.Unmarshal(line, &q) == nil && len(q.Argv) > 0 {
				a = ask(ctx, q)
			}
			out, _ := json.Marshal(a)
			if _, err := resp.Write(append(out, '\n')); err != nil {
				return
			}
		}
	})
	if err != nil {
		return nil, err
	}
	p.AskFDs = fds
	return b, nil
}

// readFrameLine reads one line of at most maxAskFrame bytes.
func readFrameLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxAskFrame {
			return nil, fmt.Errorf("ask: a frame over %d bytes", maxAskFrame)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return nil, err
		}
		return buf[:len(buf)-1], nil
	}
}

// workerAsk is the worker's end of the ask broker: one question at a
// time, answered by the parent.
func workerAsk(p *workerPayload) sandbox.Asker {
	w, r := workerPipes(p.AskFDs, "ask")
	if w == nil {
		return nil
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var mu sync.Mutex
	return func(ctx context.Context, q sandbox.AskQuestion) sandbox.AskAnswer {
		mu.Lock()
		defer mu.Unlock()
		fail := sandbox.AskAnswer{By: "supervisor", Why: "no answer from the supervisor"}
		data, _ := json.Marshal(q)
		if _, err := w.Write(append(data, '\n')); err != nil {
			return fail
		}
		line, err := readFrameLine(br)
		if err != nil {
			return fail
		}
		var a sandbox.AskAnswer
		if json.Unmarshal(line, &a) != nil {
			return fail
		}
		return a
	}
}
