package policy

import (
	"fmt"
	"slices"
	"strings"
)

// Layers are policies given one after another (an organisation's, then a
// project's, then a run's). The strictest decision of any layer wins —
// deny over ask over allow, whatever the priorities — so a later file
// can narrow what an earlier one allows but never widen it.

// Layer combines policies into one. A single policy is returned as is.
// The combined policy decides with every layer and keeps the strictest
// decision; its limits are the smallest any layer sets, its paths and
// network allow list the intersection of the layers that set them, and
// a dangerous pattern is off only when every layer turns it off.
func Layer(ps ...*Policy) *Policy {
	if len(ps) == 1 {
		return ps[0]
	}
	out := &Policy{layers: ps, disabled: map[string]bool{}}
	var files, digests []string
	for i, p := range ps {
		files, digests = append(files, p.File), append(digests, p.Digest)
		out.Rules = append(out.Rules, p.Rules...)
		if i == 0 || combineStrength(p.Default) > combineStrength(out.Default) {
			out.Default = p.Default
		}
		out.tables = p.tables
		if p.ExitOnDeny() {
			out.OnDeny = "exit"
		}
	}
	out.File, out.Digest = strings.Join(files, ", "), strings.Join(digests, ", ")
	for _, name := range PatternNames() {
		off := true
		for _, p := range ps {
			off = off && p.disabled[name]
		}
		if off {
			out.disabled[name] = true
			out.Dangerous.Disable = append(out.Dangerous.Disable, name)
		}
	}
	for _, p := range ps {
		out.Paths.Read = intersectDirs(out.Paths.Read, p.Paths.Read)
		out.Paths.Write = intersectDirs(out.Paths.Write, p.Paths.Write)
		out.Limits = smallerLimits(out.Limits, p.Limits)
		out.Network = intersectNetwork(out.Network, p.Network)
	}
	return out
}

// Layers lists the policies a combined policy was made of (itself for
// one file).
func (p *Policy) Layers() []*Policy {
	if len(p.layers) == 0 {
		return []*Policy{p}
	}
	return p.layers
}

// combineStrength orders actions across layers: deny, then ask, then
// allow and jail (see strictest).
func combineStrength(a Action) int {
	switch a {
	case Deny:
		return 3
	case Ask:
		return 2
	case Allow:
		return 1
	}
	return 0
}

// strictest picks the decision that wins across layers. Among decisions
// that let the command run, jail wins over allow: for a host program,
// allow in one file and jail in another runs it in the jail.
func strictest(ds []Decision) Decision {
	best := ds[0]
	for _, d := range ds[1:] {
		bs, ds := combineStrength(best.Action), combineStrength(d.Action)
		switch {
		case bs <= 1 && ds <= 1:
			if d.Action == Jail {
				best = d
			}
		case ds > bs:
			best = d
		}
	}
	return best
}

