package worker

// The session flags of `sandsh run`: --state, --var, --var-json,
// --print-var, --json, --import, --export, --export-tar, --changes.
//
// A run has a host side (the parent sandsh, which may touch host files)
// and a sandbox side (the worker, which cannot: Landlock hides the host).
// The host side reads the state file and the --import directory into
// runInputs, which travel to the worker with the run; the worker applies
// them, runs the script and sends a runOutcome back (restrict's result
// descriptor); the host side then saves the state, writes the export
// and prints the results. With --no-worker both sides are this process.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/sandsh/sandsh/hostfile"
	"github.com/sandsh/sandsh/internal/termsafe"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/sandbox"
	"github.com/sandsh/sandsh/statefile"
	"github.com/sandsh/sandsh/vfs"
)

// jsonStreamMax is how much of each of stdout and stderr --json keeps;
// past it the stream is cut and its *_truncated flag set.
const jsonStreamMax = 1 << 20

// runInputs is what the host side hands the sandbox side.
type runInputs struct {
	// StateFD and StateOutFD are the worker's descriptors of the --state
	// file (0 when there is none yet) and of the file the new state goes
	// into (state.go); in-process, state holds them.
	StateFD    int `json:"stateFD,omitempty"`
	StateOutFD int `json:"stateOutFD,omitempty"`
	// State is the state file's bytes, for a session's worker (state.go).
	State    []byte `json:"state,omitempty"`
	HasState bool   `json:"hasState,omitempty"`
	// Import is --import DIR read on the host and grafted (with --fs
	// overlay, or over a loaded state); LazyImport has the worker show
	// DIR itself, read when used (vfs.NewImport).
	Import     *vfs.Snapshot `json:"import,omitempty"`
	LazyImport bool          `json:"lazyImport,omitempty"`
	// ImportSkip is what the import leaves out: the export targets
	// inside DIR (importSkip).
	ImportSkip []string `json:"importSkip,omitempty"`
	state      *stateFiles
}

// passState hands the state's files to the worker as extra descriptors.
func (in *runInputs) passState(extra *[]*os.File) {
	if in.state == nil {
		return
	}
	if in.state.in != nil {
		*extra = append(*extra, in.state.in)
		in.StateFD = restrict.WorkerExtraFD + len(*extra) - 1
	}
	*extra = append(*extra, in.state.out)
	in.StateOutFD = restrict.WorkerExtraFD + len(*extra) - 1
}

// stateFile returns the state file to read (nil: none) and the one to
// write the new state into, in this process.
func (in *runInputs) stateFile() (r, w *os.File) {
	if in == nil {
		return nil, nil
	}
	if in.state != nil {
		return in.state.in, in.state.out
	}
	open := func(fd int, name string) *os.File {
		if fd <= 0 {
			return nil
		}
		restrict.CloseOnExec(fd) // host programs (unrestricted mode) must not inherit it
		return os.NewFile(uintptr(fd), name)
	}
	return open(in.StateFD, "state"), open(in.StateOutFD, "new state")
}

// runOutcome is what the sandbox side reports back besides its streams.
type runOutcome struct {
	Limit    string         `json:"limit,omitempty"`
	Finished bool           `json:"finished"`          // the script ran to its end (whatever its status)
	StateOK  bool           `json:"stateOK,omitempty"` // the new state was written whole
	Vars     map[string]any `json:"vars,omitempty"`
	Changes  []vfs.Change   `json:"changes,omitempty"`
	HasDiff  bool           `json:"hasDiff,omitempty"`
	Export   *vfs.Snapshot  `json:"export,omitempty"`
}

// SessionFlags reports whether any flag needs the host/sandbox exchange.
func (o *Options) SessionFlags() bool {
	return o.State != "" || len(o.Vars) > 0 || len(o.VarJSON) > 0 || len(o.PrintVars) > 0 || o.JSON || o.JSONStream || o.Import != "" || o.ImportAt != "" || o.Export != "" || o.ExportTar != "" || o.Changes || o.JSONBinary == "base64"
}

