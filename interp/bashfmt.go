package interp

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// bashFmt renders a function the way bash 5.2's print_cmd.c does for
// `declare -f` and `type`: bash reformats the body (4-space indents, `;`
// at line ends, `then`/`do` placement, here-document bodies after the
// command), and scripts compare that text, so mvdan's layout will not do.
// Words, arithmetic and [[ ]] tests are still printed by mvdan's printer:
// bash keeps their source text, which mvdan reproduces closely.
type bashFmt struct {
	sb     strings.Builder
	indent int
	skip   int // bash's skip_this_indent
	hdocs  []*syntax.Redirect
	wp     *syntax.Printer
	ap     *syntax.Printer // minified: arithmetic as written, on one line
}

// bashFuncText is the text `declare -f name` prints, without the final
// newline.
func bashFuncText(name string, body *syntax.Stmt) string {
	f := &bashFmt{wp: syntax.NewPrinter(), ap: syntax.NewPrinter(syntax.Minify(true))}
	if isReservedWord(name) {
		f.str("function ")
	}
	f.str(name + " () \n")
	f.funcBody(body)
	return f.sb.String()
}

// bashRedirText renders redirections as bash prints them after a
// command, here-document bodies included.
func bashRedirText(rs []*syntax.Redirect) string {
	f := &bashFmt{wp: syntax.NewPrinter(), ap: syntax.NewPrinter(syntax.Minify(true))}
	f.redirs(rs)
	f.flushHdocs("")
	return f.sb.String()
}

func isReservedWord(s string) bool {
	switch s {
	case "if", "then", "else", "elif", "fi", "case", "esac", "for", "select",
		"while", "until", "do", "done", "in", "function", "time", "{", "}",
		"!", "[[", "]]", "coproc":
		return true
	}
	return false
}

// funcBody prints `{ ` ... `}` at the current indentation; the caller has
// indented the line already.
func (f *bashFmt) funcBody(body *syntax.Stmt) {
	f.str("{ \n")
	f.indent += 4
	var redirs []*syntax.Redirect
	if b, ok := body.Cmd.(*syntax.Block); ok && !body.Negated && !body.Background {
		redirs = body.Redirs
		f.stmts(b.Stmts)
	} else {
		f.stmts([]*syntax.Stmt{body})
	}
	f.flushHdocs("")
	f.indent -= 4
	f.newline("}")
	if len(redirs) > 0 {
		f.str(" ")
		f.redirs(redirs)
		f.flushHdocs("")
	}
}

func (f *bashFmt) str(s string) { f.sb.WriteString(s) }

func (f *bashFmt) last() byte {
	s := f.sb.String()
	if s == "" {
		return 0
	}
	return s[len(s)-1]
}

// semicolon is print_cmd.c's semicolon(): no `;` after `&` or a newline.
func (f *bashFmt) semicolon() {
	if c := f.last(); c == '&' || c == '\n' {
		return
	}
	f.str(";")
}

func (f *bashFmt) newline(s string) {
	f.str("\n")
	f.doIndent()
	f.str(s)
}

func (f *bashFmt) doIndent() { f.str(strings.Repeat(" ", f.indent)) }

// stmts prints a list the way bash prints its `;`/`&` connection tree
// inside a function: one command per line, `;` at the end of all but the
// last, and `&` keeping the next command on the same line.
func (f *bashFmt) stmts(list []*syntax.Stmt) {
	for i, s := range list {
		f.stmt(s)
		if i == len(list)-1 {
			if s.Background {
				f.str(" &")
			}
			break
		}
		if s.Background {
			f.flushHdocs(" &")
			if len(f.hdocs) == 0 && f.last() != ' ' {
				f.str(" ")
			}
			f.skip++
			continue
		}
		if len(f.hdocs) == 0 {
			f.str(";")
		} else {
			f.flushHdocs("")
		}
		f.str("\n")
	}
}

