package awk

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Source is one piece of program text: the -f file name (or "cmd. line"
// for a program given as an argument) and its text.
type Source struct {
	Name string
	Text string
}

// Parse parses the program made of srcs, which are concatenated the way
// several -f files are.
func Parse(srcs ...Source) (*Program, error) {
	p := &parser{prog: &Program{globals: map[string]int{}, funcIdx: map[string]int{}}}
	for _, src := range srcs {
		toks, warnings, err := lexWarn(src.Text, src.Name)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				return nil, err
			}
			p.errs = append(p.errs, withLine(se, src.Text))
			return nil, p.parseErr()
		}
		p.prog.Warnings = append(p.prog.Warnings, warnings...)
		p.toks, p.pos, p.src = toks, 0, src
		err = p.program()
		for _, e := range p.errs {
			if e.Text == "" && e.Src == src.Name {
				withLine(e, src.Text)
			}
		}
		if err != nil {
			return nil, p.parseErr()
		}
	}
	p.resolveCalls()
	if len(p.errs) > 0 {
		return nil, p.parseErr()
	}
	return p.prog, nil
}

// parseErr returns the errors found, one or an ErrorList.
func (p *parser) parseErr() error {
	if len(p.errs) == 1 {
		return p.errs[0]
	}
	return ErrorList(p.errs)
}

// withLine adds the offending source line to a syntax error.
func withLine(se *SyntaxError, text string) *SyntaxError {
	lines := strings.Split(text, "\n")
	if !se.NoCaret && se.Line >= 1 && se.Line <= len(lines) {
		se.Text = lines[se.Line-1]
	}
	return se
}

type parser struct {
	prog *Program
	toks []lexToken
	pos  int
	src  Source

	fn       *Func          // function being parsed, nil at top level
	locals   map[string]int // its parameters
	loops    int            // loop nesting, for break/continue
	switches int            // switch nesting, for break
	noGT     int            // >0 while parsing print args outside parens
	inAction bool           // false in BEGIN/END for next checks
	rule     token          // tBegin, tEnd, ... or 0 for main rules

	// errs are the errors found so far; parsing goes on after some.
	errs []*SyntaxError
}

// bailout stops the recursive descent at an error (already in p.errs).
type bailout struct{}

func (p *parser) program() (err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			err = errBailout
		}
	}()
	p.optTerms()
	for p.tok() != tEOF {
		p.item()
		p.optTerms()
	}
	return nil
}

func (p *parser) tok() token       { return p.toks[p.pos].tok }
func (p *parser) cur() lexToken    { return p.toks[p.pos] }
func (p *parser) peek(n int) token { return p.toks[min(p.pos+n, len(p.toks)-1)].tok }
func (p *parser) advance() lexToken {
	t := p.toks[p.pos]
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}

var errBailout = errors.New("awk: parse stopped")

// errorf reports a syntax error at the current token, quoted with a caret
// as gawk does, and stops parsing.
func (p *parser) errorf(format string, a ...any) {
	p.errorAt(p.cur(), format, a...)
}

func (p *parser) errorAt(t lexToken, format string, a ...any) {
	p.errs = append(p.errs, &SyntaxError{Src: p.src.Name, Line: t.line, Col: t.col, Msg: fmt.Sprintf(format, a...)})
	panic(bailout{})
}

// fail reports an error that gawk prints on one line as "error: msg"
// and stops parsing.
func (p *parser) fail(format string, a ...any) {
	p.softError(format, a...)
	panic(bailout{})
}

// softError reports an error like fail, but parsing goes on, so that
// later errors are reported too; the program still does not run.
func (p *parser) softError(format string, a ...any) {
	p.softErrorAt(p.cur().line, format, a...)
}

func (p *parser) softErrorAt(line int, format string, a ...any) {
	p.errs = append(p.errs, &SyntaxError{Src: p.src.Name, Line: line, Msg: fmt.Sprintf(format, a...), NoCaret: true})
}

// syntaxError reports an unexpected token the way gawk does.
func (p *parser) syntaxError() {
	switch p.tok() {
	case tEOF, tNewline:
		p.errorf("unexpected newline or end of string")
	}
	p.errorf("syntax error")
}

