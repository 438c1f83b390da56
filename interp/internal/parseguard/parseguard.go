// Package parseguard keeps script text from crashing or stalling sandsh
// while mvdan.cc/sh/v3/syntax parses it.
//
// The parser is recursive descent: every nested bracket, keyword,
// `[[ a && b ]]` operand, `?:` or unary operator costs Go stack frames,
// and a Go stack overflow is a fatal error that recover cannot catch. A
// pre-scan of the text cannot bound that depth reliably (quotes,
// here-documents and the many recursive constructs would all have to be
// lexed exactly as the parser does), so Reader measures the real depth:
// the parser reads its input 1 KiB at a time from the goroutine that is
// parsing, so each Read counts the parser's frames on the stack and fails
// once they pass MaxFrames. The parser then stops with that error.
//
// The same Read also stops the parse when the run is cancelled (a
// timeout), so a huge script cannot hold the run past its time limit.
package parseguard

import (
	"context"
	"errors"
	"io"
	"reflect"
	"runtime"
	"strings"
	"sync"
)

// MaxFrames bounds the parser's stack frames. A bracket nests about a
// dozen frames deep in the parser, so this leaves room for the 2000
// levels the runner's own pre-check (checkNesting) allows, and stays far
// below the Go stack limit: a few tens of MiB of stack.
const MaxFrames = 60_000

// ErrTooDeep is the error a parse stopped by Reader returns.
var ErrTooDeep = errors.New("script nests too deeply")

// Reader wraps the parser's input.
type Reader struct {
	r       io.Reader
	ctx     context.Context
	stopped bool
}

// Stop makes the input end here: the parser sees EOF from now on.
func (g *Reader) Stop() { g.stopped = true }

// Stopped reports whether Stop was called.
func (g *Reader) Stopped() bool { return g.stopped }

// New returns a Reader for the input of one parse; ctx may be nil.
func New(ctx context.Context, r io.Reader) *Reader {
	return &Reader{r: r, ctx: ctx}
}

// String is New for text held in a string.
func String(ctx context.Context, s string) *Reader {
	return New(ctx, strings.NewReader(s))
}

func (g *Reader) Read(p []byte) (int, error) {
	if g.stopped {
		return 0, io.EOF
	}
	if g.ctx != nil && g.ctx.Err() != nil {
		if cause := context.Cause(g.ctx); cause != nil {
			return 0, cause
		}
		return 0, g.ctx.Err()
	}
	if parserTooDeep() {
		return 0, ErrTooDeep
	}
	return g.r.Read(p)
}

// parserTooDeep counts the frames above Read up to the first frame of
// sandsh's own code, the caller of the parse: the parser's frames (with
// the library code it calls). Counting only those keeps the check cheap
// and independent of how deep the runner itself is when it parses, say,
// an eval string deep in a recursion.
func parserTooDeep() bool {
	// Unwinding costs per frame: a parse near its caller (the common
	// case, about 30 frames) needs only the first batch.
	var small [32]uintptr
	pcs := small[:]
	skip := 3 // runtime.Callers, parserTooDeep, Read
	depth := 0
	for {
		n := runtime.Callers(skip, pcs)
		for _, pc := range pcs[:n] {
			if ours(pc) {
				return false
			}
			if depth++; depth > MaxFrames {
				return true
			}
		}
		if n < len(pcs) {
			return false
		}
		skip += n
		pcs = make([]uintptr, 2*len(pcs))
	}
}

// modulePrefix starts the names of sandsh's functions.
const modulePrefix = "github.com/sandsh/sandsh/"

// oursCache remembers, per return address, whether ours is true.
var oursCache sync.Map // uintptr -> bool

// ours reports whether pc is in sandsh's code (or has sandsh code inlined
// there).
func ours(pc uintptr) bool {
	if v, ok := oursCache.Load(pc); ok {
		return v.(bool)
	}
	found := false
	frames := runtime.CallersFrames([]uintptr{pc})
	for {
		fr, more := frames.Next()
		if strings.HasPrefix(fr.Function, modulePrefix) {
			found = true
		}
		if !more {
			break
		}
	}
	oursCache.Store(pc, found)
	return found
}

// MaxDepth bounds how many syntax nodes deep a parsed script may nest.
// The parser reads chains such as `a && b && c`, `a | b | c` or
// `1+2+3` in a loop, but they come out as left-nested nodes, and code
// that walks the tree recursively (the printer behind set -x and
// declare -f, for one) would need a stack frame per link.
const MaxDepth = 10_000

// smallText is the size of text whose tree cannot be MaxDepth deep: every
// level of nesting takes at least a byte or two of text.
const smallText = 4 << 10

// Check reports ErrTooDeep when node, parsed from size bytes of text,
// nests deeper than MaxDepth.
func Check(node any, size int) error {
	if size > smallText && TooDeep(node, MaxDepth) {
		return ErrTooDeep
	}
	return nil
}

// TooDeep reports whether the syntax tree under node nests more than max
// nodes deep. It walks the tree with its own stack, not recursion.
func TooDeep(node any, max int) bool {
	type item struct {
		v     reflect.Value
		depth int
	}
	stack := []item{{reflect.ValueOf(node), 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch v := it.v; v.Kind() {
		case reflect.Interface:
			if !v.IsNil() {
				stack = append(stack, item{v.Elem(), it.depth})
			}
		case reflect.Pointer:
			if v.IsNil() || v.Elem().Kind() != reflect.Struct {
				continue
			}
			if it.depth+1 > max {
				return true
			}
			stack = append(stack, item{v.Elem(), it.depth + 1})
		case reflect.Struct:
			for i := range v.NumField() {
				switch f := v.Field(i); f.Kind() {
				case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Struct:
					stack = append(stack, item{f, it.depth})
				}
			}
		case reflect.Slice:
			for i := range v.Len() {
				stack = append(stack, item{v.Index(i), it.depth})
			}
		}
	}
	return false
}
