// Package awk is sandsh's AWK engine: a lexer, a parser that resolves
// names as it goes, and a tree-walking interpreter. All I/O is injected
// through Config, so programs only see the files and commands the caller
// chooses to expose.
package awk

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/sandsh/sandsh/builtins/internal/guard"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Config is how a program is run: its streams, its operands and the
// functions through which it reaches files and commands.
type Config struct {
	Stdin  io.Reader
	Output io.Writer
	Error  io.Writer

	// Argv0 is ARGV[0]; Args are ARGV[1:], files and var=value operands.
	Argv0 string
	Args  []string
	// Vars are -v assignments as name, value pairs; escapes in values
	// are processed as in string constants.
	Vars []string
	// Environ is the ENVIRON array.
	Environ map[string]string

	// OpenFile opens name for getline < name, print > name and ARGV
	// files; flag is an os.O_* combination.
	OpenFile func(name string, flag int) (io.ReadWriteCloser, error)
	// Exec runs a shell command line for system(), print | cmd and
	// cmd | getline, returning its exit status.
	Exec func(cmd string, stdin io.Reader, stdout io.Writer) int

	// Now is the clock for systime, strftime and srand(); Location the
	// time zone for strftime and mktime (UTC if nil).
	Now      func() time.Time
	Location *time.Location
	Context  context.Context

	// UTF8 selects character semantics (a UTF-8 locale); otherwise
	// strings are bytes, as in the C locale.
	UTF8 bool

	// MaxString bounds one string the program builds or reads (a record,
	// a concatenation, sprintf, gsub); 0 means no bound. Past it the run
	// ends with a fatal error instead of filling memory.
	MaxString int
}

// RuntimeError is a fatal error while running a program, with the place
// of the statement that was running when known.
type RuntimeError struct {
	Src  string
	Line int
	Msg  string
}

func (e *RuntimeError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: fatal: %s", e.Src, e.Line, e.Msg)
	}
	return "fatal: " + e.Msg
}

// OutputError wraps a failed write to standard output, so the caller can
// tell a closed pipe from other errors.
type OutputError struct{ Err error }

func (e *OutputError) Error() string { return e.Err.Error() }
func (e *OutputError) Unwrap() error { return e.Err }

// flow says how a statement finished.
type flow uint8

const (
	flowNone flow = iota
	flowBreak
	flowContinue
	flowNext
	flowNextFile
	flowExit
	flowReturn
)

// flowPanic carries next, nextfile or exit out of a function call, which
// sits inside an expression and cannot return a flow.
type flowPanic flow

// cell is a variable slot: a scalar or an array. ref links a function
// parameter bound to a caller's uninitialized variable, so that using the
// parameter as an array creates the array in the caller too.
type cell struct {
	v   value
	arr *array
	ref *cell
}

const maxCallDepth = 20000

type interp struct {
	prog *Program
	cfg  *Config
	ctx  context.Context
	// meter is charged with the bytes built (concatenation, sprintf,
	// gsub) and read, so cancellation is checked at a rate tied to the
	// work and not only every few thousand iterations.
	meter  *guard.Meter
	maxStr int

	globals []cell
	frame   []cell
	depth   int
	retVal  value
	pos     *Pos // the statement running, for error messages
	inRange []bool

	// Special variables; NF, NR and FNR are kept apart.
	sp        [numSpecials]value
	nr, fnr   float64
	convfmt   string
	ofmt      string
	ofs, ors  string
	subsep    string
	ignore    bool
	utf8      bool
	split     splitter
	fieldsBy  int // spFS, spFPAT or spFIELDWIDTHS: what split comes from
	rsMode    rsMode
	rsRegex   *regex
	rsChar    byte
	inBegin   bool
	inEnd     bool
	exiting   bool
	exitCode  int
	errStatus int // set by non-fatal errors such as unreadable files

	// The current record and its fields.
	record   string
	recordOK bool
	fields   []value
	fieldsOK bool
	nf       int
	partial  bool // fields holds the first fields only, partPos is where the rest starts (getField)
	partPos  int

	// Main input.
	argIdx     int
	mainIn     *recordReader
	mainCloser io.Closer
	mainName   string
	openedAny  bool
	mainDone   bool
	stdinRR    *recordReader

	out      *bufio.Writer
	outSync  *syncWriter
	errOut   *bufio.Writer
	outputs  map[string]*outStream
	outOrder []string
	inputs   map[string]*inStream

	procinfo    *array // PROCINFO, if the program uses it
	regexCache  map[string]*regex
	formatCache map[string]*format
	scratch     []byte
	argStack    []value
	splitBuf    []value
	replCache   map[string][]replPiece
	ticks       uint

	escWarned [256]bool

	randSeed int64 // what srand returns next
	rng      *rng  // created on first use
}