func (p *parser) expect(t token) lexToken {
	if p.tok() != t {
		p.syntaxError()
	}
	return p.advance()
}

func (p *parser) optNewlines() {
	for p.tok() == tNewline {
		p.advance()
	}
}

func (p *parser) optTerms() {
	for p.tok() == tNewline || p.tok() == tSemicolon {
		p.advance()
	}
}

// item parses one function definition or pattern-action rule.
func (p *parser) item() {
	switch p.tok() {
	case tFunction:
		p.function()
	case tBegin, tEnd, tBeginfile, tEndfile:
		kind := p.advance().tok
		p.optNewlines()
		if p.tok() != tLbrace {
			p.syntaxError()
		}
		p.rule = kind
		body := p.block()
		p.rule = 0
		switch kind {
		case tBegin:
			p.prog.Begin = append(p.prog.Begin, body)
		case tEnd:
			p.prog.End = append(p.prog.End, body)
		case tBeginfile:
			p.prog.BeginFile = append(p.prog.BeginFile, body)
		case tEndfile:
			p.prog.EndFile = append(p.prog.EndFile, body)
		}
	default:
		it := &Item{Pos: Pos{Src: p.src.Name, Line: p.cur().line}}
		if p.tok() != tLbrace {
			it.Pattern = p.expr()
			if p.tok() == tComma {
				p.advance()
				p.optNewlines()
				it.Pattern2 = p.expr()
			}
		}
		if p.tok() == tLbrace {
			it.Body = p.block()
		} else if t := p.tok(); t != tNewline && t != tSemicolon && t != tEOF {
			p.syntaxError()
		}
		p.prog.Items = append(p.prog.Items, it)
	}
}

func (p *parser) function() {
	p.advance()
	var name string
	switch p.tok() {
	case tName, tFuncName:
		name = p.advance().val
	case tBuiltin:
		p.errorf("`%s' is a built-in function, it cannot be redefined", p.cur().val)
	default:
		p.syntaxError()
	}
	if _, ok := p.prog.funcIdx[name]; ok {
		p.fail("function name `%s' previously defined", name)
	}
	if _, ok := specialVars[name]; ok {
		p.fail("function name `%s' previously defined", name)
	}
	fn := &Func{Name: name}
	p.expect(tLparen)
	p.locals = map[string]int{}
	for p.tok() != tRparen {
		t := p.expect(tName)
		if t.val == name {
			p.fail("function `%s': cannot use function name as parameter name", name)
		}
		if _, ok := specialVars[t.val]; ok {
			p.fail("function `%s': cannot use special variable `%s' as a function parameter", name, t.val)
		}
		if i, dup := p.locals[t.val]; dup {
			p.fail("function `%s': parameter #%d, `%s', duplicates parameter #%d", name, len(fn.Params)+1, t.val, i+1)
		}
		p.locals[t.val] = len(fn.Params)
		fn.Params = append(fn.Params, t.val)
		if p.tok() == tComma {
			p.advance()
			p.optNewlines()
		} else if p.tok() != tRparen {
			p.syntaxError()
		}
	}
	p.advance()
	p.prog.funcIdx[name] = len(p.prog.Funcs)
	p.prog.Funcs = append(p.prog.Funcs, fn)
	p.optNewlines()
	p.fn = fn
	fn.Body = p.block()
	p.fn, p.locals = nil, nil
}

// block parses { stmts }.
func (p *parser) block() []Stmt {
	p.expect(tLbrace)
	var body []Stmt
	for {
		p.optTerms()
		if p.tok() == tRbrace {
			p.advance()
			return body
		}
		if s := p.stmt(); s != nil {
			body = append(body, s)
		}
	}
}

// endSimple consumes the terminator of a simple statement.
func (p *parser) endSimple() {
	switch p.tok() {
	case tSemicolon, tNewline:
		p.advance()
	case tRbrace, tEOF:
	default:
		p.syntaxError()
	}
}