// wantsDiff reports whether the run must list its changes.
func (o *Options) wantsDiff() bool { return o.Changes || o.JSON }

// checkSessionFlags refuses combinations that cannot work, before
// anything runs.
func (o *Options) checkSessionFlags() error {
	memLike := o.FS == "" || o.FS == "mem" || o.FS == "overlay"
	for _, f := range []struct {
		name string
		set  bool
	}{{"--import", o.Import != ""}, {"--export", o.Export != ""}, {"--export-tar", o.ExportTar != ""}} {
		if f.set && !memLike {
			return usagef("%s needs --fs mem or --fs overlay", f.name)
		}
	}
	if o.Changes && o.FS == "disk" && o.Root == "" {
		return usagef("--changes needs --fs mem, overlay or disk --root")
	}
	switch o.JSONBinary {
	case "", "utf8":
	case "base64":
		if !o.JSON && !o.JSONStream {
			return usagef("--json-binary needs --json")
		}
	default:
		return usagef("--json-binary %q: want utf8 or base64", o.JSONBinary)
	}
	for _, v := range o.Vars {
		if name, _, ok := strings.Cut(v, "="); !ok || !validName(name) {
			return usagef("--var %q: want NAME=VALUE", v)
		}
	}
	for _, v := range o.VarJSON {
		name, val, ok := strings.Cut(v, "=")
		if !ok || !validName(name) {
			return usagef("--var-json %q: want NAME=JSON", v)
		}
		if _, err := jsonVar(val); err != nil {
			return usagef("--var-json %s: %v", name, err)
		}
	}
	for _, n := range o.PrintVars {
		if !validName(n) {
			return usagef("--print-var %q: not a variable name", n)
		}
	}
	if o.Import != "" {
		if err := checkDir(o.Import, "--import"); err != nil {
			return err
		}
	}
	if o.ImportAt != "" && (o.Import == "" || !path.IsAbs(o.ImportAt)) {
		return usagef("--import-at %s: needs --import DIR and an absolute sandbox path", o.ImportAt)
	}
	if o.ExportTar != "" && !strings.HasSuffix(o.ExportTar, ".tar") && !strings.HasSuffix(o.ExportTar, ".tar.gz") && !strings.HasSuffix(o.ExportTar, ".tgz") {
		return usagef("--export-tar %s: the name must end in .tar, .tar.gz or .tgz", o.ExportTar)
	}
	for _, out := range []struct{ flag, path string }{{"--export", o.Export}, {"--export-tar", o.ExportTar}} {
		if out.path == "" {
			continue
		}
		if o.Import != "" && within(out.path, o.Import) && resolvePath(out.path) == resolvePath(o.Import) {
			return usagef("%s %s: is the --import directory %s, which sandsh never writes", out.flag, out.path, o.Import)
		}
		for _, in := range []struct{ flag, path string }{{"--base", o.Base}, {"--root", o.Root}} {
			if in.path != "" && within(out.path, in.path) {
				return usagef("%s %s: inside the %s directory %s, which sandsh never writes", out.flag, out.path, in.flag, in.path)
			}
		}
	}
	if o.Export != "" {
		if err := vfs.CheckExportDir(o.Export); err != nil {
			return usagef("--export: %v", err)
		}
	}
	// Host files written after the run are checked before it, so a
	// symlink or FIFO planted there costs no run (they are checked again
	// when written).
	if o.ExportTar != "" {
		if err := hostfile.CheckWritable(o.ExportTar); err != nil {
			return usagef("--export-tar %s: %s", o.ExportTar, hostfile.Describe(err))
		}
	}
	return nil
}

func validName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// importSkip is what --import leaves out: each export target inside the
// import directory, relative to it (symlinks resolved as within does).
// The export must be new or empty (a tar file is rewritten whole), so
// leaving it out means the export never overwrites what the import
// read, and a second run does not carry the first run's export in.
func (o *Options) importSkip() []string {
	var skip []string
	for _, out := range []string{o.Export, o.ExportTar} {
		if out == "" || !within(out, o.Import) {
			continue
		}
		if rel, err := filepath.Rel(resolvePath(o.Import), resolvePath(out)); err == nil && rel != "." {
			skip = append(skip, filepath.ToSlash(rel))
		}
	}
	return skip
}