// Run runs prog with cfg and returns the exit status. A non-nil error is
// a fatal runtime error (status 2) or a failed write to Output.
func Run(prog *Program, cfg *Config) (status int, err error) {
	p := newInterp(prog, cfg)
	defer func() {
		if r := recover(); r != nil {
			err = p.recoverErr(r)
			status = 2
			p.closeAll()
			p.out.Flush()
		}
	}()
	p.runProgram()
	if err := p.closeAll(); err != nil {
		return 2, err
	}
	if err := p.out.Flush(); err != nil {
		return 2, &OutputError{err}
	}
	if p.exitCode == 0 && p.errStatus != 0 {
		return p.errStatus, nil
	}
	return p.exitCode, nil
}

func (p *interp) recoverErr(r any) error {
	switch e := r.(type) {
	case *RuntimeError:
		return e
	case *OutputError:
		return e
	case flowPanic:
		return &RuntimeError{Msg: "unexpected flow change"}
	}
	// A bug in the interpreter must not take the whole shell down.
	return &RuntimeError{Msg: fmt.Sprintf("internal error: %v", r)}
}

func newInterp(prog *Program, cfg *Config) *interp {
	if cfg.Stdin == nil {
		cfg.Stdin = strings.NewReader("")
	}
	if cfg.Output == nil {
		cfg.Output = io.Discard
	}
	if cfg.Error == nil {
		cfg.Error = io.Discard
	}
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return time.Unix(0, 0) }
	}
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	p := &interp{
		prog:        prog,
		cfg:         cfg,
		ctx:         ctx,
		meter:       guard.NewMeter(ctx),
		maxStr:      cfg.MaxString,
		globals:     make([]cell, len(prog.names)),
		inRange:     make([]bool, len(prog.Items)),
		outputs:     map[string]*outStream{},
		inputs:      map[string]*inStream{},
		regexCache:  map[string]*regex{},
		formatCache: map[string]*format{},
		replCache:   map[string][]replPiece{},
		argIdx:      1,
	}
	p.utf8 = cfg.UTF8
	p.outSync = &syncWriter{w: cfg.Output}
	p.out = bufio.NewWriterSize(p.outSync, 64<<10)
	p.errOut = bufio.NewWriterSize(cfg.Error, 4<<10)
	p.randSeed = 1
	p.initSpecials()
	p.initArrays()
	return p
}

func (p *interp) initSpecials() {
	p.setSpecial(spFS, str(" "))
	p.setSpecial(spOFS, str(" "))
	p.setSpecial(spORS, str("\n"))
	p.setSpecial(spRS, str("\n"))
	p.setSpecial(spSUBSEP, str("\x1c"))
	p.setSpecial(spCONVFMT, str("%.6g"))
	p.setSpecial(spOFMT, str("%.6g"))
	p.setSpecial(spRSTART, num(0))
	p.setSpecial(spRLENGTH, num(-1))
	p.setSpecial(spFILENAME, str(""))
	p.setSpecial(spIGNORECASE, num(0))
	p.setSpecial(spRT, str(""))
	p.setSpecial(spERRNO, str(""))
	p.sp[spFPAT] = str("[^[:space:]]+")
	p.sp[spFIELDWIDTHS] = str("")
	p.setSpecial(spARGC, num(float64(len(p.cfg.Args)+1)))
}