// body parses the statement controlled by if/while/for/do.
func (p *parser) body() []Stmt {
	p.optNewlines()
	if p.tok() == tSemicolon {
		p.advance()
		return nil
	}
	s := p.stmt()
	if b, ok := s.(*BlockStmt); ok {
		return b.Body
	}
	if s == nil {
		return nil
	}
	return []Stmt{s}
}

func (p *parser) loopBody() []Stmt {
	p.loops++
	defer func() { p.loops-- }()
	return p.body()
}

// stmt parses a statement and records where it starts.
func (p *parser) stmt() Stmt {
	line := p.cur().line
	s := p.stmtNoPos()
	if s != nil {
		*s.pos() = Pos{Src: p.src.Name, Line: line}
	}
	return s
}

func (p *parser) stmtNoPos() Stmt {
	switch p.tok() {
	case tLbrace:
		return &BlockStmt{Body: p.block()}
	case tIf:
		p.advance()
		p.expect(tLparen)
		cond := p.expr()
		p.expect(tRparen)
		s := &IfStmt{Cond: cond, Then: p.body()}
		// Look past newlines (and one ';' after a block) for else.
		save := p.pos
		p.optNewlines()
		if p.tok() == tSemicolon && p.peekPast(1) == tElse {
			p.advance()
			p.optNewlines()
		}
		if p.tok() == tElse {
			p.advance()
			s.Else = p.body()
		} else {
			p.pos = save
		}
		return s
	case tWhile:
		p.advance()
		p.expect(tLparen)
		cond := p.expr()
		p.expect(tRparen)
		if p.tok() == tSemicolon {
			p.advance()
			return &WhileStmt{Cond: cond}
		}
		return &WhileStmt{Cond: cond, Body: p.loopBody()}
	case tDo:
		p.advance()
		body := p.loopBody()
		p.optTerms()
		p.expect(tWhile)
		p.expect(tLparen)
		cond := p.expr()
		p.expect(tRparen)
		p.endSimple()
		return &DoStmt{Body: body, Cond: cond}
	case tFor:
		return p.forStmt()
	case tSwitch:
		return p.switchStmt()
	case tSemicolon:
		p.advance()
		return nil
	}
	s := p.simpleStmt()
	p.endSimple()
	return s
}

// peekPast returns the token n places ahead, skipping newlines.
func (p *parser) peekPast(n int) token {
	i := p.pos + n
	for i < len(p.toks)-1 && p.toks[i].tok == tNewline {
		i++
	}
	return p.toks[min(i, len(p.toks)-1)].tok
}

func (p *parser) switchStmt() Stmt {
	p.advance()
	p.expect(tLparen)
	s := &SwitchStmt{Tag: p.expr()}
	p.expect(tRparen)
	p.optNewlines()
	p.expect(tLbrace)
	p.switches++
	defer func() { p.switches-- }()
	hasDefault := false
	for {
		p.optTerms()
		switch p.tok() {
		case tRbrace:
			p.advance()
			return s
		case tCase:
			p.advance()
			c := &CaseClause{Value: p.caseValue()}
			p.expect(tColon)
			s.Cases = append(s.Cases, c)
		case tDefault:
			p.advance()
			if hasDefault {
				p.softError("duplicate `default' detected in switch body")
			}
			hasDefault = true
			p.expect(tColon)
			s.Cases = append(s.Cases, &CaseClause{})
		default:
			if len(s.Cases) == 0 {
				p.syntaxError()
			}
			c := s.Cases[len(s.Cases)-1]
			if st := p.stmt(); st != nil {
				c.Body = append(c.Body, st)
			}
		}
	}
}

// caseValue parses a case label: a number (maybe negative), a string or
// a regex constant.
func (p *parser) caseValue() Expr {
	t := p.cur()
	switch t.tok {
	case tNumber:
		p.advance()
		return &NumLit{t.num}
	case tSub, tAdd:
		p.advance()
		n := p.expect(tNumber)
		if t.tok == tSub {
			return &NumLit{-n.num}
		}
		return &NumLit{n.num}
	case tString:
		p.advance()
		return &StrLit{t.val}
	case tRegex:
		return p.regexLit()
	}
	p.syntaxError()
	return nil
}

