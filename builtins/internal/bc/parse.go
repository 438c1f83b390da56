package bc

import "fmt"

// Expression nodes.
type (
	expr interface{}

	numLit struct {
		text  string
		cache *Num
		base  int
	}
	varRef  struct{ name string }
	elemRef struct {
		name  string
		index expr
	}
	special struct{ name string } // scale, ibase, obase, last
	unary   struct {
		op string
		x  expr
	}
	binary struct {
		op   string
		x, y expr
	}
	assign struct {
		op       string // "=", "+=", ...
		lhs, rhs expr
	}
	incDec struct {
		op     string // "++" or "--"
		prefix bool
		x      expr
	}
	callExpr struct {
		name string
		args []callArg
	}
	builtinCall struct {
		name string // length, sqrt, scale
		x    expr
	}
	readCall struct{}
	paren    struct{ x expr }
)

// callArg is an expression or a whole array (name[]).
type callArg struct {
	x     expr
	array string
}

// Statements.
type (
	stmt interface{}

	exprStmt  struct{ x expr }
	strStmt   struct{ s string }
	printStmt struct{ items []printItem }
	block     struct{ list []stmt }
	ifStmt    struct {
		cond      expr
		then, els stmt
	}
	whileStmt struct {
		cond expr
		body stmt
	}
	forStmt struct {
		init, cond, post expr
		body             stmt
	}
	breakStmt    struct{}
	continueStmt struct{}
	returnStmt   struct{ x expr }
	haltStmt     struct{}
	limitsStmt   struct{}
	warrantyStmt struct{}
)

type printItem struct {
	s     string
	isStr bool
	x     expr
}

// param is a function parameter or auto variable.
type param struct {
	name  string
	array bool
	ref   bool // *a[]: the array is passed by reference
}

type funcDef struct {
	name   string
	params []param
	autos  []param
	body   []stmt
}

// syntaxError aborts parsing of the current chunk.
type syntaxError struct {
	msg  string
	line int
	tok  token
}

// quitSignal is raised when the parser reads quit.
type quitSignal struct{}

// parser builds statements from tokens, one top-level chunk at a time.
type parser struct {
	lx      *lexer
	tok     token
	back    []token // tokens put back by unread
	inFunc  bool
	loops   int
	defined func(*funcDef)
}

func (p *parser) next() {
	if len(p.back) > 0 {
		p.tok, p.back = p.back[0], p.back[1:]
		return
	}
	p.tok = p.lx.next()
}

func (p *parser) fail() {
	panic(&syntaxError{msg: "syntax error", line: p.tok.line, tok: p.tok})
}

func (p *parser) failMsg(format string, a ...any) {
	panic(&syntaxError{msg: fmt.Sprintf(format, a...), line: p.tok.line, tok: p.tok})
}

func (p *parser) is(kind tokKind, text string) bool {
	return p.tok.kind == kind && p.tok.text == text
}

func (p *parser) isOp(text string) bool { return p.is(tOp, text) }
func (p *parser) isKw(text string) bool { return p.is(tKeyword, text) }

func (p *parser) expectOp(text string) {
	if !p.isOp(text) {
		p.fail()
	}
	p.next()
}

func (p *parser) skipNewlines() {
	for p.tok.kind == tNewline {
		p.next()
	}
}

// chunk parses statements up to an unnested newline or the end of input.
// The current token is the chunk's first; on return it is that newline,
// left for the caller to consume after running the chunk, so that read()
// sees the input that follows.
func (p *parser) chunk() []stmt {
	var list []stmt
	started := false // a define must start its line
	for {
		switch {
		case p.tok.kind == tEOF:
			return list
		case p.tok.kind == tNewline:
			return list
		case p.isOp(";"):
			p.next()
			started = true
			continue
		case p.isKw("define"):
			if started {
				p.fail()
			}
			p.define()
			continue
		default:
			started = true
			if s := p.statement(); s != nil {
				list = append(list, s)
			}
		}
		switch {
		case p.isOp(";"):
			p.next()
		case p.tok.kind == tNewline, p.tok.kind == tEOF:
		default:
			p.fail()
		}
	}
}

// statement parses one statement (nil for an empty one).
func (p *parser) statement() stmt {
	t := p.tok
	switch {
	case t.kind == tString:
		p.next()
		return &strStmt{t.text}
	case p.isOp("{"):
		p.next()
		return &block{p.stmtList()}
	case p.isOp(";"):
		return nil
	case t.kind == tKeyword:
		return p.keywordStmt()
	}
	return &exprStmt{p.expr(0)}
}