func (p *interp) initArrays() {
	if i, ok := p.prog.globals["ARGV"]; ok {
		a := newArray()
		argv0 := p.cfg.Argv0
		if argv0 == "" {
			argv0 = "awk"
		}
		a.set("0", str(argv0))
		for j, s := range p.cfg.Args {
			a.set(itoa(j+1), strnum(s))
		}
		p.globals[i].arr = a
	}
	if i, ok := p.prog.globals["ENVIRON"]; ok {
		a := newArray()
		for _, k := range sortedKeys(p.cfg.Environ) {
			a.set(k, strnum(p.cfg.Environ[k]))
		}
		p.globals[i].arr = a
	}
	if i, ok := p.prog.globals["PROCINFO"]; ok {
		a := newArray()
		a.set("version", str(Version))
		a.set("pid", num(2))
		a.set("ppid", num(1))
		p.globals[i].arr = a
		p.procinfo = a
	}
}

func (p *interp) warnEscape(c byte) {
	if !p.escWarned[c] {
		p.escWarned[c] = true
		p.warnf("escape sequence `\\%c' treated as plain `%c'", c, c)
	}
}

// Version is what --version and PROCINFO["version"] report.
const Version = "5.2.1"

func (p *interp) fatalf(format string, a ...any) {
	e := &RuntimeError{Msg: fmt.Sprintf(format, a...)}
	if p.pos != nil {
		e.Src, e.Line = p.pos.Src, p.pos.Line
	}
	panic(e)
}

// tick is called once per loop iteration and record; every few thousand
// calls it checks whether the run was cancelled.
func (p *interp) tick() {
	p.ticks++
	if p.ticks&4095 == 0 {
		p.checkCtx()
	}
}

// built accounts for a string of n bytes the program is about to
// build or has read: past the string bound it ends the run with a fatal
// error; it charges the meter with n.
func (p *interp) built(n int) {
	if p.maxStr > 0 && n > p.maxStr {
		p.fatalf("%s", &guard.LineError{Max: p.maxStr})
	}
	if p.meter.Add(n) != nil {
		p.checkCtx()
	}
}

func (p *interp) checkCtx() {
	if err := p.ctx.Err(); err != nil {
		panic(&OutputError{err})
	}
}

// runProgram runs BEGIN, the main loop and END, honouring exit.
func (p *interp) runProgram() {
	if err := p.applyVars(); err != nil {
		panic(err)
	}
	p.inBegin = true
	for _, b := range p.prog.Begin {
		if p.runAction(b) == flowExit {
			p.exiting = true
			break
		}
	}
	p.inBegin = false
	if !p.exiting && (len(p.prog.Items) > 0 || len(p.prog.End) > 0 || len(p.prog.BeginFile) > 0 || len(p.prog.EndFile) > 0) {
		p.mainLoop()
	}
	// END rules run after exit in BEGIN or the main rules, but not after
	// an exit from END itself.
	p.inEnd = true
	for _, b := range p.prog.End {
		if p.runAction(b) == flowExit {
			break
		}
	}
}