func (p *parser) forStmt() Stmt {
	p.advance()
	p.expect(tLparen)
	// for (name in array) and for ((name) in array)
	if p.tok() == tName && p.peek(1) == tIn && p.peek(2) == tName && p.peek(3) == tRparen {
		v := p.varRef(p.advance().val)
		p.advance()
		arr := p.arrayRef(p.advance().val)
		p.advance()
		return &ForInStmt{Var: v, Array: arr, Body: p.loopBody()}
	}
	s := &ForStmt{}
	if p.tok() != tSemicolon {
		s.Init = p.positioned(p.simpleStmt)
	}
	p.expect(tSemicolon)
	p.optNewlines()
	if p.tok() != tSemicolon {
		s.Cond = p.expr()
	}
	p.expect(tSemicolon)
	p.optNewlines()
	if p.tok() != tRparen {
		s.Post = p.positioned(p.simpleStmt)
	}
	p.expect(tRparen)
	if p.tok() == tSemicolon {
		p.advance()
		return s
	}
	s.Body = p.loopBody()
	return s
}

func (p *parser) positioned(f func() Stmt) Stmt {
	line := p.cur().line
	s := f()
	*s.pos() = Pos{Src: p.src.Name, Line: line}
	return s
}

func (p *parser) simpleStmt() Stmt {
	switch p.tok() {
	case tPrint, tPrintf:
		return p.printStmt()
	case tDelete:
		p.advance()
		name := p.expect(tName).val
		arr := p.arrayRef(name)
		if p.tok() != tLbracket {
			return &DeleteStmt{Array: arr}
		}
		p.advance()
		idx := p.exprList(tRbracket)
		p.expect(tRbracket)
		return &DeleteStmt{Array: arr, Index: idx}
	case tNext, tNextfile:
		t := p.advance().tok
		if p.rule == tBegin || p.rule == tEnd {
			p.softError("`%s' used in %s action", map[token]string{tNext: "next", tNextfile: "nextfile"}[t], map[token]string{tBegin: "BEGIN", tEnd: "END"}[p.rule])
		}
		if t == tNext {
			return &NextStmt{}
		}
		return &NextfileStmt{}
	case tBreak, tContinue:
		t := p.advance().tok
		if p.loops == 0 && (t == tContinue || p.switches == 0) {
			if t == tBreak {
				p.softError("`break' is not allowed outside a loop or switch")
			} else {
				p.softError("`continue' is not allowed outside a loop")
			}
		}
		if t == tBreak {
			return &BreakStmt{}
		}
		return &ContinueStmt{}
	case tExit:
		p.advance()
		s := &ExitStmt{}
		if !p.atStmtEnd() {
			s.Status = p.expr()
		}
		return s
	case tReturn:
		if p.fn == nil {
			p.errorf("`return' used outside function context")
		}
		p.advance()
		s := &ReturnStmt{}
		if !p.atStmtEnd() {
			s.Value = p.expr()
		}
		return s
	}
	return &ExprStmt{X: p.expr()}
}

func (p *parser) atStmtEnd() bool {
	switch p.tok() {
	case tSemicolon, tNewline, tRbrace, tEOF:
		return true
	}
	return false
}

func (p *parser) printStmt() Stmt {
	s := &PrintStmt{Printf: p.advance().tok == tPrintf}
	if !p.atStmtEnd() && p.tok() != tGreater && p.tok() != tAppend && p.tok() != tPipe {
		p.noGT++
		s.Args = p.exprList(0)
		p.noGT--
		if len(s.Args) == 1 {
			if m, ok := s.Args[0].(*multiExpr); ok {
				s.Args = m.Exprs
			}
		}
	}
	for _, a := range s.Args {
		if _, ok := a.(*multiExpr); ok {
			p.syntaxError()
		}
	}
	switch p.tok() {
	case tGreater, tAppend, tPipe:
		s.Redir = p.advance().tok
		s.Dest = p.concat()
	}
	if s.Printf && len(s.Args) == 0 {
		// gawk finds this out when the statement runs.
		return &ExprStmt{X: &fatalExpr{"printf: no arguments"}}
	}
	return s
}

