package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"

	"github.com/fatih/color"
	"golang.org/x/term"
	"mvdan.cc/sh/v3/syntax"

	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/vfs"
)

// runREPL runs the interactive restricted shell on a terminal: line
// editing and history, multi-line input with PS2, tab completion of
// commands and sandbox paths, Ctrl-C to interrupt, Ctrl-D to leave.
func runREPL(o *Options) int {
	stdio := o.IO
	in, ok := stdio.In.(*os.File)
	if !ok {
		fmt.Fprintln(stdio.Err, "sandsh: interactive mode needs a terminal")
		return ExitUsage
	}
	out := stdio.Out
	sess, err := newSession(o, out, stdio.Err, in, "sandsh", nil, interp.Interactive(true))
	if err != nil {
		return reportSetupError(stdio.Err, err)
	}
	r := sess.runner
	useColor := stdio.Getenv("NO_COLOR") == "" && stdio.Getenv("TERM") != "dumb"
	if f, ok := out.(*os.File); !ok || !term.IsTerminal(int(f.Fd())) {
		useColor = false
	}
	fd := int(in.Fd())
	intr := &ctrlCReader{r: in}
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{intr, out}, "")
	t.AutoCompleteCallback = func(line string, pos int, key rune) (string, int, bool) {
		if key != '\t' {
			return "", 0, false
		}
		return complete(r, line, pos)
	}
	var hist *os.File
	if o.History != "" {
		if data, err := os.ReadFile(o.History); err == nil {
			for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
				if l != "" {
					t.History.Add(l)
				}
			}
		}
		hist, _ = os.OpenFile(o.History, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if hist != nil {
			defer hist.Close()
		}
	}
	fmt.Fprintf(out, "sandsh %s: restricted interactive shell (%s). Ctrl-D exits.\r\n", Version, sess.desc)
	var buf strings.Builder
	status := 0
	for {
		t.SetPrompt(prompt(r, buf.Len() > 0, useColor))
		intr.saw.Store(false)
		state, err := term.MakeRaw(fd)
		if err != nil {
			fmt.Fprintf(stdio.Err, "sandsh: terminal: %v\n", err)
			return ExitInternal
		}
		line, rerr := t.ReadLine()
		term.Restore(fd, state)
		if rerr == io.EOF {
			if intr.saw.Load() {
				fmt.Fprintln(out, "^C")
				buf.Reset()
				continue
			}
			fmt.Fprintln(out)
			break
		}
		if rerr != nil && rerr != term.ErrPasteIndicator {
			break
		}
		buf.WriteString(line)
		buf.WriteByte('\n')
		f, perr := syntax.NewParser().Parse(strings.NewReader(buf.String()), "")
		if perr != nil && syntax.IsIncomplete(perr) {
			continue
		}
		src := buf.String()
		buf.Reset()
		if perr != nil {
			fmt.Fprintf(stdio.Err, "sandsh: %v\n", perr)
			continue
		}
		if hist != nil && strings.TrimSpace(src) != "" {
			fmt.Fprint(hist, strings.TrimRight(src, "\n")+"\n")
		}
		status = runInterruptible(r, f.Stmts)
		if r.Exited() {
			break
		}
		r.Reset()
	}
	_ = status
	return r.Finish(context.Background())
}

// runInterruptible runs one line; Ctrl-C cancels it but keeps the session.
func runInterruptible(r *interp.Runner, stmts []*syntax.Stmt) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-ctx.Done():
		}
	}()
	return r.RunLine(ctx, stmts)
}

// prompt renders PS1 or PS2: the directory and that the session is
// restricted, coloured only on a terminal and never with NO_COLOR.
func prompt(r *interp.Runner, continuation bool, useColor bool) string {
	if continuation {
		return "> "
	}
	dir := r.Dir()
	if dir == vfs.HomeDir || strings.HasPrefix(dir, vfs.HomeDir+"/") {
		dir = "~" + dir[len(vfs.HomeDir):]
	}
	tag, sign := "[restricted]", "$ "
	if !useColor {
		return tag + " " + dir + " " + sign
	}
	c := color.New(color.FgYellow)
	c.EnableColor()
	d := color.New(color.FgCyan, color.Bold)
	d.EnableColor()
	return c.Sprint(tag) + " " + d.Sprint(dir) + " " + sign
}

// complete does tab completion: commands for the first word, sandbox
// paths for the rest.
func complete(r *interp.Runner, line string, pos int) (string, int, bool) {
	head := line[:pos]
	start := strings.LastIndexAny(head, " \t;|&(") + 1
	word := head[start:]
	first := strings.TrimSpace(head[:start]) == "" || strings.ContainsAny(strings.TrimSpace(head[:start])[max(0, len(strings.TrimSpace(head[:start]))-1):], ";|&(")
	var cands []string
	if first && !strings.Contains(word, "/") {
		cands = r.CommandCompletions(word)
	} else {
		cands = r.CompletePath(word, false)
	}
	if len(cands) == 0 {
		return "", 0, false
	}
	common := cands[0]
	for _, c := range cands[1:] {
		for !strings.HasPrefix(c, common) {
			common = common[:len(common)-1]
		}
	}
	if len(cands) == 1 && !strings.HasSuffix(common, "/") {
		common += " "
	}
	if common == word {
		return "", 0, false
	}
	newLine := head[:start] + common + line[pos:]
	return newLine, start + len(common), true
}

// ctrlCReader notes a Ctrl-C typed at the prompt, which x/term reports
// as io.EOF just like Ctrl-D.
type ctrlCReader struct {
	r   io.Reader
	saw atomic.Bool
}

func (c *ctrlCReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	for _, ch := range b[:n] {
		if ch == 3 {
			c.saw.Store(true)
		}
	}
	return n, err
}
