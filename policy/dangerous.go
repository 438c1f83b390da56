package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/sandsh/sandsh/builtins"
)

// Pattern is a built-in dangerous pattern. Those with an Argv matcher
// are checked on every command line; the others (fork bombs, a download
// run by a shell, redirections onto a disk device) are shapes of a whole
// script and are found by CheckScript.
type Pattern struct {
	Name string
	Desc string
	Argv func(argv []string) bool
}

// patterns are the built-in dangerous patterns, in the order they are
// shown.
var patterns = []*Pattern{
	{Name: "rm-rf-root", Desc: "recursive removal of / or a system directory", Argv: rmRoot},
	{Name: "chmod-777-root", Desc: "recursive chmod or chown of / or a system directory", Argv: chmodRoot},
	{Name: "mkfs", Desc: "making a filesystem", Argv: func(a []string) bool {
		b := path.Base(a[0])
		return b == "mkfs" || strings.HasPrefix(b, "mkfs.") || b == "mke2fs" || b == "mkswap"
	}},
	{Name: "dd-device", Desc: "dd writing to a device", Argv: ddDevice},
	{Name: "dev-disk-write", Desc: "writing to a disk device (/dev/sd*, /dev/nvme*, …)", Argv: diskWriteArgv},
	{Name: "fork-bomb", Desc: "a function that calls itself in a pipeline or in the background"},
	{Name: "download-to-shell", Desc: "a download (curl, wget) run by a shell"},
}

// Patterns lists the built-in dangerous patterns.
func Patterns() []*Pattern { return slices.Clone(patterns) }

// PatternNames lists their names.
func PatternNames() []string {
	var out []string
	for _, p := range patterns {
		out = append(out, p.Name)
	}
	return out
}

// PatternByName finds a pattern, or nil.
func PatternByName(name string) *Pattern {
	for _, p := range patterns {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// MatchArgvAt is MatchArgv for a command run in directory dir: relative
// operands of rm, chmod and chown are resolved against it first.
func MatchArgvAt(dir string, argv []string) *Pattern {
	if len(argv) == 0 {
		return nil
	}
	return MatchArgv(absOperands(dir, argv))
}

// MatchArgv reports the first dangerous pattern argv matches, ignoring
// none: the caller decides whether a policy disabled it.
func MatchArgv(argv []string) *Pattern {
	if len(argv) == 0 {
		return nil
	}
	for _, p := range patterns {
		if p.Argv != nil && p.Argv(argv) {
			return p
		}
	}
	return nil
}

// absOperands resolves the relative operands of rm, chmod and chown
// against dir ("" leaves argv as it is).
func absOperands(dir string, argv []string) []string {
	switch path.Base(argv[0]) {
	case "rm", "chmod", "chown":
	default:
		return argv
	}
	if dir == "" || !strings.HasPrefix(dir, "/") {
		return argv
	}
	out := slices.Clone(argv)
	dashes := false
	for i, a := range out[1:] {
		switch {
		case a == "--" && !dashes:
			dashes = true
		case dashes || a != "" && a[0] != '-' && a[0] != '/':
			if a != "" && a[0] != '/' {
				out[i+1] = path.Join(dir, a)
			}
		}
	}
	return out
}

func (d *Dangerous) match(p *Policy, argv []string) *Pattern {
	if len(argv) == 0 {
		return nil
	}
	for _, pat := range patterns {
		if pat.Argv != nil && !p.disabled[pat.Name] && pat.Argv(argv) {
			return pat
		}
	}
	return nil
}

// systemDirs are the top-level directories whose recursive removal is as
// bad as removing /. They matter because the shell expands `rm -rf /*`
// before any command sees it: the policy gets /bin /etc /usr ….
var systemDirs = []string{"/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/opt",
	"/proc", "/root", "/sbin", "/srv", "/sys", "/usr", "/var"}

// isRoot reports whether an operand names /, everything in it ("//",
// "/.", "/*", "/./*"), or a top-level system directory.
func isRoot(arg string) bool {
	if !strings.HasPrefix(arg, "/") {
		return false
	}
	a := strings.TrimSuffix(arg, "*")
	if a != arg && !strings.HasSuffix(a, "/") {
		return false
	}
	c := path.Clean(a)
	return c == "/" || slices.Contains(systemDirs, c)
}

// shortFlags collects the option letters of argv (up to "--"), and the
// long options.
func flags(argv []string) (short string, long []string, operands []string) {
	for i, a := range argv[1:] {
		switch {
		case a == "--":
			return short, long, append(operands, argv[i+2:]...)
		case strings.HasPrefix(a, "--"):
			long = append(long, a)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			short += a[1:]
		default:
			operands = append(operands, a)
		}
	}
	return short, long, operands
}

func rmRoot(argv []string) bool {
	if path.Base(argv[0]) != "rm" {
		return false
	}
	short, long, ops := flags(argv)
	recursive := strings.ContainsAny(short, "rR") || slices.Contains(long, "--recursive")
	noPreserve := slices.Contains(long, "--no-preserve-root")
	// rm's own parser reads what the words mean: --recursive abbreviated
	// (--rec), --no-preserve abbreviated, -R among other letters.
	if t, ok := builtins.LookupOptions("rm"); ok {
		if names, err := t.Present(argv[1:]); err == nil {
			recursive = recursive || slices.Contains(names, "r")
			noPreserve = noPreserve || slices.Contains(names, "no-preserve-root")
		}
	}
	if noPreserve && recursive {
		return true
	}
	return recursive && slices.ContainsFunc(ops, isRoot)
}

func chmodRoot(argv []string) bool {
	if path.Base(argv[0]) != "chmod" && path.Base(argv[0]) != "chown" {
		return false
	}
	short, long, ops := flags(argv)
	if !strings.Contains(short, "R") && !slices.Contains(long, "--recursive") {
		return false
	}
	// The mode is the first operand; the rest are the files.
	return len(ops) > 1 && slices.ContainsFunc(ops[1:], isRoot)
}

// harmlessDev are the devices a write to is not dangerous.
var harmlessDev = []string{"/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/full"}

func ddDevice(argv []string) bool {
	if path.Base(argv[0]) != "dd" {
		return false
	}
	for _, a := range argv[1:] {
		if of, ok := strings.CutPrefix(a, "of="); ok {
			of = path.Clean(of)
			if strings.HasPrefix(of, "/dev/") && !slices.Contains(harmlessDev, of) && !strings.HasPrefix(of, "/dev/fd/") {
				return true
			}
		}
	}
	return false
}

// DiskDevice reports whether p (a sandbox path) is a disk device.
func DiskDevice(p string) bool {
	p = path.Clean(p)
	for _, pre := range []string{"/dev/sd", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/nvme", "/dev/mmcblk", "/dev/disk/"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}

// diskWriteArgv finds commands that write to their operands (tee, cp,
// dd, shred, …) naming a disk device.
func diskWriteArgv(argv []string) bool {
	switch path.Base(argv[0]) {
	case "tee", "shred", "wipefs", "truncate", "fdisk", "sfdisk", "parted":
		_, _, ops := flags(argv)
		return slices.ContainsFunc(ops, DiskDevice)
	case "cp", "mv", "install", "ln":
		_, _, ops := flags(argv)
		return len(ops) > 1 && DiskDevice(ops[len(ops)-1])
	case "dd":
		for _, a := range argv[1:] {
			if of, ok := strings.CutPrefix(a, "of="); ok && DiskDevice(of) {
				return true
			}
		}
	}
	return false
}
