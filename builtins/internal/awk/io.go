package awk

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// rsMode is how records are separated.
type rsMode uint8

const (
	rsNewline rsMode = iota // RS = "\n"
	rsChar                  // RS is one other character
	rsPara                  // RS = "": blank lines separate records
	rsRegex                 // RS is longer: a regex, as in gawk
)

func (p *interp) setRS(rs string) {
	switch {
	case rs == "\n":
		p.rsMode = rsNewline
	case rs == "":
		p.rsMode = rsPara
	case len(rs) == 1 && !(p.ignore && isAlpha(rs[0])):
		p.rsMode, p.rsChar = rsChar, rs[0]
	default:
		p.rsMode, p.rsRegex = rsRegex, p.compile(rs, p.ignore)
	}
	if p.fieldsBy == spFS {
		p.split = p.newSplitter(p.toStr(p.sp[spFS]), p.rsMode == rsPara)
	}
}

// recordReader splits an input stream into records according to the
// interpreter's current RS, which may change between reads.
type recordReader struct {
	r    io.Reader
	buf  []byte
	s, e int // unread data is buf[s:e]
	scan int // bytes after s already searched for a separator
	eof  bool
	err  error
}

const readBufSize = 64 << 10

func newRecordReader(r io.Reader) *recordReader {
	return &recordReader{r: r, buf: make([]byte, readBufSize)}
}