// exprList parses comma-separated expressions up to (not including) end.
func (p *parser) exprList(end token) []Expr {
	var list []Expr
	if end != 0 && p.tok() == end {
		return nil
	}
	for {
		list = append(list, p.expr())
		if p.tok() != tComma {
			return list
		}
		p.advance()
		p.optNewlines()
	}
}

// nested parses f with print's '>' restriction lifted, as inside parens.
func nested[T any](p *parser, f func() T) T {
	saved := p.noGT
	p.noGT = 0
	defer func() { p.noGT = saved }()
	return f()
}

func (p *parser) expr() Expr {
	left := p.ternary()
	switch op := p.tok(); op {
	case tAssign, tAddAssign, tSubAssign, tMulAssign, tDivAssign, tModAssign, tPowAssign:
		if !isLvalue(left) {
			// "a /= 1" lexed as a regex is handled by the lexer; anything
			// else is a real error.
			p.syntaxError()
		}
		p.advance()
		p.optNewlines()
		right := p.expr()
		bin := map[token]token{tAssign: tAssign, tAddAssign: tAdd, tSubAssign: tSub,
			tMulAssign: tMul, tDivAssign: tDiv, tModAssign: tMod, tPowAssign: tPow}[op]
		return &AssignExpr{Left: left, Op: bin, Right: right}
	}
	return left
}

func isLvalue(e Expr) bool {
	switch e.(type) {
	case *VarExpr, *IndexExpr, *FieldExpr:
		return true
	}
	return false
}

func (p *parser) ternary() Expr {
	cond := p.or()
	if p.tok() != tQuestion {
		return cond
	}
	p.advance()
	p.optNewlines()
	yes := p.ternaryBranch()
	p.optNewlines()
	p.expect(tColon)
	p.optNewlines()
	no := p.ternaryBranch()
	return &CondExpr{Cond: cond, Yes: yes, No: no}
}

// ternaryBranch allows an assignment in a branch, as gawk does.
func (p *parser) ternaryBranch() Expr {
	e := p.ternary()
	if p.tok() == tAssign && isLvalue(e) {
		p.advance()
		return &AssignExpr{Left: e, Op: tAssign, Right: p.ternaryBranch()}
	}
	return e
}

func (p *parser) or() Expr {
	left := p.and()
	for p.tok() == tOr {
		p.advance()
		p.optNewlines()
		left = &BinaryExpr{Op: tOr, L: left, R: p.and()}
	}
	return left
}

func (p *parser) and() Expr {
	left := p.in()
	for p.tok() == tAnd {
		p.advance()
		p.optNewlines()
		left = &BinaryExpr{Op: tAnd, L: left, R: p.in()}
	}
	return left
}

func (p *parser) in() Expr {
	left := p.match()
	for p.tok() == tIn {
		p.advance()
		arr := p.arrayRef(p.expect(tName).val)
		idx := []Expr{left}
		if m, ok := left.(*multiExpr); ok {
			idx = m.Exprs
		}
		left = &InExpr{Index: idx, Array: arr}
	}
	return left
}

func (p *parser) match() Expr {
	left := p.comparison()
	for p.tok() == tMatch || p.tok() == tNotMatch {
		not := p.advance().tok == tNotMatch
		left = &MatchExpr{L: left, R: p.comparison(), Not: not}
	}
	return left
}

func (p *parser) comparison() Expr {
	left := p.pipeGetline()
	switch op := p.tok(); op {
	case tGreater:
		if p.noGT > 0 {
			return left
		}
		fallthrough
	case tLess, tLessEq, tGreaterEq, tEquals, tNotEquals:
		p.advance()
		return &BinaryExpr{Op: op, L: left, R: p.pipeGetline()}
	}
	return left
}

// pipeGetline parses cmd | getline [var], which binds looser than
// concatenation so that "cmd " arg | getline works.
func (p *parser) pipeGetline() Expr {
	left := p.concat()
	for p.tok() == tPipe && p.peek(1) == tGetline {
		p.advance()
		p.advance()
		g := &GetlineExpr{Cmd: left}
		g.Target = p.optLvalue()
		left = g
	}
	return left
}

