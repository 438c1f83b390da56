package jq

import (
	"bufio"
	"context"
	"errors"
	"io"
	"sort"
	"strings"

	"github.com/itchyny/gojq"
)

// Element streaming: the commonest programs on a big input array,
//
//	.[] | F        .[].a.b | F        map(F) | G
//
// do not need the whole array in memory: `.[] | F` on [e1, e2, ...] is
// (e1 | F), (e2 | F), ... and `map(F) | G` is [(e1 | F), (e2 | F), ...] | G.
// For such a program an input that is an array is parsed one element at
// a time and each element is dropped once F has run on it, so memory
// stays near the size of the output instead of many times the input's.
//
// What jq prints does not change: the outputs are held (as bytes) until
// the array is fully parsed, so a malformed array still prints nothing
// but the parse error; after an error in F no more elements are run, the
// rest of the array is still parsed, and the error is reported with the
// same input position. Programs that could see the difference (input,
// inputs, input_line_number, debug, stderr) are not streamed.

// streamPlan is a program split for element streaming.
type streamPlan struct {
	elem *gojq.Code // run on each element
	rest *gojq.Code // map(F) | G: G, run on the array of F's outputs; nil for .[] | F
}

// noStream turns element streaming off (for tests that compare).
var noStream bool

// streamPlan returns how to stream the program, or nil when it cannot be.
func (r *runner) streamPlan() *streamPlan {
	cfg := r.cfg
	if noStream || cfg.NullInput || cfg.Slurp || cfg.RawInput {
		return nil
	}
	for _, w := range []string{"input", "debug", "stderr"} {
		if strings.Contains(cfg.Program, w) {
			return nil
		}
	}
	// Each part is compiled from a parse of its own: compiling rewrites
	// the syntax tree, function definitions included.
	parse := func() *gojq.Query {
		q, err := gojq.Parse(cfg.Program)
		if err != nil {
			return nil
		}
		return q
	}
	q := parse()
	if q == nil {
		return nil
	}
	elemQ, restQ := splitStream(q)
	if elemQ == nil {
		return nil
	}
	p := &streamPlan{}
	var err error
	if p.elem, err = r.compileQuery(elemQ); err != nil {
		return nil
	}
	if restQ != nil {
		_, restQ = splitStream(parse())
		if p.rest, err = r.compileQuery(restQ); err != nil {
			return nil
		}
	}
	return p
}

// splitStream splits q into the per-element program and, for map(F) | G,
// the program run on the collected outputs. It returns nil when q does
// not have one of the streamable shapes.
func splitStream(q *gojq.Query) (elem, rest *gojq.Query) {
	if q.Meta != nil || len(q.Imports) > 0 {
		return nil, nil
	}
	head, tail := q, (*gojq.Query)(nil)
	if q.Term == nil {
		// A pipe is right-associative: q.Left is the first stage.
		if q.Op != gojq.OpPipe || len(q.Patterns) > 0 || q.Left == nil || q.Right == nil {
			return nil, nil
		}
		head, tail = q.Left, q.Right
	}
	t := head.Term
	if t == nil || len(head.FuncDefs) > 0 || len(head.Patterns) > 0 || head.Op != 0 {
		return nil, nil
	}
	identity := func() *gojq.Query { return &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeIdentity}} }
	pipe := func(a, b *gojq.Query) *gojq.Query {
		switch {
		case a == nil && b == nil:
			return identity()
		case a == nil:
			return b
		case b == nil:
			return a
		}
		return &gojq.Query{Left: a, Op: gojq.OpPipe, Right: b}
	}
	withDefs := func(x *gojq.Query) *gojq.Query {
		if len(q.FuncDefs) > 0 {
			y := *x
			y.FuncDefs = append(append([]*gojq.FuncDef(nil), q.FuncDefs...), x.FuncDefs...)
			x = &y
		}
		return x
	}
	switch {
	case t.Type == gojq.TermTypeIdentity && len(t.SuffixList) > 0 && t.SuffixList[0].Iter:
		// .[] followed by indexes or iterations, none optional: a `?`
		// there would apply to the whole term, iteration included.
		var first *gojq.Query
		if sfx := t.SuffixList[1:]; len(sfx) > 0 {
			for _, s := range sfx {
				if s.Optional {
					return nil, nil
				}
			}
			first = &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeIdentity, SuffixList: sfx}}
		}
		return withDefs(pipe(first, tail)), nil
	case t.Type == gojq.TermTypeFunc && t.Func != nil && t.Func.Name == "map" && len(t.Func.Args) == 1 &&
		len(t.SuffixList) == 0:
		for _, fd := range q.FuncDefs {
			if fd.Name == "map" {
				return nil, nil // not the builtin
			}
		}
		return withDefs(t.Func.Args[0]), withDefs(pipe(nil, tail))
	}
	return nil, nil
}