// within reports whether path p is dir or inside it, after resolving
// symlinks as far as the paths exist.
func within(p, dir string) bool {
	rp, rd := resolvePath(p), resolvePath(dir)
	rel, err := filepath.Rel(rd, rp)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

func resolvePath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	// Resolve the longest existing prefix: the export may not exist yet.
	rest := ""
	for cur := abs; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// jsonVar turns --var-json text into a string, []string or
// map[string]string.
func jsonVar(text string) (any, error) {
	var v any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("bad JSON: %v", err)
	}
	if dec.More() {
		return nil, errors.New("bad JSON: more than one value")
	}
	scalar := func(x any) (string, bool) {
		switch x := x.(type) {
		case string:
			return x, true
		case json.Number:
			return x.String(), true
		case bool:
			return fmt.Sprint(x), true
		}
		return "", false
	}
	switch x := v.(type) {
	case []any:
		list := make([]string, len(x))
		for i, e := range x {
			s, ok := scalar(e)
			if !ok {
				return nil, errors.New("array elements must be strings, numbers or booleans")
			}
			list[i] = s
		}
		return list, nil
	case map[string]any:
		m := make(map[string]string, len(x))
		for k, e := range x {
			s, ok := scalar(e)
			if !ok {
				return nil, errors.New("object values must be strings, numbers or booleans")
			}
			m[k] = s
		}
		return m, nil
	case nil:
		return nil, errors.New("null is not a value")
	}
	if s, ok := scalar(v); ok {
		return s, nil
	}
	return nil, errors.New("unsupported JSON value")
}

// readInputs is the host side before a run: the state file (if it
// exists) and the --import directory.
func (o *Options) readInputs() (*runInputs, int, error) {
	in := &runInputs{}
	lim, err := o.sandboxLimits()
	if err != nil {
		return nil, ExitUsage, err
	}
	if o.State != "" {
		// The state is written back to this path: a symlink, a FIFO or a
		// directory there is refused before the run, not after it.
		if err := hostfile.CheckWritable(o.State); err != nil {
			return nil, ExitState, fmt.Errorf("--state %s: %s", o.State, hostfile.Describe(err))
		}
		sf, status, err := o.openState(StateFileMax(lim))
		if err != nil {
			return nil, status, err
		}
		in.state, o.stateFiles = sf, sf
	}
	if o.Import != "" {
		in.ImportSkip = o.importSkip()
		importLim := vfs.SnapLimits{MaxBytes: lim.MaxFSBytes, MaxFiles: lim.MaxFiles, MaxFileSize: lim.MaxFileSize}
		// On a fresh memory filesystem the import is the lower layer of
		// the tree, read when used; over a loaded state (which it must
		// win over) or an overlay's base it is copied in as before.
		if (o.FS == "" || o.FS == "mem") && (in.state == nil || in.state.in == nil) {
			if err := vfs.CheckHostTree(context.Background(), o.Import, importLim, in.ImportSkip...); err != nil {
				return nil, ExitUsage, usagef("--import: %v", err)
			}
			in.LazyImport = true
		} else {
			snap, err := vfs.ReadHostTree(context.Background(), o.Import, importLim, in.ImportSkip...)
			if err != nil {
				return nil, ExitUsage, usagef("--import: %v", err)
			}
			in.Import = snap
		}
	}
	return in, 0, nil
}

func StateFileMax(lim sandbox.Limits) int64 {
	max := int64(1 << 30)
	if lim.MaxFSBytes > 0 {
		max = 2*lim.MaxFSBytes + 64<<20
	}
	return max
}

