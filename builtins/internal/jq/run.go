// Package jq is sandsh's jq engine: gojq for the language, with jq 1.6's
// input parsing, output formatting, key order and exit statuses. All I/O
// is injected; nothing here touches the host.
package jq

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/itchyny/gojq"
)

// Config is one jq invocation.
type Config struct {
	Program   string
	Files     []string // input files; none means Stdin
	Stdin     io.Reader
	Open      func(name string) (io.ReadCloser, error)
	Stdout    io.Writer
	Stderr    io.Writer
	Environ   []string
	ErrText   func(error) string // GNU-style error text
	Now       func() time.Time
	NullInput bool
	RawInput  bool
	Slurp     bool
	// MaxInput bounds one input value (with -s, the whole input) in
	// bytes; 0 or less means no bound.
	MaxInput    int
	RawOutput   bool
	JoinOutput  bool
	ASCII       bool
	SortKeys    bool
	Tab         bool
	Indent      int // spaces; 0 is compact
	ExitStatus  bool
	Named       []Var // --arg/--argjson/--slurpfile/--rawfile, in order
	Positional  []any
	NamedOrder  []string
	Session     *Session
	WriteFailed error // set by Run when stdout failed
}

// Var is a named variable given on the command line.
type Var struct {
	Name  string
	Value any
}

// Exit statuses of jq 1.6.
const (
	statusUsage   = 2
	statusCompile = 3
	statusError   = 5
	statusParse   = 4 // jq 1.6 as shipped exits 4 on malformed input
)

// Session carries state shared by command-line parsing and Run: the key
// order of objects given in --argjson and --slurpfile values.
type Session struct{ order *order }

// NewSession returns an empty session.
func NewSession() *Session { return &Session{order: newOrder()} }

// ParseJSON parses text holding exactly one JSON value (for --argjson
// and --jsonargs).
func (s *Session) ParseJSON(text string) (any, error) {
	d := newDecoder(strings.NewReader(text), s.order)
	v, err := d.next()
	if err != nil {
		return nil, err
	}
	if _, err := d.next(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

// runner holds the state of one invocation.
type runner struct {
	cfg    *Config
	ctx    context.Context
	order  *order
	out    *bufio.Writer
	enc    *encoder
	inputs *inputIter
	status int
}

// Run executes cfg and returns jq's exit status. If writing stdout failed,
// cfg.WriteFailed holds the error.
func Run(ctx context.Context, cfg *Config) int {
	if cfg.Session == nil {
		cfg.Session = NewSession()
	}
	r := &runner{cfg: cfg, ctx: ctx, order: cfg.Session.order}
	r.out = bufio.NewWriterSize(cfg.Stdout, 64<<10)
	r.enc = &encoder{w: r.out, order: r.order, indent: cfg.Indent, tab: cfg.Tab, ascii: cfg.ASCII, sort: cfg.SortKeys}
	st := r.run()
	if err := r.out.Flush(); err != nil && cfg.WriteFailed == nil {
		cfg.WriteFailed = err
	}
	return st
}

func (r *runner) run() int {
	cfg := r.cfg
	code, err := r.compile()
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "jq: error: %v\njq: 1 compile error\n", err)
		return statusCompile
	}
	vars := r.varValues()
	r.order.keep()
	ret := 0
	if cfg.NullInput {
		ret = r.process(code, nil, vars)
	} else if cfg.Slurp {
		v, perr := r.slurp()
		if perr != nil && r.ctx.Err() != nil {
			return 130 // a cancelled read: the run reports its limit
		}
		if perr != nil {
			fmt.Fprintf(cfg.Stderr, "jq: error (at %s): %v\n", r.inputs.pos(), perr)
			ret = statusParse
		} else {
			ret = r.process(code, v, vars)
		}
	} else {
		stream := r.streamPlan()
		for {
			if r.ctx.Err() != nil {
				return 130
			}
			if stream != nil && r.inputs.nextIsArray() {
				st, perr := r.processStream(stream, vars)
				if perr != nil && r.ctx.Err() != nil {
					return 130
				}
				if perr != nil {
					fmt.Fprintf(cfg.Stderr, "parse error: %v\n", perr)
					ret = statusParse
					break
				}
				ret = st
			} else {
				v, ok := r.inputs.Next()
				if !ok {
					break
				}
				if perr, isErr := v.(error); isErr {
					if r.ctx.Err() != nil {
						return 130
					}
					fmt.Fprintf(cfg.Stderr, "parse error: %v\n", perr)
					ret = statusParse
					break
				}
				ret = r.process(code, v, vars)
			}
			r.order.reset()
			if r.inputs.failed {
				break // jq 1.6 stops reading once a file failed to open
			}
			if cfg.WriteFailed != nil {
				return 1
			}
		}
	}
	if r.inputs.failed {
		ret = statusUsage
	}
	if ret >= 10 && ret < 20 { // -e's statuses, not a cancelled run's 130
		if cfg.ExitStatus {
			return ret - 10
		}
		return 0
	}
	return ret
}