// concat parses juxtaposed operands. An operand cannot start with '+' or
// '-' (that is a binary operator) nor with '!'.
func (p *parser) concat() Expr {
	left := p.additive()
	var parts []Expr
	for p.startsConcatOperand() {
		if parts == nil {
			parts = []Expr{left}
		}
		parts = append(parts, p.additive())
	}
	if parts != nil {
		return &ConcatExpr{Parts: parts}
	}
	return left
}

func (p *parser) startsConcatOperand() bool {
	switch p.tok() {
	case tNumber, tString, tRegex, tName, tFuncName, tBuiltin, tDollar, tLparen, tIncr, tDecr:
		return true
	}
	return false
}

func (p *parser) additive() Expr {
	left := p.multiplicative()
	for p.tok() == tAdd || p.tok() == tSub {
		op := p.advance().tok
		left = &BinaryExpr{Op: op, L: left, R: p.multiplicative()}
	}
	return left
}

func (p *parser) multiplicative() Expr {
	left := p.unary()
	for p.tok() == tMul || p.tok() == tDiv || p.tok() == tMod {
		opTok := p.advance()
		right := p.unary()
		// gawk folds constants while parsing, and a constant zero
		// divisor is a compile-time error: the program does not run.
		if n, ok := constNum(right); ok && n == 0 {
			switch opTok.tok {
			case tDiv:
				p.softErrorAt(opTok.line, "division by zero attempted")
			case tMod:
				p.softErrorAt(opTok.line, "division by zero attempted in `%%'")
			}
		}
		left = &BinaryExpr{Op: opTok.tok, L: left, R: right}
	}
	return left
}