// runSandboxed is the sandbox side of a script run: build the sandbox
// (from the state, with the import and the variables), run, and report.
func (o *Options) runSandboxed(ctx context.Context, in *runInputs, sc sandbox.Script) (int, *runOutcome) {
	oc := &runOutcome{}
	errw := sc.Stderr
	cfg, err := o.SandboxConfig()
	if err != nil {
		return ReportSetupError(errw, err), oc
	}
	if in != nil && in.LazyImport {
		cfg.Import, cfg.ImportSkip, cfg.ImportAt = o.Import, in.ImportSkip, o.ImportAt
	}
	stateIn, stateOut := in.stateFile()
	if stateIn != nil {
		lim := cfg.Limits
		f, err := statefile.ReadWithin(stateIn, StateFileMax(lim),
			vfs.SnapLimits{MaxBytes: lim.MaxFSBytes, MaxFiles: lim.MaxFiles, MaxFileSize: lim.MaxFileSize})
		if err != nil {
			termsafe.Fprintf(errw, "sandsh: --state %s: %v\n", o.State, err)
			return ExitState, oc
		}
		cfg.State = f
	}
	sb, err := sandbox.New(cfg)
	if err != nil {
		var ce *sandbox.ConfigError
		var se *sandbox.StateError
		switch {
		case errors.As(err, &se):
			termsafe.Fprintf(errw, "sandsh: --state %s: %v\n", o.State, err)
			return ExitState, oc
		case errors.As(err, &ce):
			return ReportSetupError(errw, usagef("%s", ce.Msg)), oc
		}
		return ReportSetupError(errw, err), oc
	}
	defer sb.Close()
	if o.Verbose {
		fmt.Fprintf(errw, "sandsh: sandbox: %s\n", sb.Description())
	}
	workDir := sb.Dir()
	lim := cfg.Limits
	snapLim := vfs.SnapLimits{MaxBytes: lim.MaxFSBytes, MaxFiles: lim.MaxFiles, MaxFileSize: lim.MaxFileSize}
	if in != nil && in.Import != nil {
		at := workDir
		if o.ImportAt != "" {
			at = vfs.Clean("/", o.ImportAt)
			if err := vfs.EnsureMountPoint(sb.FS(), at); err != nil {
				return ReportSetupError(errw, usagef("--import-at %s: %v", o.ImportAt, err)), oc
			}
		}
		if err := vfs.Graft(ctx, sb.FS(), at, in.Import, snapLim); err != nil {
			return ReportSetupError(errw, usagef("--import: %v", err)), oc
		}
	}
	for _, v := range o.Vars {
		name, val, _ := strings.Cut(v, "=")
		if err := sb.SetVar(name, val); err != nil {
			return ReportSetupError(errw, usagef("--var %s: %v", name, err)), oc
		}
	}
	for _, v := range o.VarJSON {
		name, text, _ := strings.Cut(v, "=")
		val, _ := jsonVar(text)
		switch x := val.(type) {
		case string:
			err = sb.SetVar(name, x)
		case []string:
			err = sb.SetArray(name, x)
		case map[string]string:
			err = sb.SetAssoc(name, x)
		}
		if err != nil {
			return ReportSetupError(errw, usagef("--var-json %s: %v", name, err)), oc
		}
	}
	var before vfs.Manifest
	diffable := o.FS != "disk" || o.Root != ""
	// An overlay base or a --root directory may hold more than the run
	// may add: bound the walk generously, but bound it.
	manifestMax := 0
	if lim.MaxFiles > 0 {
		manifestMax = 4*lim.MaxFiles + 100000
	}
	if o.wantsDiff() && diffable {
		if before, err = vfs.TakeManifest(ctx, sb.FS(), "/", manifestMax); err != nil {
			termsafe.Fprintf(errw, "sandsh: --changes: %v\n", err)
			return ExitInternal, oc
		}
	}
	// A first run in an empty sandbox that looks for the project's files
	// gets, under --verbose, one line saying how to show them.
	var missing *missingWatch
	if o.Verbose && (o.FS == "" || o.FS == "mem") && o.Import == "" && stateIn == nil {
		missing = &missingWatch{w: sc.Stderr}
		sc.Stderr = missing
	}
	res, err := sb.Run(ctx, sc)
	if err != nil {
		return finalStatus(errw, 0, &interp.InternalError{Value: err.Error()}), oc
	}
	if missing.found() {
		fmt.Fprintln(errw, "sandsh: hint: the script looked for files this sandbox does not have: it starts empty (--fs mem); --import . shows the current directory in it (copy-on-write), as does --fs overlay --base .")
	}
	var status int
	if o.worker != nil && isMemoryLimit(res.Err) {
		status = memoryLimitHit() // the parent prints it (memoryLimitMark)
	} else {
		status = finalStatus(errw, res.Status, res.Err)
	}
	oc.Limit = res.Limit
	oc.Finished = res.Err == nil
	// What follows reads the sandbox after the run: it gets its own
	// time, not what is left of the script's.
	post := context.Background()
	if len(o.PrintVars) > 0 {
		oc.Vars = map[string]any{}
		for _, n := range o.PrintVars {
			v, _ := sb.Var(n)
			oc.Vars[n] = v
		}
	}
	if before != nil {
		if after, err := vfs.TakeManifest(post, sb.FS(), "/", manifestMax); err == nil {
			oc.Changes, oc.HasDiff = vfs.Diff(before, after), true
		} else {
			termsafe.Fprintf(errw, "sandsh: --changes: %v\n", err)
		}
	}
	if oc.Finished && (o.Export != "" || o.ExportTar != "") {
		snap, err := vfs.TakeSnapshotAt(post, sb.FS(), workDir, snapLim)
		if err != nil {
			termsafe.Fprintf(errw, "sandsh: --export: %v\n", err)
			return ExitInternal, oc
		}
		oc.Export = snap
	}
	if oc.Finished && o.State != "" && stateOut != nil {
		st, err := sb.State(post)
		if err == nil {
			w := bufio.NewWriterSize(stateOut, 1<<20)
			if err = statefile.Write(w, st); err == nil {
				err = w.Flush()
			}
			oc.StateOK = err == nil
		}
		if err != nil {
			termsafe.Fprintf(errw, "sandsh: --state %s: cannot save: %v\n", o.State, err)
			return ExitState, oc
		}
	}
	return status, oc
}