func (r *runner) compile() (*gojq.Code, error) {
	q, err := gojq.Parse(r.cfg.Program)
	if err != nil {
		return nil, err
	}
	r.inputs = newInputIter(r)
	return r.compileQuery(q)
}

// compileQuery compiles a parsed program (or a part of one, stream.go)
// with sandsh's prelude and functions.
func (r *runner) compileQuery(q *gojq.Query) (*gojq.Code, error) {
	cfg := r.cfg
	prelude, err := gojq.Parse(preludeSrc)
	if err != nil {
		return nil, fmt.Errorf("prelude: %w", err)
	}
	rewrite(q)
	q.FuncDefs = append(prelude.FuncDefs, q.FuncDefs...)
	names := make([]string, 0, len(cfg.Named)+1)
	for _, v := range cfg.Named {
		names = append(names, "$"+v.Name)
	}
	names = append(names, "$ARGS", "$__loc__")
	opts := []gojq.CompilerOption{
		gojq.WithVariables(names),
		gojq.WithEnvironLoader(func() []string { return cfg.Environ }),
		gojq.WithInputIter(r.inputs),
		gojq.WithFunction("_sandsh_order", 1, 1, r.funcOrder),
		gojq.WithFunction("_sandsh_keys", 0, 0, r.funcKeys),
		gojq.WithIterFunction("_sandsh_iter", 0, 0, r.funcIter),
		gojq.WithFunction("_sandsh_from_entries", 0, 0, r.funcFromEntries),
		gojq.WithFunction("_sandsh_tojson", 0, 0, r.funcToJSON),
		gojq.WithFunction("_sandsh_now", 0, 0, r.funcNow),
		gojq.WithFunction("_sandsh_fromjson", 0, 0, r.funcFromJSON),
		gojq.WithFunction("_sandsh_paths", 0, 0, r.funcPaths),
		gojq.WithFunction("_sandsh_tostream", 0, 0, r.funcToStream),
		gojq.WithFunction("_sandsh_trimstr", 2, 2, funcTrimstr),
		gojq.WithFunction("_sandsh_uri", 0, 0, r.funcURI),
		gojq.WithFunction("_sandsh_tonumber", 0, 0, r.funcToNumber),
		gojq.WithFunction("debug", 0, 0, r.funcDebug),
		gojq.WithFunction("stderr", 0, 0, r.funcStderr),
		gojq.WithFunction("input_filename", 0, 0, r.funcInputFilename),
		gojq.WithFunction("input_line_number", 0, 0, func(any, []any) any { return r.inputs.line() }),
	}
	return gojq.Compile(q, opts...)
}