// fill reads more input after the unread data, moving or growing the
// buffer as needed. It returns false when the input is exhausted.
func (rr *recordReader) fill(p *interp) bool {
	if rr.eof {
		return false
	}
	p.checkCtx()
	if rr.s > 0 {
		copy(rr.buf, rr.buf[rr.s:rr.e])
		rr.e -= rr.s
		rr.s = 0
	}
	if rr.e == len(rr.buf) {
		// The unread data is one record still without its end.
		p.built(rr.e)
		nb := make([]byte, 2*len(rr.buf))
		copy(nb, rr.buf[:rr.e])
		rr.buf = nb
	}
	for {
		n, err := rr.r.Read(rr.buf[rr.e:])
		rr.e += n
		if err != nil {
			rr.eof = true
			if err != io.EOF {
				rr.err = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

// read returns the next record.
func (rr *recordReader) read(p *interp) (string, bool) {
	switch p.rsMode {
	case rsNewline:
		return rr.readByte(p, '\n', "\n")
	case rsChar:
		return rr.readByte(p, p.rsChar, p.sp[spRS].s)
	case rsPara:
		return rr.readPara(p)
	}
	return rr.readRegex(p)
}

func (rr *recordReader) readByte(p *interp, sep byte, rt string) (string, bool) {
	for {
		if i := bytes.IndexByte(rr.buf[rr.s+rr.scan:rr.e], sep); i >= 0 {
			end := rr.s + rr.scan + i
			rec := string(rr.buf[rr.s:end])
			rr.s, rr.scan = end+1, 0
			p.sp[spRT] = value{s: rt, k: kStr}
			return rec, true
		}
		rr.scan = rr.e - rr.s
		if !rr.fill(p) {
			return rr.rest(p)
		}
	}
}

// rest returns the unterminated last record, if any.
func (rr *recordReader) rest(p *interp) (string, bool) {
	rr.scan = 0
	if rr.e == rr.s {
		return "", false
	}
	rec := string(rr.buf[rr.s:rr.e])
	rr.s = rr.e
	p.sp[spRT] = value{k: kStr}
	return rec, true
}

// readPara reads a paragraph: leading newlines are skipped and a run of
// two or more newlines ends the record.
func (rr *recordReader) readPara(p *interp) (string, bool) {
	for {
		for rr.s < rr.e && rr.buf[rr.s] == '\n' {
			rr.s++
		}
		if rr.s < rr.e {
			break
		}
		if !rr.fill(p) {
			return "", false
		}
	}
	rr.scan = 0
	for {
		data := rr.buf[rr.s:rr.e]
		if i := bytes.Index(data[rr.scan:], []byte("\n\n")); i >= 0 {
			end := rr.scan + i
			j := end
			for j < len(data) && data[j] == '\n' {
				j++
			}
			if j == len(data) && !rr.eof {
				// The newline run may continue in the next read.
				rr.scan = end
				rr.fill(p)
				continue
			}
			rec := string(data[:end])
			p.sp[spRT] = value{s: string(data[end:j]), k: kStr}
			rr.s += j
			rr.scan = 0
			return rec, true
		}
		rr.scan = max(0, len(data)-1)
		if !rr.fill(p) {
			data = rr.buf[rr.s:rr.e]
			rec := strings.TrimRight(string(data), "\n")
			p.sp[spRT] = value{s: string(data[len(rec):]), k: kStr}
			rr.s, rr.scan = rr.e, 0
			return rec, true
		}
	}
}

// readRegex reads a record ended by a match of the RS regex. A match that
// touches the end of the buffered data is not trusted until more input
// shows it cannot grow.
func (rr *recordReader) readRegex(p *interp) (string, bool) {
	for {
		data := rr.buf[rr.s:rr.e]
		loc := p.rsRegex.findIndex(unsafeString(data))
		if loc != nil && loc[1] > loc[0] && (loc[1] < len(data) || rr.eof) {
			rec := string(data[:loc[0]])
			p.sp[spRT] = value{s: string(data[loc[0]:loc[1]]), k: kStr}
			rr.s += loc[1]
			return rec, true
		}
		if !rr.fill(p) {
			if rr.e == rr.s {
				return "", false
			}
			return rr.rest(p)
		}
	}
}

// stdinReader is the one reader of standard input, shared by the main
// input and getline < "-".
func (p *interp) stdinReader() *recordReader {
	if p.stdinRR == nil {
		p.stdinRR = newRecordReader(p.cfg.Stdin)
	}
	return p.stdinRR
}

// nextMainRecord returns the next record of the main input, moving
// through the ARGV operands.
func (p *interp) nextMainRecord() (string, bool) {
	for {
		if p.mainIn == nil {
			if p.mainDone || !p.openNextFile() {
				p.mainDone = true
				return "", false
			}
			if p.exiting {
				return "", false
			}
		}
		if rec, ok := p.mainIn.read(p); ok {
			return rec, true
		}
		if err := p.mainIn.err; err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			p.warnf("error reading input file `%s': %s", p.mainName, errText(err))
			p.errStatus = 2
		}
		p.closeMainFile()
		if p.exiting {
			return "", false
		}
	}
}

// openNextFile opens the next file operand, performing var=value operands
// on the way; with no file operands at all it reads standard input.
func (p *interp) openNextFile() bool {
	for {
		argc := int(p.sp[spARGC].toNum())
		if p.argIdx >= argc {
			if p.openedAny {
				return false
			}
			p.openedAny = true
			p.mainIn, p.mainCloser, p.mainName = p.stdinReader(), nil, "-"
			// gawk names standard input "-" here too.
			p.sp[spFILENAME] = str("-")
			p.fnr = 0
			p.runFileRules(p.prog.BeginFile)
			return true
		}
		arg := p.argvValue(p.argIdx)
		p.argIdx++
		if arg == "" {
			continue
		}
		if name, val, ok := parseAssignment(arg); ok {
			if err := p.assignVarByName(name, val); err != nil {
				panic(err)
			}
			continue
		}
		p.openedAny = true
		p.sp[spFILENAME] = strnum(arg)
		p.fnr = 0
		if arg == "-" || arg == "/dev/stdin" {
			p.mainIn, p.mainCloser, p.mainName = p.stdinReader(), nil, arg
		} else {
			f, err := p.openFile(arg, os.O_RDONLY)
			if errors.Is(err, syscall.EISDIR) {
				// Like gawk, skip directories so that "awk ... *" works.
				p.warnf("command line argument `%s' is a directory: skipped", arg)
				continue
			}
			if err != nil {
				p.warnf("cannot open file `%s' for reading: %s", arg, errText(err))
				p.errStatus = 2
				continue
			}
			p.mainIn, p.mainCloser, p.mainName = newRecordReader(f), f, arg
		}
		p.runFileRules(p.prog.BeginFile)
		return true
	}
}

func (p *interp) argvValue(i int) string {
	if j, ok := p.prog.globals["ARGV"]; ok {
		if a := p.globals[j].arr; a != nil {
			v, _ := a.lookup(itoa(i))
			return p.toStr(v)
		}
	}
	if i-1 < len(p.cfg.Args) {
		return p.cfg.Args[i-1]
	}
	return ""
}

// parseAssignment recognizes a var=value operand.
func parseAssignment(arg string) (name, val string, ok bool) {
	eq := strings.IndexByte(arg, '=')
	if eq <= 0 || !isLetter(arg[0]) {
		return "", "", false
	}
	for i := 1; i < eq; i++ {
		if !isLetter(arg[i]) && !isDigit(arg[i]) {
			return "", "", false
		}
	}
	if _, kw := keywords[arg[:eq]]; kw || builtinNames[arg[:eq]] {
		return "", "", false
	}
	return arg[:eq], arg[eq+1:], true
}

func (p *interp) runFileRules(rules [][]Stmt) {
	for _, b := range rules {
		if p.runAction(b) == flowExit {
			p.exiting = true
			return
		}
	}
}

func (p *interp) closeMainFile() {
	p.runFileRules(p.prog.EndFile)
	if p.mainCloser != nil {
		p.mainCloser.Close()
	}
	p.mainIn, p.mainCloser = nil, nil
}

// skipFile implements nextfile.
func (p *interp) skipFile() {
	if p.mainIn != nil {
		p.closeMainFile()
	}
}

func (p *interp) openFile(name string, flag int) (io.ReadWriteCloser, error) {
	if p.cfg.OpenFile == nil {
		return nil, os.ErrPermission
	}
	return p.cfg.OpenFile(name, flag)
}

func (p *interp) warnf(format string, a ...any) {
	p.out.Flush()
	name := p.cfg.Argv0
	if name == "" {
		name = "awk"
	}
	fmt.Fprintf(p.cfg.Error, "%s: warning: %s\n", name, fmt.Sprintf(format, a...))
}

// syncWriter serializes writes to the real output, which commands started
// by print | cmd and system() share with the interpreter.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

// pipeWriter feeds a command's stdin; once the command has exited, what is
// still written is dropped rather than failing the program.
type pipeWriter struct{ pw *io.PipeWriter }

func (w pipeWriter) Write(b []byte) (int, error) {
	if _, err := w.pw.Write(b); err != nil {
		return len(b), nil
	}
	return len(b), nil
}

// outStream is a redirected output: a file or a command's stdin.
type outStream struct {
	w      *bufio.Writer
	closer io.Closer
	pw     *io.PipeWriter
	done   chan int
}

// inStream is a getline source: a file or a command's output.
type inStream struct {
	rr     *recordReader
	closer io.Closer
	pr     *io.PipeReader
	done   chan int
}

// outputFor returns the writer for print > name, >> name or | name.
func (p *interp) outputFor(redir token, name string) *bufio.Writer {
	if s, ok := p.outputs[name]; ok {
		return s.w
	}
	switch name {
	case "/dev/stdout", "/dev/fd/1", "-":
		return p.out
	case "/dev/stderr", "/dev/fd/2":
		return p.errOut
	case "":
		p.fatalf("expression for `%s' redirection has null string value", tokenText[redir])
	}
	s := &outStream{}
	if redir == tPipe {
		if p.cfg.Exec == nil {
			p.fatalf("can't open pipe `%s' for output (%s)", name, "commands are not available")
		}
		p.flushAll()
		pr, pw := io.Pipe()
		s.pw, s.done = pw, make(chan int, 1)
		go func() {
			st := p.cfg.Exec(name, pr, p.outSync)
			pr.CloseWithError(io.ErrClosedPipe)
			s.done <- st
		}()
		s.w = bufio.NewWriterSize(pipeWriter{pw}, readBufSize)
	} else {
		flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if redir == tAppend {
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		f, err := p.openFile(name, flag)
		if err != nil {
			p.fatalf("cannot redirect to `%s': %s", name, errText(err))
		}
		s.closer = f
		s.w = bufio.NewWriterSize(f, readBufSize)
	}
	p.outputs[name] = s
	p.outOrder = append(p.outOrder, name)
	return s.w
}

// inputFor returns the getline source for < name (cmd false) or
// name | getline (cmd true), opening it on first use. It returns nil if
// the file cannot be opened.
func (p *interp) inputFor(name string, cmd bool) *inStream {
	key := name
	if cmd {
		key = "\x00cmd" + name
	}
	if s, ok := p.inputs[key]; ok {
		return s
	}
	s := &inStream{}
	switch {
	case cmd:
		if p.cfg.Exec == nil {
			return nil
		}
		p.flushAll()
		pr, pw := io.Pipe()
		s.pr, s.done = pr, make(chan int, 1)
		go func() {
			st := p.cfg.Exec(name, strings.NewReader(""), pw)
			pw.Close()
			s.done <- st
		}()
		s.rr = newRecordReader(pr)
	case name == "-" || name == "/dev/stdin" || name == "/dev/fd/0":
		s.rr = p.stdinReader()
	default:
		f, err := p.openFile(name, os.O_RDONLY)
		if err != nil {
			p.sp[spERRNO] = str(errText(err))
			return nil
		}
		s.closer, s.rr = f, newRecordReader(f)
	}
	p.inputs[key] = s
	return s
}

// getline implements all six forms of getline.
func (p *interp) getline(g *GetlineExpr) value {
	var rec string
	switch {
	case g.Cmd != nil || g.File != nil:
		var s *inStream
		if g.Cmd != nil {
			s = p.inputFor(p.toStr(p.eval(g.Cmd)), true)
		} else {
			s = p.inputFor(p.toStr(p.eval(g.File)), false)
		}
		if s == nil {
			return num(-1)
		}
		r, ok := s.rr.read(p)
		if !ok {
			if s.rr.err != nil {
				return num(-1)
			}
			return num(0)
		}
		rec = r
	default:
		r, ok := p.nextMainRecord()
		if !ok {
			return num(0)
		}
		rec = r
		p.nr++
		p.fnr++
	}
	if g.Target == nil {
		p.setRecord(rec)
	} else {
		p.assign(g.Target, strnum(rec))
	}
	return num(1)
}

// flushAll flushes every output, before a command runs.
func (p *interp) flushAll() {
	p.flushOut(p.out)
	p.errOut.Flush()
	for _, name := range p.outOrder {
		if s, ok := p.outputs[name]; ok {
			s.w.Flush()
		}
	}
}

func (p *interp) flushOut(w *bufio.Writer) {
	if err := w.Flush(); err != nil && w == p.out {
		panic(&OutputError{err})
	}
}

// closeStream implements close(name); it returns the command's exit
// status for pipes, 0 for files and -1 if nothing was open.
func (p *interp) closeStream(name string) int {
	result := -1
	if s, ok := p.outputs[name]; ok {
		result = p.closeOut(s)
		delete(p.outputs, name)
	}
	for _, key := range []string{name, "\x00cmd" + name} {
		if s, ok := p.inputs[key]; ok {
			result = p.closeIn(s)
			delete(p.inputs, key)
		}
	}
	return result
}

func (p *interp) closeOut(s *outStream) int {
	err := s.w.Flush()
	if s.pw != nil {
		s.pw.Close()
		return <-s.done
	}
	if cerr := s.closer.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return -1
	}
	return 0
}

func (p *interp) closeIn(s *inStream) int {
	if s.pr != nil {
		s.pr.CloseWithError(io.ErrClosedPipe)
		return <-s.done
	}
	if s.closer != nil {
		s.closer.Close()
	}
	return 0
}

// closeAll closes every redirection at exit, in the order they were
// opened, so commands' output appears before the interpreter's final
// flush, as with gawk and mawk.
func (p *interp) closeAll() error {
	for _, name := range p.outOrder {
		if s, ok := p.outputs[name]; ok {
			p.closeOut(s)
			delete(p.outputs, name)
		}
	}
	p.outOrder = nil
	for key, s := range p.inputs {
		p.closeIn(s)
		delete(p.inputs, key)
	}
	if p.mainCloser != nil {
		p.mainCloser.Close()
		p.mainCloser = nil
	}
	p.errOut.Flush()
	return nil
}

// execPrint runs print and printf.
func (p *interp) execPrint(s *PrintStmt) {
	w := p.out
	if s.Dest != nil {
		w = p.outputFor(s.Redir, p.toStr(p.eval(s.Dest)))
	}
	switch {
	case s.Printf:
		format := p.toStr(p.eval(s.Args[0]))
		// Arguments live on a stack reused across calls; nested printfs
		// in argument expressions push above and pop back.
		base := len(p.argStack)
		for _, a := range s.Args[1:] {
			v := p.eval(a)
			p.argStack = append(p.argStack, v)
		}
		p.scratch = p.appendFormat(p.scratch[:0], format, p.argStack[base:])
		p.argStack = p.argStack[:base]
		p.writeBytes(w, p.scratch)
	case len(s.Args) == 0:
		p.printRecord(w)
	default:
		for i, a := range s.Args {
			if i > 0 {
				p.writeString(w, p.ofs)
			}
			p.writeValue(w, p.eval(a))
		}
		p.writeString(w, p.ors)
	}
	if w == p.errOut {
		w.Flush()
	}
}

func (p *interp) writeValue(w *bufio.Writer, v value) {
	if v.k == kNum && isInt(v.n) {
		var b [24]byte
		p.writeBytes(w, strconv.AppendInt(b[:0], int64(v.n), 10))
		return
	}
	p.writeString(w, p.toOutStr(v))
}

func (p *interp) writeString(w *bufio.Writer, s string) {
	if _, err := w.WriteString(s); err != nil {
		p.writeFailed(w, err)
	}
}

func (p *interp) writeBytes(w *bufio.Writer, b []byte) {
	if _, err := w.Write(b); err != nil {
		p.writeFailed(w, err)
	}
}

func (p *interp) writeFailed(w *bufio.Writer, err error) {
	if w == p.out {
		panic(&OutputError{err})
	}
	if w == p.errOut {
		return
	}
	p.fatalf("write failure (%s)", errText(err))
}

// unsafeString views b as a string for read-only use by the regex engine.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafeBytesToString(b)
}