// flushHdocs is print_deferred_heredocs: here-document bodies go after
// the command that opened them.
func (f *bashFmt) flushHdocs(s string) {
	if s != "" && (s[0] != ';' || len(s) > 1) {
		f.str(s)
	}
	if len(f.hdocs) == 0 {
		return
	}
	for _, r := range f.hdocs {
		f.str("\n")
		if r.Hdoc != nil {
			var sb strings.Builder
			if err := f.wp.Print(&sb, r.Hdoc); err == nil {
				body := sb.String()
				if r.Op == syntax.DashHdoc {
					// bash stores the body with the leading tabs removed.
					lines := strings.SplitAfter(body, "\n")
					for i := range lines {
						lines[i] = strings.TrimLeft(lines[i], "\t")
					}
					body = strings.Join(lines, "")
				}
				f.str(body)
			}
		}
		f.str(hdocDelim(r.Word) + "\n")
	}
	if s != "" && (s[0] != ';' || len(s) > 1) {
		f.str(" ")
	}
	f.hdocs = nil
}

// hdocDelim is the here-document terminator: the delimiter word with its
// quotes removed.
func hdocDelim(w *syntax.Word) string {
	var sb strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			sb.WriteString(strings.ReplaceAll(p.Value, `\`, ""))
		case *syntax.SglQuoted:
			sb.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					sb.WriteString(l.Value)
				}
			}
		}
	}
	return sb.String()
}

func (f *bashFmt) word(w *syntax.Word) {
	var sb strings.Builder
	if err := f.wp.Print(&sb, w); err == nil {
		f.str(sb.String())
	}
}

func (f *bashFmt) node(n syntax.Node) string {
	var sb strings.Builder
	if err := f.wp.Print(&sb, n); err != nil {
		return ""
	}
	return sb.String()
}

func (f *bashFmt) arith(x syntax.ArithmExpr) string {
	if x == nil {
		return ""
	}
	var sb strings.Builder
	if err := f.ap.Print(&sb, &syntax.ArithmExp{Left: x.Pos(), Right: x.End(), X: x}); err != nil {
		return ""
	}
	s := sb.String()
	s = strings.TrimPrefix(s, "$((")
	return strings.TrimSuffix(s, "))")
}

func (f *bashFmt) stmt(s *syntax.Stmt) {
	if f.skip > 0 {
		f.skip--
	} else {
		f.doIndent()
	}
	if s.Negated {
		f.str("! ")
	}
	f.command(s.Cmd)
	if len(s.Redirs) > 0 {
		if s.Cmd != nil {
			f.str(" ")
		}
		f.redirs(s.Redirs)
	}
}

func (f *bashFmt) command(c syntax.Command) {
	switch c := c.(type) {
	case nil:
	case *syntax.CallExpr:
		sep := ""
		for _, a := range c.Assigns {
			f.str(sep + f.node(a))
			sep = " "
		}
		for _, w := range c.Args {
			f.str(sep)
			f.word(w)
			sep = " "
		}
	case *syntax.DeclClause:
		f.str(c.Variant.Value)
		for _, a := range c.Args {
			f.str(" " + f.node(a))
		}
	case *syntax.BinaryCmd:
		f.skip++
		f.stmt(c.X)
		switch c.Op {
		case syntax.AndStmt:
			f.flushHdocs(" && ")
		case syntax.OrStmt:
			f.flushHdocs(" || ")
		default:
			if c.Op == syntax.PipeAll {
				f.str(" 2>&1")
			}
			f.flushHdocs(" |")
			f.str(" ")
		}
		f.skip++
		f.stmt(c.Y)
	case *syntax.Block:
		f.str("{ \n")
		f.indent += 4
		f.stmts(c.Stmts)
		f.flushHdocs("")
		f.str("\n")
		f.indent -= 4
		f.doIndent()
		f.str("}")
	case *syntax.Subshell:
		f.str("( ")
		f.skip++
		f.stmts(c.Stmts)
		f.flushHdocs("")
		f.str(" )")
	case *syntax.IfClause:
		f.ifClause(c)
	case *syntax.WhileClause:
		if c.Until {
			f.str("until ")
		} else {
			f.str("while ")
		}
		f.skip++
		f.stmts(c.Cond)
		f.flushHdocs("")
		f.semicolon()
		f.str(" do\n")
		f.indent += 4
		f.stmts(c.Do)
		f.flushHdocs("")
		f.indent -= 4
		f.semicolon()
		f.newline("done")
	case *syntax.ForClause:
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			if c.Select {
				f.str("select ")
			} else {
				f.str("for ")
			}
			f.str(l.Name.Value + " in ")
			if !l.InPos.IsValid() {
				f.str(`"$@"`)
			}
			for i, w := range l.Items {
				if i > 0 {
					f.str(" ")
				}
				f.word(w)
			}
			f.str(";")
		case *syntax.CStyleLoop:
			f.str("for ((" + f.arith(l.Init) + "; " + f.arith(l.Cond) + "; " + f.arith(l.Post) + "))")
		}
		f.newline("do\n")
		f.indent += 4
		f.stmts(c.Do)
		f.flushHdocs("")
		f.semicolon()
		f.indent -= 4
		f.newline("done")
	case *syntax.CaseClause:
		f.str("case ")
		f.word(c.Word)
		f.str(" in ")
		f.indent += 4
		for _, it := range c.Items {
			f.newline("")
			for i, p := range it.Patterns {
				if i > 0 {
					f.str(" | ")
				}
				f.word(p)
			}
			f.str(")\n")
			f.indent += 4
			f.stmts(it.Stmts)
			f.indent -= 4
			f.flushHdocs("")
			switch it.Op {
			case syntax.Fallthrough:
				f.newline(";&")
			case syntax.Resume:
				f.newline(";;&")
			default:
				f.newline(";;")
			}
		}
		f.indent -= 4
		f.newline("esac")
	case *syntax.ArithmCmd:
		// bash keeps the source text; mvdan keeps only whether it was
		// spaced inside the parentheses.
		sp := ""
		if c.X != nil && c.X.Pos().Offset() > c.Left.Offset()+2 {
			sp = " "
		}
		f.str("((" + sp + f.arith(c.X) + sp + "))")
	case *syntax.LetClause:
		f.str("let")
		for _, x := range c.Exprs {
			f.str(" " + f.arith(x))
		}
	case *syntax.TimeClause:
		f.str("time ")
		if c.PosixFormat {
			f.str("-p ")
		}
		if c.Stmt != nil {
			f.skip++
			f.stmt(c.Stmt)
		}
	case *syntax.FuncDecl:
		if c.Name == nil {
			// "() cmd", a zsh anonymous function to the parser: it is a
			// syntax error when it runs, but a function body holding it
			// can still be printed.
			f.str(f.node(c))
			return
		}
		f.str("function " + c.Name.Value + " () \n")
		f.doIndent()
		f.funcBody(c.Body)
	default:
		// [[ ]], coproc and the rest: mvdan's text is bash's layout.
		f.str(f.node(c))
	}
}

func (f *bashFmt) ifClause(c *syntax.IfClause) {
	f.str("if ")
	f.skip++
	f.stmts(c.Cond)
	f.semicolon()
	f.str(" then\n")
	f.indent += 4
	f.stmts(c.Then)
	f.flushHdocs("")
	f.indent -= 4
	if e := c.Else; e != nil {
		f.semicolon()
		f.newline("else\n")
		f.indent += 4
		if len(e.Cond) > 0 {
			// elif is an if nested in the else branch for bash.
			f.doIndent()
			f.ifClause(e)
		} else {
			f.stmts(e.Then)
		}
		f.flushHdocs("")
		f.indent -= 4
	}
	f.semicolon()
	f.newline("fi")
}

func (f *bashFmt) redirs(rs []*syntax.Redirect) {
	for i, r := range rs {
		if i > 0 {
			f.str(" ")
		}
		f.redir(r)
	}
}

func (f *bashFmt) redir(r *syntax.Redirect) {
	n := ""
	if r.N != nil {
		n = r.N.Value
		if !strings.HasPrefix(n, "{") {
			n = strings.TrimLeft(n, "0")
			if n == "" {
				n = "0"
			}
		}
	}
	w := ""
	if r.Word != nil {
		w = f.node(r.Word)
	}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		f.str(n + r.Op.String() + w)
		f.hdocs = append(f.hdocs, r)
		return
	case syntax.DplOut, syntax.DplIn:
		if w == "-" {
			// bash stores both closes as r_close_this, printed with >&-.
			if n == "" {
				n = "1"
				if r.Op == syntax.DplIn {
					n = "0"
				}
			}
			f.str(n + ">&-")
			return
		}
		if _, err := strconv.Atoi(w); err == nil && n == "" {
			n = "1"
			if r.Op == syntax.DplIn {
				n = "0"
			}
		}
		f.str(n + r.Op.String() + w)
		return
	}
	if n == "1" && (r.Op == syntax.RdrOut || r.Op == syntax.AppOut) || n == "0" && r.Op == syntax.RdrIn {
		n = ""
	}
	f.str(n + r.Op.String() + " " + w)
}