// preludeSrc redefines the builtins whose gojq versions sort object keys
// or read the host clock.
const preludeSrc = `
def keys_unsorted: _sandsh_keys;
def to_entries: [_sandsh_keys[] as $k | {key: $k, value: .[$k]}];
def from_entries: _sandsh_from_entries;
def with_entries(f): to_entries | map(f) | from_entries;
def tojson: _sandsh_tojson;
def tostring: if type == "string" then . else _sandsh_tojson end;
def now: _sandsh_now;
def localtime: gmtime;
def recurse_down: recurse;
def _sandsh_recurse: def r: ., (_sandsh_iter? | r); r;
def _touri: _sandsh_uri;
def tonumber: _sandsh_tonumber;
def fromjson: _sandsh_fromjson;
def walk(f): if type == "object" then with_entries(.value |= walk(f)) | f
  elif type == "array" then map(walk(f)) | f else f end;
def map_values(f): if type == "object" then with_entries(.value |= f) else .[] |= f end;
def dateadd(u; n): . + n;
def datesub(u; n): . - n;
def date: todate;
def paths: _sandsh_paths[];
def paths(node_filter): . as $in | paths | select(. as $p | $in | getpath($p) | node_filter);
def leaf_paths: paths(scalars);
def tostream: _sandsh_tostream[];
def ltrimstr($x): _sandsh_trimstr($x; 0);
def rtrimstr($x): _sandsh_trimstr($x; 1);
def strflocaltime(f): strftime(f);
.`

func (r *runner) varValues() []any {
	cfg := r.cfg
	vals := make([]any, 0, len(cfg.Named)+1)
	named := make(map[string]any, len(cfg.Named))
	var keys []string
	for _, v := range cfg.Named {
		vals = append(vals, v.Value)
		if _, dup := named[v.Name]; !dup {
			keys = append(keys, v.Name)
		}
		named[v.Name] = v.Value
	}
	r.order.set(named, keys)
	pos := cfg.Positional
	if pos == nil {
		pos = []any{}
	}
	args := map[string]any{"positional": pos, "named": named}
	r.order.set(args, []string{"positional", "named"})
	loc := map[string]any{"file": "<top-level>", "line": locLine(cfg.Program)}
	return append(vals, args, loc)
}

func (r *runner) slurp() (any, error) {
	if r.cfg.RawInput {
		var sb strings.Builder
		for {
			s, ok := r.inputs.Next()
			if !ok {
				break
			}
			if err, isErr := s.(error); isErr {
				return nil, err
			}
			sb.WriteString(s.(string))
		}
		return sb.String(), nil
	}
	arr := []any{}
	for {
		v, ok := r.inputs.Next()
		if !ok {
			return arr, nil
		}
		if err, isErr := v.(error); isErr {
			return nil, err
		}
		arr = append(arr, v)
	}
}

// process runs the program on one input and returns jq 1.6's per-input
// status: 14 for no output, 11 when the last output was false or null,
// 5 on an error, the halt status on halt.
func (r *runner) process(code *gojq.Code, v any, vars []any) int {
	cfg := r.cfg
	ret := 14
	iter := code.RunWithContext(r.ctx, v, vars...)
	for {
		x, ok := iter.Next()
		if !ok {
			break
		}
		if err, isErr := x.(error); isErr {
			return r.reportError(err)
		}
		ret = r.emit(x)
		if r.out.Buffered() == 0 || r.out.Available() < 4096 {
			if err := r.out.Flush(); err != nil {
				cfg.WriteFailed = err
				return 1
			}
		}
	}
	return ret
}

// emit writes one output of the program and returns the status it
// stands for: 11 for false or null, else 0.
func (r *runner) emit(x any) int {
	cfg := r.cfg
	ret := 0
	if s, isStr := x.(string); isStr && (cfg.RawOutput || cfg.JoinOutput) && !cfg.ASCII {
		r.out.WriteString(s)
	} else {
		r.enc.encode(x)
		if x == nil || x == false {
			ret = 11
		}
	}
	if !cfg.JoinOutput {
		r.out.WriteByte('\n')
	}
	return ret
}