// stmtList parses statements up to the closing brace.
func (p *parser) stmtList() []stmt {
	var list []stmt
	for {
		for p.tok.kind == tNewline || p.isOp(";") {
			p.next()
		}
		if p.isOp("}") {
			p.next()
			return list
		}
		if p.tok.kind == tEOF {
			p.fail()
		}
		if s := p.statement(); s != nil {
			list = append(list, s)
		}
		switch {
		case p.isOp(";"), p.tok.kind == tNewline:
			p.next()
		case p.isOp("}"):
		default:
			p.fail()
		}
	}
}

func (p *parser) body() stmt {
	p.skipNewlines()
	return p.statement()
}

func (p *parser) keywordStmt() stmt {
	switch p.tok.text {
	case "quit":
		panic(quitSignal{})
	case "halt":
		p.next()
		return &haltStmt{}
	case "limits":
		p.next()
		return &limitsStmt{}
	case "warranty":
		p.next()
		return &warrantyStmt{}
	case "break", "continue":
		kw := p.tok.text
		if p.loops == 0 {
			if kw == "break" {
				p.failMsg("Break outside a for/while")
			}
			p.failMsg("Continue outside a for/while")
		}
		p.next()
		if kw == "break" {
			return &breakStmt{}
		}
		return &continueStmt{}
	case "return":
		if !p.inFunc {
			p.failMsg("Return outside of a function.")
		}
		p.next()
		if p.tok.kind == tNewline || p.tok.kind == tEOF || p.isOp(";") || p.isOp("}") {
			return &returnStmt{}
		}
		return &returnStmt{p.expr(0)}
	case "print":
		p.next()
		var items []printItem
		for {
			if p.tok.kind == tString {
				items = append(items, printItem{s: p.tok.text, isStr: true})
				p.next()
			} else {
				items = append(items, printItem{x: p.expr(0)})
			}
			if !p.isOp(",") {
				return &printStmt{items}
			}
			p.next()
		}
	case "if":
		p.next()
		p.expectOp("(")
		cond := p.expr(0)
		p.expectOp(")")
		s := &ifStmt{cond: cond, then: p.body()}
		if p.isKw("else") {
			p.next()
			s.els = p.body()
		}
		return s
	case "while":
		p.next()
		p.expectOp("(")
		cond := p.expr(0)
		p.expectOp(")")
		p.loops++
		defer func() { p.loops-- }()
		return &whileStmt{cond: cond, body: p.body()}
	case "for":
		p.next()
		p.expectOp("(")
		s := &forStmt{}
		if !p.isOp(";") {
			s.init = p.expr(0)
		}
		p.expectOp(";")
		if !p.isOp(";") {
			s.cond = p.expr(0)
		}
		p.expectOp(";")
		if !p.isOp(")") {
			s.post = p.expr(0)
		}
		p.expectOp(")")
		p.loops++
		defer func() { p.loops-- }()
		s.body = p.body()
		return s
	}
	return &exprStmt{p.expr(0)}
}

// define parses a function definition and installs it at once, as bc
// does when it reads one.
func (p *parser) define() {
	p.next()
	if p.tok.kind != tName {
		p.fail()
	}
	f := &funcDef{name: p.tok.text}
	p.next()
	p.expectOp("(")
	if !p.isOp(")") {
		f.params = p.paramList(true)
	}
	p.expectOp(")")
	p.skipNewlines()
	p.expectOp("{")
	p.skipNewlines()
	if p.isKw("auto") {
		p.next()
		f.autos = p.paramList(false)
		if !p.isOp(";") && p.tok.kind != tNewline {
			p.fail()
		}
		p.next()
	}
	saveFunc, saveLoops := p.inFunc, p.loops
	p.inFunc, p.loops = true, 0
	defer func() { p.inFunc, p.loops = saveFunc, saveLoops }()
	f.body = p.stmtList()
	p.defined(f)
}

func (p *parser) paramList(allowRef bool) []param {
	var list []param
	for {
		var pr param
		if allowRef && p.isOp("*") {
			pr.ref = true
			p.next()
		}
		if p.tok.kind != tName {
			p.fail()
		}
		pr.name = p.tok.text
		p.next()
		if p.isOp("[") {
			p.next()
			p.expectOp("]")
			pr.array = true
		} else if pr.ref {
			p.fail()
		}
		list = append(list, pr)
		if !p.isOp(",") {
			return list
		}
		p.next()
	}
}

// Operator precedence levels, from GNU bc's grammar.
const (
	precOr = iota + 1
	precAnd
	precNot
	precRel
	precAssign
	precAdd
	precMul
	precPow
	precUnary
)