// intersectDirs intersects two directory lists (nil: everywhere): the
// directories of each list that lie inside a directory of the other.
func intersectDirs(a, b []string) []string {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	var out []string
	add := func(d string) {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	for _, x := range a {
		for _, y := range b {
			switch {
			case under(x, y):
				add(x)
			case under(y, x):
				add(y)
			}
		}
	}
	if out == nil {
		// Nothing in common: a list that names no directory. The
		// filesystem layer takes an empty list as nowhere.
		out = []string{}
	}
	return out
}

// under reports whether directory d is dir or inside it.
func under(d, dir string) bool {
	return dir == "/" || d == dir || strings.HasPrefix(d, strings.TrimSuffix(dir, "/")+"/")
}

func smallerLimits(a, b Limits) Limits {
	a.Timeout = smaller(a.Timeout, b.Timeout, durationOrder)
	a.MaxOutput = smaller(a.MaxOutput, b.MaxOutput, sizeOrder)
	a.MaxFSBytes = smaller(a.MaxFSBytes, b.MaxFSBytes, sizeOrder)
	a.MaxFileSize = smaller(a.MaxFileSize, b.MaxFileSize, sizeOrder)
	a.MaxMemory = smaller(a.MaxMemory, b.MaxMemory, sizeOrder)
	a.MaxVarBytes = smaller(a.MaxVarBytes, b.MaxVarBytes, sizeOrder)
	a.MaxCapture = smaller(a.MaxCapture, b.MaxCapture, sizeOrder)
	a.MaxScript = smaller(a.MaxScript, b.MaxScript, sizeOrder)
	a.MaxCommands = smaller(a.MaxCommands, b.MaxCommands, intOrder[int64])
	a.MaxLoopIters = smaller(a.MaxLoopIters, b.MaxLoopIters, intOrder[int64])
	a.MaxCallDepth = smaller(a.MaxCallDepth, b.MaxCallDepth, intOrder[int])
	a.MaxFiles = smaller(a.MaxFiles, b.MaxFiles, intOrder[int])
	a.MaxJobs = smaller(a.MaxJobs, b.MaxJobs, intOrder[int])
	a.MaxFields = smaller(a.MaxFields, b.MaxFields, intOrder[int])
	return a
}

// smaller picks the smaller of two limits a layer may leave unset (nil).
// order maps a value to a number where 0 means no limit.
func smaller[T any](a, b *T, order func(T) int64) *T {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	x, y := order(*a), order(*b)
	if x == 0 || y != 0 && y < x {
		return b
	}
	return a
}

func intOrder[T int | int64](v T) int64 { return int64(v) }

func sizeOrder(s string) int64 {
	n, _ := ParseSize(s) // validated when the layer was parsed
	return n
}

func durationOrder(s string) int64 {
	d, _ := ParseDuration(s)
	return int64(d)
}

// intersectNetwork keeps what every layer with a network section allows.
// A layer without one says nothing about the network.
func intersectNetwork(a, b Network) Network {
	out := a
	out.MaxRequests = smaller(a.MaxRequests, b.MaxRequests, intOrder[int64])
	out.MaxBytes = smaller(a.MaxBytes, b.MaxBytes, sizeOrder)
	out.Timeout = smaller(a.Timeout, b.Timeout, durationOrder)
	switch {
	case a.Allow == nil:
		out.Allow = b.Allow
	case b.Allow == nil:
	default:
		out.Allow = intersectAllow(a.Allow, b.Allow)
	}
	// A deny in any file holds; every file's credentials are added.
	out.Deny = append(slices.Clone(a.Deny), b.Deny...)
	out.Credentials = append(slices.Clone(a.Credentials), b.Credentials...)
	return out
}

// intersectAllow keeps, of each pair of entries, the one the other
// contains, with the methods both allow and the smaller max_body. Two
// entries that overlap without either containing the other add nothing:
// the intersection may lose a corner, never gain one.
func intersectAllow(a, b []NetEntry) []NetEntry {
	out := []NetEntry{}
	for _, x := range a {
		ex, err := ParseNetAllow(x.URL)
		if err != nil {
			continue
		}
		for _, y := range b {
			ey, err := ParseNetAllow(y.URL)
			if err != nil {
				continue
			}
			var keep NetEntry
			switch {
			case ex.within(ey):
				keep = x
			case ey.within(ex):
				keep = y
			default:
				continue
			}
			keep.Methods = bothMethods(x.Methods, y.Methods)
			keep.MaxBody = smaller(x.MaxBody, y.MaxBody, sizeOrder)
			if x.Reason != "" && y.Reason != "" && x.Reason != y.Reason {
				keep.Reason = x.Reason + "; " + y.Reason
			} else if keep.Reason == "" {
				keep.Reason = x.Reason + y.Reason
			}
			if !slices.ContainsFunc(out, func(e NetEntry) bool { return e.URL == keep.URL && slices.Equal(e.Methods, keep.Methods) }) {
				out = append(out, keep)
			}
		}
	}
	return out
}

// bothMethods intersects two method lists (nil: every method). Nothing
// in common is a list no request matches.
func bothMethods(a, b []string) []string {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	out := []string{}
	for _, m := range a {
		if slices.Contains(b, m) {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		out = []string{"NONE"}
	}
	return out
}

// within reports whether every request a allows, b allows too.
func (a NetAllow) within(b NetAllow) bool {
	schemes := []string{a.Scheme}
	if a.Scheme == "" {
		schemes = []string{"http", "https"}
	}
	for _, s := range schemes {
		for _, port := range a.ports(s) {
			if !b.allowsSchemePort(s, port) {
				return false
			}
		}
	}
	switch {
	case b.Host == a.Host:
	case strings.HasPrefix(b.Host, "*."):
		if !strings.HasSuffix(a.Host, b.Host[1:]) {
			return false
		}
	default:
		return false
	}
	if b.Path == "" {
		return true
	}
	return a.Path != "" && (a.Path == b.Path || strings.HasPrefix(a.Path, strings.TrimSuffix(b.Path, "/")+"/"))
}

func (a NetAllow) ports(scheme string) []int {
	switch {
	case a.Port != 0:
		return []int{a.Port}
	case a.Scheme != "":
		return []int{DefaultPort(scheme)}
	}
	return []int{80, 443}
}

func (a NetAllow) allowsSchemePort(scheme string, port int) bool {
	if a.Scheme != "" && a.Scheme != scheme {
		return false
	}
	return slices.Contains(a.ports(scheme), port)
}

// decideLayers decides with every layer.
func (p *Policy) decideLayers(dir string, argv []string) Decision {
	ds := make([]Decision, len(p.layers))
	for i, l := range p.layers {
		ds[i] = l.DecideAt(dir, argv)
	}
	return strictest(ds)
}

func (p *Policy) decideBuiltinLayers(argv []string) (Decision, bool) {
	var ds []Decision
	for _, l := range p.layers {
		if d, ok := l.DecideBuiltin(argv); ok {
			ds = append(ds, d)
		}
	}
	if ds == nil {
		return Decision{}, false
	}
	return strictest(ds), true
}

// Where says where a rule is: "file:line".
func (r *Rule) Where() string { return fmt.Sprintf("%s:%d", r.File, r.Line) }