// constNum reports the value of e if gawk's parser folds it to a numeric
// constant: a number, a negated or "!"ed constant, or a power of two
// constants. Parentheses stop the folding, as they do in gawk.
func constNum(e Expr) (float64, bool) {
	switch e := e.(type) {
	case *NumLit:
		return e.N, true
	case *UnaryExpr:
		switch e.Op {
		case tSub:
			if n, ok := constNum(e.X); ok {
				return -n, true
			}
		case tNot:
			if s, ok := e.X.(*StrLit); ok {
				return boolFloat(s.S == ""), true
			}
			if n, ok := constNum(e.X); ok {
				return boolFloat(n == 0), true
			}
		}
	case *BinaryExpr:
		if e.Op == tPow {
			x, ok1 := constNum(e.L)
			y, ok2 := constNum(e.R)
			if ok1 && ok2 {
				return math.Pow(x, y), true
			}
		}
	}
	return 0, false
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func (p *parser) unary() Expr {
	switch p.tok() {
	case tNot, tSub, tAdd:
		op := p.advance().tok
		return &UnaryExpr{Op: op, X: p.unary()}
	}
	return p.power()
}

func (p *parser) power() Expr {
	base := p.postfix()
	if p.tok() != tPow {
		return base
	}
	p.advance()
	// Right associative, and the exponent may carry a sign: 2^-1.
	var exp Expr
	switch p.tok() {
	case tSub, tAdd, tNot:
		op := p.advance().tok
		exp = &UnaryExpr{Op: op, X: p.power()}
	default:
		exp = p.power()
	}
	return &BinaryExpr{Op: tPow, L: base, R: exp}
}

func (p *parser) postfix() Expr {
	e := p.primary()
	if (p.tok() == tIncr || p.tok() == tDecr) && isLvalue(e) {
		return &IncrExpr{X: e, Op: p.advance().tok}
	}
	return e
}

func (p *parser) primary() Expr {
	t := p.cur()
	switch t.tok {
	case tNumber:
		p.advance()
		return &NumLit{t.num}
	case tString:
		p.advance()
		return &StrLit{t.val}
	case tRegex:
		return p.regexLit()
	case tDollar:
		p.advance()
		return &FieldExpr{p.dollarOperand()}
	case tIncr, tDecr:
		p.advance()
		x := p.primary()
		if !isLvalue(x) {
			p.syntaxError()
		}
		return &IncrExpr{X: x, Op: t.tok, Pre: true}
	case tSub, tAdd, tNot:
		p.advance()
		return &UnaryExpr{Op: t.tok, X: p.unary()}
	case tLparen:
		p.advance()
		p.optNewlines()
		list := nested(p, func() []Expr { return p.exprList(tRparen) })
		p.optNewlines()
		p.expect(tRparen)
		switch len(list) {
		case 0:
			p.syntaxError()
		case 1:
			return &GroupExpr{list[0]}
		}
		switch p.tok() {
		case tIn:
		case tGreater, tAppend, tPipe, tSemicolon, tNewline, tRbrace, tEOF:
			if p.noGT == 0 {
				p.syntaxError()
			}
		default:
			p.syntaxError()
		}
		return &multiExpr{list}
	case tGetline:
		p.advance()
		g := &GetlineExpr{Target: p.optLvalue()}
		if p.tok() == tLess {
			p.advance()
			g.File = p.postfix()
		}
		return g
	case tName:
		p.advance()
		if p.tok() == tLbracket {
			p.advance()
			arr := p.arrayRef(t.val)
			idx := nested(p, func() []Expr { return p.exprList(tRbracket) })
			if len(idx) == 0 {
				p.syntaxError()
			}
			p.expect(tRbracket)
			return &IndexExpr{Array: arr, Index: idx}
		}
		return p.varRef(t.val)
	case tFuncName:
		p.advance()
		p.expect(tLparen)
		p.optNewlines()
		args := nested(p, func() []Expr { return p.exprList(tRparen) })
		p.optNewlines()
		p.expect(tRparen)
		if _, ok := specialVars[t.val]; ok {
			p.fail("attempt to use non-function `%s' in function call", t.val)
		}
		c := &CallExpr{Name: t.val, Args: args, src: p.src.Name, line: t.line}
		p.prog.calls = append(p.prog.calls, c)
		return c
	case tBuiltin:
		return p.builtin()
	}
	p.syntaxError()
	return nil
}

// dollarOperand parses what follows '$': a primary with a possible
// prefix increment or sign, but not a postfix increment ($i++ is ($i)++).
func (p *parser) dollarOperand() Expr {
	switch p.tok() {
	case tIncr, tDecr:
		op := p.advance().tok
		x := p.primary()
		if !isLvalue(x) {
			p.syntaxError()
		}
		return &IncrExpr{X: x, Op: op, Pre: true}
	case tSub, tAdd, tNot:
		op := p.advance().tok
		return &UnaryExpr{Op: op, X: p.dollarOperand()}
	}
	return p.primary()
}

// optLvalue parses getline's optional target variable.
func (p *parser) optLvalue() Expr {
	switch p.tok() {
	case tDollar:
		p.advance()
		return &FieldExpr{p.dollarOperand()}
	case tName:
		t := p.advance()
		if p.tok() == tLbracket {
			p.advance()
			arr := p.arrayRef(t.val)
			idx := nested(p, func() []Expr { return p.exprList(tRbracket) })
			p.expect(tRbracket)
			return &IndexExpr{Array: arr, Index: idx}
		}
		return p.varRef(t.val)
	}
	return nil
}

func (p *parser) builtin() Expr {
	t := p.advance()
	name := t.val
	if p.tok() != tLparen {
		if name == "length" {
			return &BuiltinExpr{Name: name}
		}
		p.syntaxError()
	}
	p.advance()
	p.optNewlines()
	args := nested(p, func() []Expr { return p.exprList(tRparen) })
	p.optNewlines()
	rparen := p.expect(tRparen)
	ar := builtinArity[name]
	if len(args) < ar[0] || len(args) > ar[1] {
		p.errorAt(rparen, "%d is invalid as number of arguments for %s", len(args), name)
	}
	// Array arguments are resolved as arrays, not scalars. Anything
	// else there is a fatal error when the call runs, as in gawk.
	var arrayArgs []int
	switch name {
	case "split":
		arrayArgs = []int{1, 3}
	case "match":
		arrayArgs = []int{2}
	case "asort", "asorti":
		arrayArgs = []int{0, 1}
	}
	for _, i := range arrayArgs {
		if i >= len(args) {
			continue
		}
		if v, ok := args[i].(*VarExpr); !ok || v.Scope == scopeSpecial {
			return &fatalExpr{fmt.Sprintf("%s: %s argument is not an array", name, ordinals[i])}
		}
	}
	// sub and gsub on something that cannot be assigned work on a copy.
	return &BuiltinExpr{Name: name, Args: args}
}

var ordinals = []string{"first", "second", "third", "fourth"}

// regexLit parses a regex constant, which is compiled now so that a bad
// one is reported before the program runs.
func (p *parser) regexLit() Expr {
	t := p.advance()
	re, err := compileRegex(t.val, false)
	if err != nil {
		p.fail("%s: /%s/", err, t.val)
	}
	return &RegexLit{Src: t.val, re: re}
}

var builtinArity = map[string][2]int{
	"length": {0, 1}, "substr": {2, 3}, "index": {2, 2}, "split": {2, 4},
	"sub": {2, 3}, "gsub": {2, 3}, "match": {2, 3}, "sprintf": {1, 1 << 30},
	"sin": {1, 1}, "cos": {1, 1}, "atan2": {2, 2}, "exp": {1, 1}, "log": {1, 1},
	"sqrt": {1, 1}, "int": {1, 1}, "rand": {0, 0}, "srand": {0, 1},
	"tolower": {1, 1}, "toupper": {1, 1}, "close": {1, 2}, "fflush": {0, 1},
	"system": {1, 1}, "gensub": {3, 4}, "systime": {0, 0}, "strftime": {0, 3},
	"mktime": {1, 2}, "asort": {1, 3}, "asorti": {1, 3}, "and": {2, 1 << 30},
	"or": {2, 1 << 30}, "xor": {2, 1 << 30}, "lshift": {2, 2}, "rshift": {2, 2},
	"compl": {1, 1}, "strtonum": {1, 1}, "isarray": {1, 1}, "typeof": {1, 1},
}

// varRef resolves a name used as a variable.
func (p *parser) varRef(name string) *VarExpr {
	if i, ok := p.locals[name]; ok {
		return &VarExpr{Scope: scopeLocal, Index: i, Name: name}
	}
	if i, ok := specialVars[name]; ok {
		return &VarExpr{Scope: scopeSpecial, Index: i, Name: name}
	}
	if _, ok := p.prog.funcIdx[name]; ok {
		p.fail("function `%s' called with space between name and `(',\nor used as a variable or an array", name)
	}
	return &VarExpr{Scope: scopeGlobal, Index: p.global(name), Name: name}
}

// arrayRef resolves a name used as an array. A special variable used as
// an array is a fatal error when that code runs.
func (p *parser) arrayRef(name string) *VarExpr {
	return p.varRef(name)
}

func (p *parser) global(name string) int {
	if i, ok := p.prog.globals[name]; ok {
		return i
	}
	i := len(p.prog.names)
	p.prog.globals[name] = i
	p.prog.names = append(p.prog.names, name)
	return i
}

// resolveCalls binds calls to functions now that all are known. A call
// to a function that is never defined is a fatal error only if it runs.
func (p *parser) resolveCalls() {
	for _, c := range p.prog.calls {
		i, ok := p.prog.funcIdx[c.Name]
		if !ok {
			continue
		}
		fn := p.prog.Funcs[i]
		if len(c.Args) > len(fn.Params) {
			p.prog.Warnings = append(p.prog.Warnings, fmt.Sprintf("%s:%d: warning: function `%s' called with more arguments than declared", c.src, c.line, c.Name))
		}
		c.fn = fn
	}
	// A global that shares its name with a function is an error even when
	// it was seen before the function was defined.
	for _, name := range p.prog.names {
		if _, ok := p.prog.funcIdx[name]; ok {
			p.errs = append(p.errs, &SyntaxError{Src: p.src.Name, Line: 1, Msg: fmt.Sprintf("function name `%s' previously defined", name), NoCaret: true})
			return
		}
	}
}