// missingWatch passes a script's stderr through and notes whether a
// command said a file did not exist.
type missingWatch struct {
	w    io.Writer
	mu   sync.Mutex
	tail []byte // the end of the last write, for a message split in two
	seen bool
}

const noSuchFile = ": No such file or directory"

func (m *missingWatch) Write(p []byte) (int, error) {
	m.mu.Lock()
	if !m.seen {
		buf := append(m.tail, p...)
		m.seen = bytes.Contains(buf, []byte(noSuchFile))
		m.tail = append([]byte(nil), buf[max(0, len(buf)-len(noSuchFile)):]...)
	}
	m.mu.Unlock()
	return m.w.Write(p)
}

func (m *missingWatch) found() bool {
	if m == nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seen
}

// capBuffer keeps the first max bytes written and notes the rest.
type capBuffer struct {
	mu        sync.Mutex
	buf       bytes.Buffer
	max       int
	truncated bool
}

func (c *capBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.max - c.buf.Len()
	if len(p) > room {
		c.truncated = true
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil
	}
	c.buf.Write(p)
	return len(p), nil
}

// text is the stream for --json: a UTF-8 string, and "" as its
// encoding; with binary "base64" a stream that is not valid UTF-8 is
// given whole as base64, and "base64" as its encoding.
func (c *capBuffer) text(binary string) (string, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.buf.Bytes()
	if binary == "base64" && !utf8.Valid(b) {
		return base64.StdEncoding.EncodeToString(b), "base64"
	}
	// Cut at a character boundary so a cut stream stays valid UTF-8
	// (a stream that was not cut keeps its last bytes, folded).
	for k := 0; c.truncated && k < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); k++ {
		if r, _ := utf8.DecodeLastRune(b); r != utf8.RuneError {
			break
		}
		b = b[:len(b)-1]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), ""
}

