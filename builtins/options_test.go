package builtins

import (
	"slices"
	"strings"
	"testing"
)

// TestOptionTables: every in-process command is either in the option
// table or parses its options with a parser of its own (listed here), so
// a policy's options: rule is never silently unread.
func TestOptionTables(t *testing.T) {
	own := []string{"echo", "printf", "test", "[", "true", "false", "expr", "find", "jq", "xxd", "which", "tput", "yes", "ps", "dd"}
	tables := OptionTables()
	for _, c := range NewRegistry().Commands() {
		_, has := tables[c.Name]
		if has == slices.Contains(own, c.Name) {
			t.Errorf("%s: in the option table %v, own parser %v", c.Name, has, !has)
		}
	}
	for _, c := range []struct {
		cmd, args string
		want      []string
		err       bool
	}{
		{"sed", "-ni p f", []string{"n", "i"}, false},
		{"sed", "--in-pl --quiet -e x -i.bak f", []string{"i", "n", "e", "i"}, false},
		{"sed", "-r x", []string{"E"}, false},
		{"sed", "-- -i", []string{}, false},
		{"sed", "--in-plaice", nil, true},
		{"egrep", "-i x", []string{"E", "i"}, false},
		{"rm", "-Rf x", []string{"r", "f"}, false},
		{"tar", "xzf a.tgz", []string{"x", "z", "f"}, false},
		{"head", "-5 f", []string{}, false},
		{"gawk", "-f p 1 -v", []string{"f"}, false},
	} {
		tb := tables[c.cmd]
		got, err := tb.Present(strings.Fields(c.args))
		if (err != nil) != c.err || !c.err && !slices.Equal(got, c.want) {
			t.Errorf("%s %s: %q, %v; want %q", c.cmd, c.args, got, err, c.want)
		}
	}
	sed := tables["sed"]
	for name, want := range map[string]string{"in-place": "i", "i": "i", "regexp-extended": "E", "r": "E", "posix": "posix", "in-pl": "", "x": ""} {
		got, ok := sed.Resolve(name)
		if got != want || ok != (want != "") {
			t.Errorf("sed Resolve(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	if n := tables["sed"].Names(); !slices.Contains(n, "in-place") || slices.Contains(n, "i") || !slices.Contains(n, "r") {
		t.Errorf("sed names: %v", n)
	}
}