func (r *runner) reportError(err error) int {
	cfg := r.cfg
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return 130
	}
	var halt *gojq.HaltError
	if errors.As(err, &halt) {
		r.out.Flush()
		switch v := halt.Value().(type) {
		case nil:
		case string:
			io.WriteString(cfg.Stderr, v)
		default:
			fmt.Fprintf(cfg.Stderr, "%s\n", r.compact(v))
		}
		return halt.ExitCode()
	}
	loc := r.inputs.pos()
	if ve, ok := err.(gojq.ValueError); ok {
		if s, isStr := ve.Value().(string); isStr {
			fmt.Fprintf(cfg.Stderr, "jq: error (at %s): %s\n", loc, s)
		} else {
			fmt.Fprintf(cfg.Stderr, "jq: error (at %s) (not a string): %s\n", loc, r.compact(ve.Value()))
		}
		return statusError
	}
	fmt.Fprintf(cfg.Stderr, "jq: error (at %s): %v\n", loc, err)
	return statusError
}

// compact renders v as one-line JSON with the same rules as the output.
func (r *runner) compact(v any) string {
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	e := &encoder{w: w, order: r.order, sort: r.cfg.SortKeys}
	e.encode(v)
	w.Flush()
	return buf.String()
}

func (r *runner) funcOrder(v any, args []any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	ks, _ := args[0].([]any)
	keys := make([]string, 0, len(ks))
	for _, k := range ks {
		if s, ok := k.(string); ok {
			keys = append(keys, s)
		}
	}
	r.order.set(m, keys)
	return m
}

func (r *runner) funcKeys(v any, _ []any) any {
	switch v := v.(type) {
	case map[string]any:
		ks := r.order.keys(v, false)
		out := make([]any, len(ks))
		for i, k := range ks {
			out[i] = k
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i := range v {
			out[i] = i
		}
		return out
	}
	return fmt.Errorf("%s (%s) has no keys", typeName(v), r.compact(v))
}

// funcIter is `.[]` with objects iterated in key order.
func (r *runner) funcIter(v any, _ []any) gojq.Iter {
	switch v := v.(type) {
	case []any:
		return gojq.NewIter(v...)
	case map[string]any:
		ks := r.order.keys(v, false)
		vals := make([]any, len(ks))
		for i, k := range ks {
			vals[i] = v[k]
		}
		return gojq.NewIter(vals...)
	}
	return gojq.NewIter(fmt.Errorf("Cannot iterate over %s%s", typeName(v), r.valueSuffix(v)))
}

// valueSuffix is jq's " (VALUE)" after a type name in errors.
func (r *runner) valueSuffix(v any) string {
	if v == nil {
		return ""
	}
	return " (" + r.compact(v) + ")"
}

func (r *runner) funcFromEntries(v any, _ []any) any {
	arr, ok := v.([]any)
	if !ok {
		return fmt.Errorf("Cannot iterate over %s", typeName(v))
	}
	m := make(map[string]any, len(arr))
	var keys []string
	for _, e := range arr {
		em, ok := e.(map[string]any)
		if !ok {
			return fmt.Errorf("Cannot index %s with \"key\"", typeName(e))
		}
		var k any
		for _, name := range []string{"key", "k", "name", "Name", "Key", "K"} {
			if x, ok := em[name]; ok && x != nil && x != false {
				k = x
				break
			}
		}
		var ks string
		switch kk := k.(type) {
		case string:
			ks = kk
		case nil:
			ks = "null"
		case bool:
			ks = fmt.Sprint(kk)
		case int, float64:
			ks = r.compact(kk)
		default:
			return fmt.Errorf("Cannot use %s (%s) as object key", typeName(k), r.compact(k))
		}
		val, has := em["value"]
		if !has {
			if x, ok := em["v"]; ok {
				val = x
			} else {
				val = em["Value"]
			}
		}
		if _, dup := m[ks]; !dup {
			keys = append(keys, ks)
		}
		m[ks] = val
	}
	r.order.set(m, keys)
	return m
}

func (r *runner) funcFromJSON(v any, _ []any) any {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("%s (%s) cannot be parsed as JSON", typeName(v), r.compact(v))
	}
	d := newDecoder(strings.NewReader(s), r.order)
	x, err := d.next()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%v (while parsing '%s')", err, s)
	}
	if _, err := d.next(); err != io.EOF {
		return fmt.Errorf("Unexpected extra JSON values (while parsing '%s')", s)
	}
	return x
}

func (r *runner) funcToJSON(v any, _ []any) any { return r.compact(v) }