// JSONResult is what --json prints (documented in the README).
type JSONResult struct {
	Status          int            `json:"status"`
	Limit           *string        `json:"limit"`
	DurationMS      float64        `json:"duration_ms"`
	Stdout          string         `json:"stdout"`
	StdoutTruncated bool           `json:"stdout_truncated"`
	StdoutEncoding  string         `json:"stdout_encoding,omitempty"` // "base64" (--json-binary base64)
	Stderr          string         `json:"stderr"`
	StderrTruncated bool           `json:"stderr_truncated"`
	StderrEncoding  string         `json:"stderr_encoding,omitempty"`
	Changes         []vfs.Change   `json:"changes"`
	Vars            map[string]any `json:"vars,omitempty"`
	StateSaved      *bool          `json:"state_saved,omitempty"`
}

// hostSide holds the host side of one run.
type hostSide struct {
	o              *Options
	out, errw      io.Writer // where the run's streams go
	outCap, errCap *capBuffer
	// outLines and errLines print the streams as they come (--json-stream).
	outLines, errLines *jsonLines
	start              time.Time
}

func (o *Options) newHostSide() *hostSide {
	h := &hostSide{o: o, out: o.IO.Out, errw: o.IO.Err, start: time.Now()}
	if o.JSONStream {
		o.JSON = true
	}
	if o.JSON {
		h.outCap, h.errCap = &capBuffer{max: jsonStreamMax}, &capBuffer{max: jsonStreamMax}
		h.out, h.errw = h.outCap, h.errCap
	}
	if o.JSONStream {
		mu := &sync.Mutex{}
		h.outLines = &jsonLines{mu: mu, w: o.IO.Out, stream: "stdout"}
		h.errLines = &jsonLines{mu: mu, w: o.IO.Out, stream: "stderr"}
		h.out, h.errw = tee{h.outCap, h.outLines}, tee{h.errCap, h.errLines}
	}
	return h
}

// jsonLines writes one stream of a run as JSON Lines as it comes
// (--json-stream): {"stream":"stdout","data":"..."} for each write. A
// character split between two writes is held back until its rest
// comes, so each chunk is whole UTF-8 (other invalid bytes become
// U+FFFD, as in the final object).
type jsonLines struct {
	mu     *sync.Mutex // shared by the streams: one line at a time
	w      io.Writer
	stream string
	carry  []byte
}

type jsonChunk struct {
	Stream string `json:"stream"`
	Data   string `json:"data"`
}

func (j *jsonLines) Write(p []byte) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	data := append(j.carry, p...)
	j.carry = nil
	if i := splitRune(data); i < len(data) {
		j.carry = append([]byte(nil), data[i:]...)
		data = data[:i]
	}
	if len(data) > 0 {
		j.line(data)
	}
	return len(p), nil
}

// flush writes what is held back.
func (j *jsonLines) flush() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.carry) > 0 {
		j.line(j.carry)
		j.carry = nil
	}
}

func (j *jsonLines) line(data []byte) {
	enc := json.NewEncoder(j.w)
	enc.SetEscapeHTML(false)
	enc.Encode(jsonChunk{Stream: j.stream, Data: strings.ToValidUTF8(string(data), "\uFFFD")})
}

// splitRune is where an incomplete character at the end of b starts
// (len(b) when it ends whole).
func splitRune(b []byte) int {
	for k := 1; k < utf8.UTFMax && k <= len(b); k++ {
		c := b[len(b)-k]
		if utf8.RuneStart(c) {
			if c >= utf8.RuneSelf && !utf8.FullRune(b[len(b)-k:]) {
				return len(b) - k
			}
			break
		}
	}
	return len(b)
}

// tee writes to both writers; neither ever fails.
type tee [2]io.Writer

func (t tee) Write(p []byte) (int, error) {
	t[0].Write(p)
	t[1].Write(p)
	return len(p), nil
}