// applyVars performs the -v assignments before BEGIN.
func (p *interp) applyVars() error {
	v := p.cfg.Vars
	for i := 0; i+1 < len(v); i += 2 {
		if err := p.assignVarByName(v[i], v[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// assignVarByName does a command-line or -v assignment. The value gets
// escape processing and is a strnum.
func (p *interp) assignVarByName(name, val string) error {
	val = Unescape(val, p.warnEscape)
	if sp, ok := specialVars[name]; ok {
		p.setSpecial(sp, strnum(val))
		return nil
	}
	i, ok := p.prog.globals[name]
	if !ok {
		return nil // never referenced by the program
	}
	if _, isFunc := p.prog.funcIdx[name]; isFunc {
		return &RuntimeError{Msg: fmt.Sprintf("cannot use function `%s' as variable name", name)}
	}
	c := &p.globals[i]
	if c.arr != nil {
		return &RuntimeError{Msg: fmt.Sprintf("cannot assign to array `%s'", name)}
	}
	c.v = strnum(val)
	return nil
}

// mainLoop reads records and runs the rules on each.
func (p *interp) mainLoop() {
	for {
		rec, ok := p.nextMainRecord()
		if !ok {
			return
		}
		p.nr++
		p.fnr++
		p.setRecord(rec)
		p.tick()
		switch p.runRecord() {
		case flowExit:
			p.exiting = true
			return
		case flowNextFile:
			p.skipFile()
		}
	}
}

// runRecord runs every rule on the current record.
func (p *interp) runRecord() (f flow) {
	defer func() {
		if r := recover(); r != nil {
			fp, ok := r.(flowPanic)
			if !ok {
				panic(r)
			}
			p.frame, p.depth = nil, 0
			f = flow(fp)
			if f == flowNext {
				f = flowNone
			}
		}
	}()
	for i, it := range p.prog.Items {
		p.pos = &it.Pos
		if !p.matchItem(i, it) {
			continue
		}
		if it.Body == nil {
			p.printRecord(p.out)
			continue
		}
		switch f := p.execBlock(it.Body); f {
		case flowNext:
			return flowNone
		case flowNextFile, flowExit:
			return f
		}
	}
	return flowNone
}

func (p *interp) matchItem(i int, it *Item) bool {
	if it.Pattern == nil {
		return true
	}
	if it.Pattern2 == nil {
		return p.cond(it.Pattern)
	}
	if !p.inRange[i] {
		if !p.cond(it.Pattern) {
			return false
		}
		p.inRange[i] = true
	}
	if p.cond(it.Pattern2) {
		p.inRange[i] = false
	}
	return true
}

// runAction runs a BEGIN, END, BEGINFILE or ENDFILE action.
func (p *interp) runAction(body []Stmt) (f flow) {
	defer func() {
		if r := recover(); r != nil {
			fp, ok := r.(flowPanic)
			if !ok {
				panic(r)
			}
			p.frame, p.depth = nil, 0
			f = flow(fp)
		}
	}()
	return p.execBlock(body)
}

// cond evaluates a pattern or condition; a bare regex matches $0.
func (p *interp) cond(e Expr) bool {
	if re, ok := e.(*RegexLit); ok {
		return p.regexOf(re).matchString(p.getRecord())
	}
	return p.eval(e).isTrue()
}

func (p *interp) execBlock(ss []Stmt) flow {
	for _, s := range ss {
		if f := p.exec(s); f != flowNone {
			return f
		}
	}
	return flowNone
}

func (p *interp) exec(s Stmt) flow {
	p.pos = s.pos()
	switch s := s.(type) {
	case *ExprStmt:
		p.evalDiscard(s.X)
	case *PrintStmt:
		p.execPrint(s)
	case *IfStmt:
		if p.cond(s.Cond) {
			return p.execBlock(s.Then)
		}
		return p.execBlock(s.Else)
	case *WhileStmt:
		for p.cond(s.Cond) {
			p.tick()
			switch f := p.execBlock(s.Body); f {
			case flowBreak:
				return flowNone
			case flowNone, flowContinue:
			default:
				return f
			}
		}
	case *DoStmt:
		for {
			p.tick()
			switch f := p.execBlock(s.Body); f {
			case flowBreak:
				return flowNone
			case flowNone, flowContinue:
			default:
				return f
			}
			if !p.cond(s.Cond) {
				break
			}
		}
	case *ForStmt:
		return p.execFor(s)
	case *ForInStmt:
		return p.execForIn(s)
	case *BlockStmt:
		return p.execBlock(s.Body)
	case *SwitchStmt:
		return p.execSwitch(s)
	case *NextStmt:
		if p.inBegin || p.inEnd {
			p.fatalf("`next' cannot be called from a BEGIN or END rule")
		}
		return flowNext
	case *NextfileStmt:
		if p.inBegin || p.inEnd {
			p.fatalf("`nextfile' cannot be called from a BEGIN or END rule")
		}
		return flowNextFile
	case *BreakStmt:
		return flowBreak
	case *ContinueStmt:
		return flowContinue
	case *ExitStmt:
		if s.Status != nil {
			p.exitCode = int(int32(p.eval(s.Status).toNum())) & 0xff
		}
		return flowExit
	case *ReturnStmt:
		if s.Value != nil {
			p.retVal = p.evalReturn(s.Value)
		} else {
			p.retVal = value{}
		}
		return flowReturn
	case *DeleteStmt:
		arr := p.arrayOf(s.Array)
		if s.Index == nil {
			arr.clear()
		} else {
			arr.delete(p.key(s.Index))
		}
	default:
		panic(fmt.Sprintf("awk: unknown statement %T", s))
	}
	return flowNone
}

// evalReturn evaluates a return value; returning an array is an error.
func (p *interp) evalReturn(e Expr) value {
	if v, ok := e.(*VarExpr); ok && v.Scope != scopeSpecial {
		if c := p.cellOf(v); c.arr != nil {
			p.fatalf("attempt to use array `%s' in a scalar context", v.Name)
		}
	}
	return p.eval(e)
}

func (p *interp) execSwitch(s *SwitchStmt) flow {
	tag := p.eval(s.Tag)
	start := -1
	for i, c := range s.Cases {
		switch v := c.Value.(type) {
		case nil:
			continue
		case *RegexLit:
			if p.regexOf(v).matchString(p.toStr(tag)) {
				start = i
			}
		default:
			if p.compare(tag, p.eval(v)) == 0 {
				start = i
			}
		}
		if start >= 0 {
			break
		}
	}
	if start < 0 {
		for i, c := range s.Cases {
			if c.Value == nil {
				start = i
			}
		}
	}
	if start < 0 {
		return flowNone
	}
	for _, c := range s.Cases[start:] {
		switch f := p.execBlock(c.Body); f {
		case flowNone:
		case flowBreak:
			return flowNone
		default:
			return f
		}
	}
	return flowNone
}

func (p *interp) execFor(s *ForStmt) flow {
	if s.Init != nil {
		p.exec(s.Init)
	}
	for s.Cond == nil || p.cond(s.Cond) {
		p.tick()
		switch f := p.execBlock(s.Body); f {
		case flowBreak:
			return flowNone
		case flowNone, flowContinue:
		default:
			return f
		}
		if s.Post != nil {
			p.exec(s.Post)
		}
	}
	return flowNone
}

func (p *interp) execForIn(s *ForInStmt) flow {
	arr := p.arrayOf(s.Array)
	keys := arr.keys()
	if p.procinfo != nil {
		if how, ok := p.procinfo.lookup("sorted_in"); ok {
			p.sortKeys(keys, arr, p.toStr(how))
		}
	}
	for _, k := range keys {
		p.tick()
		p.assign(s.Var, strnum(k))
		switch f := p.execBlock(s.Body); f {
		case flowBreak:
			return flowNone
		case flowNone, flowContinue:
		default:
			return f
		}
	}
	return flowNone
}

// cellOf returns the slot of a global or local variable.
func (p *interp) cellOf(v *VarExpr) *cell {
	if v.Scope == scopeLocal {
		return &p.frame[v.Index]
	}
	return &p.globals[v.Index]
}

func (p *interp) getVar(v *VarExpr) value {
	switch v.Scope {
	case scopeGlobal:
		c := &p.globals[v.Index]
		if c.arr != nil {
			p.fatalf("attempt to use array `%s' in a scalar context", v.Name)
		}
		return c.v
	case scopeLocal:
		c := &p.frame[v.Index]
		if c.arr != nil {
			p.fatalf("attempt to use array `%s' in a scalar context", v.Name)
		}
		return c.v
	}
	return p.getSpecial(v.Index)
}

func (p *interp) setVar(v *VarExpr, val value) {
	if v.Scope == scopeSpecial {
		p.setSpecial(v.Index, val)
		return
	}
	c := p.cellOf(v)
	if c.arr != nil {
		p.fatalf("attempt to use array `%s' in a scalar context", v.Name)
	}
	c.v = val
}

// arrayOf returns the array a variable names, creating it (and, for a
// parameter bound to a caller's uninitialized variable, the caller's).
func (p *interp) arrayOf(v *VarExpr) *array {
	if v.Scope == scopeSpecial {
		p.fatalf("attempt to use scalar `%s' as an array", v.Name)
	}
	c := p.cellOf(v)
	if c.arr != nil {
		return c.arr
	}
	if c.v.k != kNull {
		if v.Scope == scopeLocal {
			p.fatalf("attempt to use scalar parameter `%s' as an array", v.Name)
		}
		p.fatalf("attempt to use scalar `%s' as an array", v.Name)
	}
	c.arr = newArray()
	for r := c.ref; r != nil; r = r.ref {
		if r.arr == nil {
			r.arr = c.arr
		}
	}
	return c.arr
}

// key builds an array subscript, joining several with SUBSEP.
func (p *interp) key(idx []Expr) string {
	if len(idx) == 1 {
		return p.keyOf(p.eval(idx[0]))
	}
	var b strings.Builder
	for i, e := range idx {
		if i > 0 {
			b.WriteString(p.subsep)
		}
		b.WriteString(p.keyOf(p.eval(e)))
	}
	return b.String()
}

func (p *interp) keyOf(v value) string {
	if v.k == kNum && v.n >= 0 && v.n < numSmallInts && v.n == math.Trunc(v.n) {
		return smallInt(int(v.n))
	}
	return p.toStr(v)
}

// assign stores val in an lvalue expression.
func (p *interp) assign(lv Expr, val value) {
	switch lv := lv.(type) {
	case *VarExpr:
		p.setVar(lv, val)
	case *IndexExpr:
		arr := p.arrayOf(lv.Array)
		arr.set(p.key(lv.Index), val)
	case *FieldExpr:
		p.setField(p.fieldIndex(lv.Index), val)
	case *GroupExpr:
		p.assign(lv.X, val)
	default:
		p.fatalf("assignment to non-lvalue")
	}
}

func (p *interp) fieldIndex(e Expr) int {
	if n, ok := e.(*NumLit); ok {
		return int(n.N)
	}
	f := p.eval(e).toNum()
	if f < 0 || f > math.MaxInt32 {
		p.fatalf("attempt to access field %d", int64(f))
	}
	return int(f)
}

// evalDiscard evaluates an expression statement; assignments and
// increments skip building a result.
func (p *interp) evalDiscard(e Expr) {
	switch e := e.(type) {
	case *IncrExpr:
		if v, ok := e.X.(*VarExpr); ok && v.Scope != scopeSpecial {
			c := p.cellOf(v)
			if c.arr == nil {
				d := 1.0
				if e.Op == tDecr {
					d = -1
				}
				c.v = num(c.v.toNum() + d)
				return
			}
		}
	case *AssignExpr:
		p.evalAssign(e)
		return
	}
	p.eval(e)
}

func (p *interp) eval(e Expr) value {
	switch e := e.(type) {
	case *NumLit:
		return value{n: e.N, k: kNum}
	case *StrLit:
		return value{s: e.S, k: kStr}
	case *FieldExpr:
		return p.getField(p.fieldIndex(e.Index))
	case *VarExpr:
		return p.getVar(e)
	case *IndexExpr:
		return p.arrayOf(e.Array).get(p.key(e.Index))
	case *AssignExpr:
		return p.evalAssign(e)
	case *BinaryExpr:
		return p.evalBinary(e)
	case *ConcatExpr:
		return p.evalConcat(e)
	case *UnaryExpr:
		v := p.eval(e.X)
		switch e.Op {
		case tNot:
			return boolNum(!v.isTrue())
		case tSub:
			return num(-v.toNum())
		}
		return num(v.toNum())
	case *IncrExpr:
		return p.evalIncr(e)
	case *CondExpr:
		if p.cond(e.Cond) {
			return p.eval(e.Yes)
		}
		return p.eval(e.No)
	case *MatchExpr:
		s := p.toStr(p.eval(e.L))
		m := p.regexFor(e.R).matchString(s)
		return boolNum(m != e.Not)
	case *RegexLit:
		return boolNum(p.regexOf(e).matchString(p.getRecord()))
	case *InExpr:
		_, ok := p.arrayOf(e.Array).lookup(p.key(e.Index))
		return boolNum(ok)
	case *GroupExpr:
		return p.eval(e.X)
	case *CallExpr:
		return p.call(e)
	case *BuiltinExpr:
		return p.callBuiltin(e)
	case *GetlineExpr:
		return p.getline(e)
	case *fatalExpr:
		p.fatalf("%s", e.Msg)
	case *multiExpr:
		p.fatalf("syntax error: unexpected expression list")
	}
	panic(fmt.Sprintf("awk: unknown expression %T", e))
}

func (p *interp) evalAssign(e *AssignExpr) value {
	if e.Op == tAssign {
		v := p.eval(e.Right)
		p.assign(e.Left, v)
		return v
	}
	// Compound assignment: evaluate the target's subscript once.
	switch lv := e.Left.(type) {
	case *VarExpr:
		r := p.eval(e.Right).toNum()
		v := num(p.arithAssign(e.Op, p.getVar(lv).toNum(), r))
		p.setVar(lv, v)
		return v
	case *IndexExpr:
		arr := p.arrayOf(lv.Array)
		k := p.key(lv.Index)
		r := p.eval(e.Right).toNum()
		v := num(p.arithAssign(e.Op, arr.get(k).toNum(), r))
		arr.set(k, v)
		return v
	case *FieldExpr:
		i := p.fieldIndex(lv.Index)
		r := p.eval(e.Right).toNum()
		v := num(p.arithAssign(e.Op, p.getField(i).toNum(), r))
		p.setField(i, v)
		return v
	}
	p.fatalf("assignment to non-lvalue")
	return value{}
}

func (p *interp) evalIncr(e *IncrExpr) value {
	d := 1.0
	if e.Op == tDecr {
		d = -1
	}
	var old float64
	switch lv := e.X.(type) {
	case *VarExpr:
		old = p.getVar(lv).toNum()
		p.setVar(lv, num(old+d))
	case *IndexExpr:
		arr := p.arrayOf(lv.Array)
		ref := arr.ref(p.key(lv.Index))
		old = ref.toNum()
		*ref = num(old + d)
	case *FieldExpr:
		i := p.fieldIndex(lv.Index)
		old = p.getField(i).toNum()
		p.setField(i, num(old+d))
	}
	if e.Pre {
		return num(old + d)
	}
	return num(old)
}

// arithAssign is arith for op=, which gawk names in its error message.
func (p *interp) arithAssign(op token, a, b float64) float64 {
	if b == 0 {
		switch op {
		case tDiv:
			p.fatalf("division by zero attempted in `/='")
		case tMod:
			p.fatalf("division by zero attempted in `%%='")
		}
	}
	return p.arith(op, a, b)
}

func (p *interp) arith(op token, a, b float64) float64 {
	switch op {
	case tAdd:
		return a + b
	case tSub:
		return a - b
	case tMul:
		return a * b
	case tDiv:
		if b == 0 {
			p.fatalf("division by zero attempted")
		}
		return a / b
	case tMod:
		if b == 0 {
			p.fatalf("division by zero attempted in `%%'")
		}
		// math.Mod is slow; integers take the fast road.
		if a == math.Trunc(a) && b == math.Trunc(b) && math.Abs(a) < 1<<53 && math.Abs(b) < 1<<53 {
			r := float64(int64(a) % int64(b))
			if r == 0 && a < 0 {
				return math.Copysign(0, -1)
			}
			return r
		}
		return math.Mod(a, b)
	case tPow:
		return pow(a, b)
	}
	panic("awk: bad arithmetic operator")
}

// pow computes a^b exactly for small integer exponents, as awks do.
func pow(a, b float64) float64 {
	if b == math.Trunc(b) && b >= -1024 && b <= 1024 {
		n := int(b)
		neg := n < 0
		if neg {
			n = -n
		}
		r, x := 1.0, a
		for n > 0 {
			if n&1 == 1 {
				r *= x
			}
			x *= x
			n >>= 1
		}
		if neg {
			return 1 / r
		}
		return r
	}
	return math.Pow(a, b)
}

func (p *interp) evalBinary(e *BinaryExpr) value {
	switch e.Op {
	case tAnd:
		return boolNum(p.cond(e.L) && p.cond(e.R))
	case tOr:
		return boolNum(p.cond(e.L) || p.cond(e.R))
	case tAdd, tSub, tMul, tDiv, tMod, tPow:
		a := p.eval(e.L).toNum()
		b := p.eval(e.R).toNum()
		return num(p.arith(e.Op, a, b))
	}
	l := p.eval(e.L)
	r := p.eval(e.R)
	c := p.compare(l, r)
	switch e.Op {
	case tEquals:
		return boolNum(c == 0)
	case tNotEquals:
		return boolNum(c != 0)
	case tLess:
		return boolNum(c < 0)
	case tLessEq:
		return boolNum(c <= 0)
	case tGreater:
		return boolNum(c > 0)
	case tGreaterEq:
		return boolNum(c >= 0)
	}
	panic("awk: bad binary operator")
}

func (p *interp) evalConcat(e *ConcatExpr) value {
	if len(e.Parts) == 2 {
		a := p.toStr(p.eval(e.Parts[0]))
		b := p.toStr(p.eval(e.Parts[1]))
		p.built(len(a) + len(b))
		return str(a + b)
	}
	var b strings.Builder
	for _, part := range e.Parts {
		s := p.toStr(p.eval(part))
		p.built(b.Len() + len(s))
		b.WriteString(s)
	}
	return str(b.String())
}

// call runs a user function. Arrays (and uninitialized variables, which
// may become arrays) are passed by reference, scalars by value.
func (p *interp) call(c *CallExpr) value {
	fn := c.fn
	if fn == nil {
		p.fatalf("function `%s' not defined", c.Name)
	}
	frame := make([]cell, len(fn.Params))
	for i, a := range c.Args {
		if i >= len(frame) {
			// Extra arguments (gawk warns) are evaluated for their
			// side effects only.
			if _, ok := a.(*VarExpr); !ok {
				p.eval(a)
			}
			continue
		}
		if v, ok := a.(*VarExpr); ok && v.Scope != scopeSpecial {
			src := p.cellOf(v)
			switch {
			case src.arr != nil:
				frame[i].arr = src.arr
			case src.v.k == kNull:
				frame[i].ref = src
			default:
				frame[i].v = src.v
			}
			continue
		}
		frame[i].v = p.eval(a)
	}
	if p.depth >= maxCallDepth {
		p.fatalf("function `%s': call nesting too deep", fn.Name)
	}
	saved := p.frame
	p.frame = frame
	p.depth++
	f := p.execBlock(fn.Body)
	p.depth--
	p.frame = saved
	switch f {
	case flowExit, flowNext, flowNextFile:
		panic(flowPanic(f))
	}
	ret := p.retVal
	p.retVal = value{}
	return ret
}

// callValues calls fn with already evaluated scalar arguments.
func (p *interp) callValues(fn *Func, args []value) value {
	frame := make([]cell, len(fn.Params))
	for i := range args {
		if i < len(frame) {
			frame[i].v = args[i]
		}
	}
	saved := p.frame
	p.frame = frame
	p.depth++
	f := p.execBlock(fn.Body)
	p.depth--
	p.frame = saved
	switch f {
	case flowExit, flowNext, flowNextFile:
		panic(flowPanic(f))
	}
	ret := p.retVal
	p.retVal = value{}
	return ret
}

// regexOf returns a regex literal's compiled form; with IGNORECASE it
// goes through the dynamic cache, keeping the Program itself immutable.
func (p *interp) regexOf(r *RegexLit) *regex {
	if p.ignore {
		return p.dynRegex(r.Src)
	}
	return r.re
}

// regexFor returns the regex an operand denotes: a literal, or the string
// value of any other expression compiled as a dynamic regex.
func (p *interp) regexFor(e Expr) *regex {
	if r, ok := e.(*RegexLit); ok {
		return p.regexOf(r)
	}
	return p.dynRegex(p.toStr(p.eval(e)))
}

// dynRegex compiles a dynamic regex through a bounded cache.
func (p *interp) dynRegex(src string) *regex {
	key := src
	if p.ignore {
		key = "\x00i" + src
	}
	if re, ok := p.regexCache[key]; ok {
		return re
	}
	re := p.compile(src, p.ignore)
	if len(p.regexCache) >= 256 {
		clear(p.regexCache)
	}
	p.regexCache[key] = re
	return re
}

func (p *interp) compile(src string, icase bool) *regex {
	re, err := compileRegex(src, icase)
	if err != nil {
		p.fatalf("invalid regexp: %s: /%s/", errText(err), src)
	}
	return re
}

func errText(err error) string {
	var re *RuntimeError
	if errors.As(err, &re) {
		return re.Msg
	}
	return err.Error()
}

func itoa(i int) string {
	if i >= 0 && i < numSmallInts {
		return smallInt(i)
	}
	return strconv.Itoa(i)
}

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