func binaryPrec(op string) (prec int, right bool) {
	switch op {
	case "||":
		return precOr, false
	case "&&":
		return precAnd, false
	case "==", "!=", "<", "<=", ">", ">=":
		return precRel, false
	case "=", "+=", "-=", "*=", "/=", "%=", "^=":
		return precAssign, true
	case "+", "-":
		return precAdd, false
	case "*", "/", "%":
		return precMul, false
	case "^":
		return precPow, true
	}
	return 0, false
}

// expr parses an expression whose operators bind at least as tightly as
// minPrec.
func (p *parser) expr(minPrec int) expr {
	lhs := p.prefix()
	for p.tok.kind == tOp {
		op := p.tok.text
		prec, right := binaryPrec(op)
		if prec == 0 || prec < minPrec {
			return lhs
		}
		p.next()
		next := prec + 1
		if right {
			next = prec
		}
		rhs := p.expr(next)
		if prec == precAssign {
			if !isNamed(lhs) {
				p.fail()
			}
			lhs = &assign{op: op, lhs: lhs, rhs: rhs}
			continue
		}
		lhs = &binary{op: op, x: lhs, y: rhs}
	}
	return lhs
}

func isNamed(e expr) bool {
	switch e.(type) {
	case *varRef, *elemRef, *special:
		return true
	}
	return false
}

// prefix parses unary operators and a primary with postfix ++/--.
func (p *parser) prefix() expr {
	switch {
	case p.isOp("!"):
		p.next()
		return &unary{op: "!", x: p.expr(precRel)}
	case p.isOp("-"):
		p.next()
		return &unary{op: "-", x: p.prefix()}
	case p.isOp("++"), p.isOp("--"):
		op := p.tok.text
		p.next()
		x := p.primary()
		if !isNamed(x) {
			p.fail()
		}
		return &incDec{op: op, prefix: true, x: x}
	}
	x := p.primary()
	if (p.isOp("++") || p.isOp("--")) && isNamed(x) {
		op := p.tok.text
		p.next()
		return &incDec{op: op, x: x}
	}
	return x
}

func (p *parser) primary() expr {
	t := p.tok
	switch {
	case t.kind == tNum:
		p.next()
		return &numLit{text: t.text}
	case p.isOp("("):
		p.next()
		x := p.expr(0)
		p.expectOp(")")
		return &paren{x}
	case p.isOp("."):
		p.next()
		return &special{"last"}
	case t.kind == tName:
		p.next()
		if p.isOp("(") {
			return p.call(t.text)
		}
		if p.isOp("[") {
			p.next()
			idx := p.expr(0)
			p.expectOp("]")
			return &elemRef{name: t.text, index: idx}
		}
		return &varRef{t.text}
	case t.kind == tKeyword:
		switch t.text {
		case "scale":
			p.next()
			if p.isOp("(") {
				p.next()
				x := p.expr(0)
				p.expectOp(")")
				return &builtinCall{name: "scale", x: x}
			}
			return &special{"scale"}
		case "ibase", "obase", "last":
			p.next()
			return &special{t.text}
		case "length", "sqrt":
			p.next()
			p.expectOp("(")
			x := p.expr(0)
			p.expectOp(")")
			return &builtinCall{name: t.text, x: x}
		case "read":
			p.next()
			p.expectOp("(")
			p.expectOp(")")
			return &readCall{}
		}
	}
	p.fail()
	return nil
}

func (p *parser) call(name string) expr {
	p.next()
	c := &callExpr{name: name}
	if p.isOp(")") {
		p.next()
		return c
	}
	for {
		if arr, ok := p.arrayArg(); ok {
			c.args = append(c.args, callArg{array: arr})
		} else {
			c.args = append(c.args, callArg{x: p.expr(0)})
		}
		if p.isOp(")") {
			p.next()
			return c
		}
		p.expectOp(",")
	}
}

// arrayArg recognises a name[] argument, putting tokens back otherwise.
func (p *parser) arrayArg() (string, bool) {
	if p.tok.kind != tName {
		return "", false
	}
	t1 := p.tok
	p.next()
	if !p.isOp("[") {
		p.unread(t1)
		return "", false
	}
	t2 := p.tok
	p.next()
	if !p.isOp("]") {
		p.unread(t1, t2)
		return "", false
	}
	p.next()
	return t1.text, true
}

// unread makes toks (then the current token) the next ones read.
func (p *parser) unread(toks ...token) {
	rest := append([]token{p.tok}, p.back...)
	p.back = append(append([]token(nil), toks[1:]...), rest...)
	p.tok = toks[0]
}