// finish is the host side after the run: save the state, write the
// export, print what was asked for. oc is nil when the sandbox side
// reported nothing (it died).
func (h *hostSide) finish(status int, limit string, oc *runOutcome) int {
	o := h.o
	if oc == nil {
		oc = &runOutcome{}
	}
	if oc.Limit != "" {
		limit = oc.Limit
	}
	var saved *bool
	if o.State != "" {
		ok := false
		saved = &ok
		if oc.Finished && oc.StateOK && o.stateFiles != nil {
			if err := o.stateFiles.commit(o.State); err != nil {
				termsafe.Fprintf(h.errw, "sandsh: --state %s: cannot save: %v\n", o.State, err)
				status = ExitState
			} else {
				ok = true
			}
		}
	}
	o.stateFiles.close()
	o.stateFiles = nil
	if !oc.Finished && status != ExitState && status != ExitUsage && status != ExitLocked {
		// Say what was not written, so a CI log shows why.
		for _, f := range []struct{ flag, path string }{{"--state", o.State}, {"--export", o.Export}, {"--export-tar", o.ExportTar}} {
			if f.path != "" {
				fmt.Fprintf(h.errw, "sandsh: %s %s: not written: the run did not finish\n", f.flag, f.path)
			}
		}
	}
	if oc.Export != nil && !o.ExportUnsafeGit {
		var held []string
		if oc.Export, held = vfs.HoldBackGit(oc.Export); len(held) > 0 {
			for _, f := range []struct{ flag, path string }{{"--export", o.Export}, {"--export-tar", o.ExportTar}} {
				if f.path != "" {
					fmt.Fprintln(h.errw, vfs.HeldBackLine(f.flag, f.path, held, "--export-unsafe-git"))
				}
			}
		}
	}
	if oc.Export != nil {
		if o.Export != "" {
			if err := vfs.WriteHostTree(o.Export, oc.Export); err != nil {
				termsafe.Fprintf(h.errw, "sandsh: --export %s: %s\n", o.Export, hostErr(err))
				status = hostWriteStatus(err)
			}
		}
		if o.ExportTar != "" {
			gz := !strings.HasSuffix(o.ExportTar, ".tar")
			if err := WriteAtomic(o.ExportTar, 0o644, func(w io.Writer) error { return vfs.WriteTar(w, oc.Export, gz) }); err != nil {
				termsafe.Fprintf(h.errw, "sandsh: --export-tar %s: %s\n", o.ExportTar, hostErr(err))
				status = hostWriteStatus(err)
			}
		}
	}
	if o.JSON {
		if h.outLines != nil {
			h.outLines.flush()
			h.errLines.flush()
		}
		r := JSONResult{Status: status, DurationMS: float64(time.Since(h.start).Microseconds()) / 1000,
			StdoutTruncated: h.outCap.truncated, StderrTruncated: h.errCap.truncated,
			Vars: oc.Vars, StateSaved: saved}
		r.Stdout, r.StdoutEncoding = h.outCap.text(o.JSONBinary)
		r.Stderr, r.StderrEncoding = h.errCap.text(o.JSONBinary)
		if limit != "" {
			r.Limit = &limit
		}
		if oc.HasDiff {
			r.Changes = oc.Changes
			if r.Changes == nil {
				r.Changes = []vfs.Change{}
			}
		}
		if len(o.PrintVars) > 0 && r.Vars == nil {
			r.Vars = map[string]any{}
			for _, n := range o.PrintVars {
				r.Vars[n] = nil
			}
		}
		enc := json.NewEncoder(o.IO.Out)
		enc.SetEscapeHTML(false)
		enc.Encode(r)
		return status
	}
	if len(o.PrintVars) > 0 && oc.Vars != nil {
		names := append([]string(nil), o.PrintVars...)
		for _, n := range names {
			b, _ := json.Marshal(oc.Vars[n])
			fmt.Fprintf(o.IO.Out, "%s=%s\n", n, b)
		}
	}
	if o.Changes && oc.HasDiff {
		letters := map[string]string{"added": "A", "modified": "M", "deleted": "D"}
		for _, c := range oc.Changes {
			termsafe.Fprintf(o.IO.Err, "%s %s\n", letters[c.Change], c.Path)
		}
	}
	return status
}

// WriteAtomic writes a host file through a temporary file and a rename
// (hostfile.WriteAtomic): the file is the old one or the whole new one,
// and a path holding a symlink, a FIFO or a directory is refused.
func WriteAtomic(name string, perm os.FileMode, write func(io.Writer) error) error {
	return hostfile.WriteAtomic(name, perm, write)
}