func (r *runner) funcNow(any, []any) any {
	t := r.cfg.Now()
	return float64(t.UnixNano()) / 1e9
}

func (r *runner) funcDebug(v any, _ []any) any {
	fmt.Fprintf(r.cfg.Stderr, "[\"DEBUG:\",%s]\n", r.compact(v))
	return v
}

func (r *runner) funcStderr(v any, _ []any) any {
	io.WriteString(r.cfg.Stderr, r.compact(v))
	return v
}

func (r *runner) funcInputFilename(any, []any) any {
	if r.inputs.name == "" {
		return nil
	}
	return r.inputs.name
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "number"
}

// ParseAll parses every JSON value in b into an array (--slurpfile).
func (s *Session) ParseAll(b []byte) (any, error) {
	d := newDecoder(bytes.NewReader(b), s.order)
	arr := []any{}
	for {
		v, err := d.next()
		if err == io.EOF {
			return arr, nil
		}
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
}

// locLine is the line of the first $__loc__ in the program, the value
// jq gives it (gojq does not track positions; one use per program is
// the norm).
func locLine(prog string) int {
	i := strings.Index(prog, "$__loc__")
	if i < 0 {
		return 1
	}
	return 1 + strings.Count(prog[:i], "\n")
}

// funcPaths lists the paths of all values below the input, objects in
// key order (jq's paths).
func (r *runner) funcPaths(v any, _ []any) any {
	out := []any{}
	var walk func(v any, p []any)
	walk = func(v any, p []any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range r.order.keys(v, false) {
				q := append(append([]any(nil), p...), k)
				out = append(out, q)
				walk(v[k], q)
			}
		case []any:
			for i, x := range v {
				q := append(append([]any(nil), p...), i)
				out = append(out, q)
				walk(x, q)
			}
		}
	}
	walk(v, nil)
	return out
}

// funcToStream is jq's tostream: [path, leaf] events and a closing
// [path] after the last child of each container, objects in key order.
func (r *runner) funcToStream(v any, _ []any) any {
	out := []any{}
	var walk func(v any, p []any, top bool)
	walk = func(v any, p []any, top bool) {
		var keys []any
		var vals []any
		switch x := v.(type) {
		case map[string]any:
			for _, k := range r.order.keys(x, false) {
				keys = append(keys, k)
				vals = append(vals, x[k])
			}
		case []any:
			for i, e := range x {
				keys = append(keys, i)
				vals = append(vals, e)
			}
		}
		if len(keys) == 0 {
			out = append(out, []any{append([]any{}, p...), v})
			return
		}
		for i, k := range keys {
			walk(vals[i], append(append([]any(nil), p...), k), false)
		}
		out = append(out, []any{append(append([]any{}, p...), keys[len(keys)-1])})
	}
	walk(v, nil, true)
	return out
}

// funcTrimstr is ltrimstr (side 0) and rtrimstr (side 1): jq 1.6 leaves
// the input alone when either side is not a string.
func funcTrimstr(v any, args []any) any {
	s, ok1 := v.(string)
	x, ok2 := args[0].(string)
	if !ok1 || !ok2 {
		return v
	}
	if args[1] == 0 {
		return strings.TrimPrefix(s, x)
	}
	return strings.TrimSuffix(s, x)
}

// funcURI is jq 1.6's @uri: every byte but A-Za-z0-9 and -_.!~*'() is
// percent-encoded.
func (r *runner) funcURI(v any, _ []any) any {
	s, ok := v.(string)
	if !ok {
		s = r.compact(v)
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// funcToNumber is jq 1.6's tonumber, which parses with strtod and so
// accepts leading blanks.
func (r *runner) funcToNumber(v any, _ []any) any {
	switch v := v.(type) {
	case int, float64, *big.Int:
		return v
	case string:
		s := strings.TrimLeft(v, " \t\n\r\f\v")
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) || s == "" {
			return fmt.Errorf("Cannot parse '%s' as JSON", v)
		}
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int(f)
		}
		return f
	}
	return fmt.Errorf("%s (%s) cannot be parsed as a number", typeName(v), r.compact(v))
}