// processStream runs the plan on the array input nextIsArray found. It
// returns the status like process, or the parse error that ended the
// input (nothing is printed then).
func (r *runner) processStream(p *streamPlan, vars []any) (int, error) {
	var held chunkBuffer
	out := r.out
	r.out = bufio.NewWriterSize(&held, 64<<10)
	r.enc.w = r.out
	ret := 14
	var evalErr error
	var collected []any
	var kept []orderEntry // map(F): the key order of objects in the outputs
	err := r.inputs.streamArray(func(e any) error {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		if evalErr == nil {
			iter := p.elem.RunWithContext(r.ctx, e, vars...)
			for {
				x, ok := iter.Next()
				if !ok {
					break
				}
				if err, isErr := x.(error); isErr {
					evalErr = err
					break
				}
				if p.rest == nil {
					ret = r.emit(x)
					continue
				}
				collected = append(collected, x)
				kept = r.order.appendEntries(kept, x)
			}
		}
		// The element's objects are printed or kept above: forget their
		// key order so that the rest can be freed.
		r.order.reset()
		return nil
	})
	r.out.Flush() // into held
	r.out, r.enc.w = out, out
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return 130, nil
		}
		return 0, err
	}
	if _, err := held.WriteTo(r.out); err != nil {
		r.cfg.WriteFailed = err
		return 1, nil
	}
	if evalErr != nil {
		return r.reportError(evalErr), nil
	}
	if p.rest == nil {
		return ret, nil
	}
	if collected == nil {
		collected = []any{}
	}
	for _, e := range kept {
		r.order.set(e.obj, e.keys)
	}
	return r.process(p.rest, collected, vars), nil
}

// appendEntries appends the recorded key order of every object in v to
// kept.
func (o *order) appendEntries(kept []orderEntry, v any) []orderEntry {
	switch v := v.(type) {
	case map[string]any:
		// In a fixed order, for the same key ranks on every run.
		e, ok := o.m[mapID(v)]
		if ok {
			kept = append(kept, e)
		} else if len(v) > 0 {
			e.keys = make([]string, 0, len(v))
			for k := range v {
				e.keys = append(e.keys, k)
			}
			sort.Strings(e.keys)
		}
		for _, k := range e.keys {
			kept = o.appendEntries(kept, v[k])
		}
	case []any:
		for _, x := range v {
			kept = o.appendEntries(kept, x)
		}
	}
	return kept
}

// chunkBuffer holds output bytes in 1 MiB chunks: no copying as it grows.
type chunkBuffer struct{ chunks [][]byte }

func (b *chunkBuffer) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if len(b.chunks) == 0 || len(b.chunks[len(b.chunks)-1]) == cap(b.chunks[len(b.chunks)-1]) {
			b.chunks = append(b.chunks, make([]byte, 0, 1<<20))
		}
		last := &b.chunks[len(b.chunks)-1]
		k := min(len(p), cap(*last)-len(*last))
		*last = append(*last, p[:k]...)
		p = p[k:]
	}
	return n, nil
}

// WriteTo writes everything held to w, releasing each chunk once written.
func (b *chunkBuffer) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for i, c := range b.chunks {
		k, err := w.Write(c)
		n += int64(k)
		b.chunks[i] = nil
		if err != nil {
			b.chunks = nil
			return n, err
		}
	}
	b.chunks = nil
	return n, nil
}
