package policy

import (
	"bytes"
	"net/url"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Finding is a dangerous pattern found in a script's syntax tree.
type Finding struct {
	Pattern *Pattern
	Pos     syntax.Pos
	// Command is the offending code as written (one line, shortened).
	Command string
}

// ScriptFindings finds the dangerous shapes of a whole script: fork bombs
// (a function that calls itself in a pipeline or in the background,
// whatever its name), a download run by a shell (curl/wget piped into
// sh/bash, a shell reading a download through <(…) or $(…), or a file
// downloaded and then run by sh, bash, source, . or ./ in the same
// script), and redirections onto a disk device. Every pattern is
// reported, disabled or not; Policy.CheckScript applies the policy.
func ScriptFindings(f *syntax.File) []Finding {
	var out []Finding
	add := func(name string, n syntax.Node) {
		out = append(out, Finding{Pattern: PatternByName(name), Pos: n.Pos(), Command: shorten(printNode(n))})
	}
	downloaded := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if forkBomb(n) {
				add("fork-bomb", n)
			}
		case *syntax.BinaryCmd:
			if (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) && containsDownload(n.X) && startsShell(n.Y) {
				add("download-to-shell", n)
			}
		case *syntax.Stmt:
			if call, ok := n.Cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 {
				for _, file := range downloadTargets(call, n.Redirs) {
					downloaded[file] = true
				}
			}
			for _, r := range n.Redirs {
				switch r.Op {
				case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.ClbOut, syntax.RdrInOut:
					if r.Word != nil && DiskDevice(wordText(r.Word)) {
						add("dev-disk-write", n)
					}
				}
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				break
			}
			name := path.Base(wordText(n.Args[0]))
			if isShell(name) || name == "eval" || name == "source" || name == "." {
				// sh <(curl …), bash -c "$(curl …)", eval "$(wget -O- …)"
				for _, a := range n.Args[1:] {
					if containsDownload(a) {
						add("download-to-shell", n)
						return true
					}
				}
			}
			if target := runTarget(n); target != "" && downloaded[target] {
				add("download-to-shell", n)
			}
		}
		return true
	})
	return out
}

// CheckScript reports the first dangerous pattern in f that the policy
// has not disabled.
func (p *Policy) CheckScript(f *syntax.File) *Finding {
	for _, fd := range ScriptFindings(f) {
		if !p.disabled[fd.Pattern.Name] {
			return &fd
		}
	}
	return nil
}

var shellNames = []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox"}

func isShell(name string) bool { return slices.Contains(shellNames, name) }

// wordText is a word as written, quotes removed where they are plain.
func wordText(w *syntax.Word) string {
	if lit := w.Lit(); lit != "" {
		return lit
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				} else {
					b.WriteString(printNode(q))
				}
			}
		default:
			b.WriteString(printNode(p))
		}
	}
	return b.String()
}

func printNode(n syntax.Node) string {
	var buf bytes.Buffer
	if err := syntax.NewPrinter(syntax.SingleLine(true)).Print(&buf, n); err != nil {
		return ""
	}
	return strings.TrimSpace(buf.String())
}

func shorten(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// calls lists the simple commands inside n, however deeply nested
// (pipelines, subshells, substitutions).
func calls(n syntax.Node) []*syntax.CallExpr {
	var out []*syntax.CallExpr
	syntax.Walk(n, func(m syntax.Node) bool {
		if c, ok := m.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			out = append(out, c)
		}
		return true
	})
	return out
}

func isDownloader(c *syntax.CallExpr) bool {
	name := path.Base(wordText(c.Args[0]))
	return name == "curl" || name == "wget" || name == "fetch"
}

func containsDownload(n syntax.Node) bool { return slices.ContainsFunc(calls(n), isDownloader) }

// startsShell reports whether the command that reads a pipe is a shell
// reading its script from it (sh, bash -s, sudo bash, …).
func startsShell(n syntax.Node) bool {
	for _, c := range calls(n) {
		args := c.Args
		for len(args) > 0 {
			name := path.Base(wordText(args[0]))
			if name == "sudo" || name == "env" || name == "exec" || name == "command" {
				args = args[1:]
				continue
			}
			return isShell(name) || name == "source" || name == "."
		}
		return false
	}
	return false
}

// forkBomb reports a function that calls itself in a pipeline or in the
// background: :(){ :|:& };: and every renaming of it.
func forkBomb(fd *syntax.FuncDecl) bool {
	name := fd.Name.Value
	self := func(n syntax.Node) bool {
		return slices.ContainsFunc(calls(n), func(c *syntax.CallExpr) bool { return wordText(c.Args[0]) == name })
	}
	found := false
	syntax.Walk(fd.Body, func(n syntax.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background && self(n) {
				found = true
			}
		case *syntax.BinaryCmd:
			if (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) && self(n) {
				found = true
			}
		}
		return !found
	})
	return found
}

// downloadTargets lists the files a curl or wget command writes: -o F,
// --output F, -O F (wget), > F, and wget's default (the URL's last path
// element) or curl -O's.
func downloadTargets(c *syntax.CallExpr, redirs []*syntax.Redirect) []string {
	if !isDownloader(c) {
		return nil
	}
	wget := path.Base(wordText(c.Args[0])) == "wget"
	var out []string
	named := false
	var urls []string
	args := c.Args[1:]
	for i := 0; i < len(args); i++ {
		a := wordText(args[i])
		next := func() string {
			if i+1 < len(args) {
				i++
				return wordText(args[i])
			}
			return ""
		}
		switch {
		case a == "-o" || a == "--output" || wget && (a == "-O" || a == "--output-document"):
			out, named = append(out, clean(next())), true
		case strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "--output-document="):
			_, v, _ := strings.Cut(a, "=")
			out, named = append(out, clean(v)), true
		case !wget && strings.HasPrefix(a, "-o") && len(a) > 2:
			out, named = append(out, clean(a[2:])), true
		case wget && strings.HasPrefix(a, "-O") && len(a) > 2:
			out, named = append(out, clean(a[2:])), true
		case strings.Contains(a, "://"):
			urls = append(urls, a)
		}
	}
	remoteName := wget && !named || slices.ContainsFunc(c.Args[1:], func(w *syntax.Word) bool {
		t := wordText(w)
		return t == "-O" && !wget || t == "--remote-name"
	})
	if remoteName {
		for _, u := range urls {
			if pu, err := url.Parse(u); err == nil && path.Base(pu.Path) != "/" && path.Base(pu.Path) != "." {
				out = append(out, clean(path.Base(pu.Path)))
			}
		}
	}
	for _, r := range redirs {
		if (r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.ClbOut) && r.Word != nil {
			out = append(out, clean(wordText(r.Word)))
		}
	}
	return out
}

func clean(p string) string {
	if p == "" || p == "-" {
		return ""
	}
	return path.Clean(p)
}

// runTarget is the file a command runs as a script: sh F, bash F,
// source F, . F, or ./F itself.
func runTarget(c *syntax.CallExpr) string {
	name := wordText(c.Args[0])
	base := path.Base(name)
	if isShell(base) || base == "source" || base == "." {
		for _, a := range c.Args[1:] {
			t := wordText(a)
			if strings.HasPrefix(t, "-") {
				if t == "-c" {
					return ""
				}
				continue
			}
			return clean(t)
		}
		return ""
	}
	if strings.Contains(name, "/") {
		return clean(name)
	}
	return ""
}
