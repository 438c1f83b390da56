package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/sandsh/sandsh/builtins"
)

// A rule's `options:` are matched on the options a command line sets as
// the command's own option parser reads it (package builtins' option
// tables), never on the words as written: -ni, -si, --in-pl, -i.bak,
// --in-place=.bak and -e x -i f are all sed's in-place option. A host
// program sandsh cannot parse is read getopt-style (normalizeHost).

// checkOptions validates a rule's option names when its command is a
// literal name sandsh serves itself: a name the command does not have is
// an error, as a typo would otherwise be a rule that never matches.
func (r *Rule) checkOptions(tables map[string]builtins.OptionTable) (int, error) {
	for i, n := range r.Options {
		if n == "" || strings.HasPrefix(n, "-") || strings.ContainsAny(n, "= \t") {
			return i, fmt.Errorf("options: %q: name an option without dashes (in-place, recursive, or a letter such as i)", n)
		}
	}
	if strings.ContainsAny(r.Command, `*?[\`) {
		return 0, nil // a glob: names are read per command, at the decision
	}
	name := path.Base(r.Command)
	t, ok := tables[name]
	if !ok {
		if builtinsServed(name) {
			return 0, fmt.Errorf("options: sandsh does not read %s's options (use args or args_regex)", name)
		}
		return 0, nil // a host program: read getopt-style
	}
	for i, n := range r.Options {
		if _, ok := t.Resolve(n); !ok {
			return i, fmt.Errorf("%s has no option %q", name, n)
		}
	}
	return 0, nil
}

// builtinsServed reports whether name is an in-process command (one with
// a parser of its own, such as echo or find, has no option table).
func builtinsServed(name string) bool {
	c, _ := builtins.SameCommand(name)
	for _, n := range builtins.NewRegistry().Commands() {
		if n.Name == c {
			return true
		}
	}
	return false
}

// setOptions is what a command line sets, for matching option names.
type setOptions struct {
	table   *builtins.OptionTable // nil: a host program, read getopt-style
	names   []string              // the parser's names (table) or letters and long names (host)
	refused bool                  // the command's own parser refuses argv: it runs nothing
}

// readOptions reads argv's options.
func readOptions(tables map[string]builtins.OptionTable, argv []string) setOptions {
	if t, ok := tables[path.Base(argv[0])]; ok {
		names, err := t.Present(argv[1:])
		return setOptions{table: &t, names: names, refused: err != nil}
	}
	return setOptions{names: normalizeHost(argv[1:])}
}

// normalizeHost reads a host program's options the way getopt_long would
// without knowing which options take values: "-abc" is a, b and c;
// "--name=value" is name; nothing after "--" counts. Options after an
// operand count (GNU permutes). Its limits (README): a value attached to
// a short option reads as more letters (-ofile is o, f, i, l, e), a
// separate value that starts with '-' reads as options, and a
// single-dash long option (-name) reads as letters.
func normalizeHost(args []string) []string {
	var out []string
	for _, a := range args {
		switch {
		case a == "--":
			return out
		case strings.HasPrefix(a, "--"):
			name, _, _ := strings.Cut(a[2:], "=")
			out = append(out, "--"+name)
		case len(a) > 1 && a[0] == '-':
			for _, c := range a[1:] {
				out = append(out, string(c))
			}
		}
	}
	return out
}

// matchOptions reports whether the command line sets any of the rule's
// options.
func (r *Rule) matchOptions(set setOptions) bool {
	if set.refused {
		// The command refuses these words and runs nothing: a deny or
		// ask rule holds (the safe side), an allow rule does not.
		return r.Action == Deny || r.Action == Ask
	}
	for _, n := range r.Options {
		if set.table != nil {
			if c, ok := set.table.Resolve(n); ok && slices.Contains(set.names, c) {
				return true
			}
			continue
		}
		for _, got := range set.names {
			long, isLong := strings.CutPrefix(got, "--")
			switch {
			case !isLong && len(n) == 1 && got == n:
				return true
			case isLong && long != "" && strings.HasPrefix(n, long):
				// --in-pl: an abbreviation getopt_long would accept
				// (unique or not; a host program's list is unknown).
				return true
			}
		}
	}
	return false
}
