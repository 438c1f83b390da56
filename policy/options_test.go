package policy

import (
	"strings"
	"testing"
)

const optionsPolicy = `default: allow
rules:
  - {name: no-inplace, command: sed, options: [in-place], action: deny}
  - {name: no-recursive-rm, command: rm, options: [recursive], action: deny}
  - {name: no-awk-system, command: awk, options: [assign], action: deny}
  - {name: no-egrep, command: egrep, action: deny}
  - {name: no-dot, command: source, action: deny}
  - {name: no-post, command: curl, options: [data, request], action: ask}
  - {name: no-extract, command: tar, options: [extract], action: deny}
  - {name: host-inplace, command: perl, options: [i, in-place], action: deny}
`

// TestOptionsSpellings: every spelling of an option the command's own
// parser accepts matches the rule; words that are not that option do not.
func TestOptionsSpellings(t *testing.T) {
	p, err := Parse("p.yaml", []byte(optionsPolicy))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		argv string
		rule string // "" for the default (allow)
	}{
		{"sed -i s/a/b/ f", "no-inplace"},
		{"sed -ni p f", "no-inplace"},
		{"sed -Ei s/a/b/ f", "no-inplace"},
		{"sed -si s/a/b/ f", "no-inplace"},
		{"sed --in-place s/a/b/ f", "no-inplace"},
		{"sed --in-pl s/a/b/ f", "no-inplace"},
		{"sed --in-place=.bak s/a/b/ f", "no-inplace"},
		{"sed -i.bak s/a/b/ f", "no-inplace"},
		{"sed -e x -i f", "no-inplace"},
		{"sed s/a/b/ -i f", "no-inplace"}, // GNU permutes
		{"/usr/bin/sed -ie s/a/b/ f", "no-inplace"},
		{"sed -e -i f", ""},      // -i is -e's value
		{"sed -n -- -i", ""},     // after --: an operand
		{"sed -n s/-i/x/ f", ""}, // in the script, not an option
		{"sed -f -i f", ""},      // -f's value
		{"rm -rf d", "no-recursive-rm"},
		{"rm -fr d", "no-recursive-rm"},
		{"rm -R d", "no-recursive-rm"},
		{"rm --recursive d", "no-recursive-rm"},
		{"rm --rec d", "no-recursive-rm"},
		{"rm -f -- -r", ""},
		{"gawk -v x=1 1", "no-awk-system"},
		{"mawk --assign=x=1 1", "no-awk-system"},
		{"awk 1 -v", ""}, // after the program: awk's operands
		{"egrep x f", "no-egrep"},
		{"grep -E x f", "no-egrep"},
		{"grep --extended-regexp x f", "no-egrep"},
		{"grep x f", ""},
		{"curl -d x u", "no-post"},
		{"curl --data-binary @f u", "no-post"},
		{"curl -XPOST u", "no-post"},
		{"curl -sSfXPUT u", "no-post"},
		{"curl -s u", ""},
		{"tar xf a.tar", "no-extract"},
		{"tar -xzf a.tgz", "no-extract"},
		{"tar --get -f a.tar", "no-extract"},
		{"tar cf a.tar x", ""},
		{"perl -pi -e s/a/b/ f", "host-inplace"},
		{"perl --in-pl f", "host-inplace"},
		{"perl -e print -- -i", ""},
	} {
		d := p.Decide(strings.Fields(c.argv))
		want := c.rule
		if want == "" {
			want = "default"
		}
		if d.Rule != want {
			t.Errorf("%s: decided by %s (%s), want %s", c.argv, d.Rule, d.Action, want)
		}
	}
	for _, c := range []struct {
		argv string
		rule string
	}{{". x.sh", "no-dot"}, {"source x.sh", "no-dot"}} {
		d, ok := p.DecideBuiltin(strings.Fields(c.argv))
		if !ok || d.Rule != c.rule {
			t.Errorf("%s: decided by %q (named %v), want %s", c.argv, d.Rule, ok, c.rule)
		}
	}
}

func TestOptionsRefused(t *testing.T) {
	for _, c := range []struct{ policy, want string }{
		{"rules:\n  - {command: sed, options: [in-plaice], action: deny}\n", `p.yaml:2: sed has no option "in-plaice"`},
		{"rules:\n  - command: rm\n    options:\n      - recursive\n      - rekursive\n    action: deny\n", `p.yaml:5: rm has no option "rekursive"`},
		{"rules:\n  - {command: sed, options: [-i], action: deny}\n", `p.yaml:2: options: "-i": name an option without dashes`},
		{"rules:\n  - {command: sed, options: [], action: deny}\n", `p.yaml:2: rule 1: options: empty list`},
		{"rules:\n  - {command: find, options: [delete], action: deny}\n", `p.yaml:2: options: sandsh does not read find's options`},
		{"rules:\n  - {command: gawk, options: [in-place], action: deny}\n", `p.yaml:2: gawk has no option "in-place"`},
	} {
		_, err := Parse("p.yaml", []byte(c.policy))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %s", c.policy, err, c.want)
		}
	}
	// Letters are names too; globs are read per command.
	for _, ok := range []string{
		"rules:\n  - {command: sed, options: [i], action: deny}\n",
		"rules:\n  - {command: \"*\", options: [recursive], action: deny}\n",
		"rules:\n  - {command: python3, options: [c], action: deny}\n",
	} {
		if _, err := Parse("p.yaml", []byte(ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

// TestDangerousLongOptions: rm's recursive removal of / is caught however
// rm's own parser spells it.
func TestDangerousLongOptions(t *testing.T) {
	for _, argv := range []string{"rm --rec --force /", "rm --recursive /etc", "rm -r --no-preserve /", "rm -Rf /usr", "rm --recur -- /"} {
		if pat := MatchArgv(strings.Fields(argv)); pat == nil || pat.Name != "rm-rf-root" {
			t.Errorf("%s: %v", argv, pat)
		}
	}
	if pat := MatchArgv(strings.Fields("rm --rec ./x")); pat != nil {
		t.Errorf("rm --rec ./x: %v", pat.Name)
	}
}

// TestDangerousRelative: relative operands reach / through the working
// directory.
func TestDangerousRelative(t *testing.T) {
	p, err := Parse("p.yaml", []byte("default: allow\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir, argv string
		deny      bool
	}{
		{"/", "rm -rf etc", true}, {"/workspace", "rm -rf ../../..", true}, {"/workspace/a", "rm -r ../../usr", true},
		{"/workspace", "rm -rf etc", false}, {"/", "rm -f etc", false}, {"/", "chmod -R 777 usr", true}, {"/", "chmod -R 777 -- -x", false},
	} {
		d := p.DecideAt(c.dir, strings.Fields(c.argv))
		if (d.Action == Deny) != c.deny {
			t.Errorf("in %s: %s: %s %s", c.dir, c.argv, d.Action, d.Rule)
		}
	}
}
