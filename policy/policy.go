// Package policy is sandsh's control plane in its pure form: it parses an
// operator's policy file (YAML), validates it whole, and decides whether a
// command line may run. It touches nothing of the host: the caller reads
// the file and passes its bytes.
//
// A Decision comes from three layers, checked in this order:
//
//  1. the built-in dangerous patterns (rm -rf /, mkfs, dd of=/dev/…),
//     which deny whatever the rules say unless the policy's `dangerous:`
//     section disables that pattern by name;
//  2. the rules whose command glob and argument pattern match: the
//     highest priority wins, and on a tie deny beats ask beats allow;
//  3. the policy's default (deny when the file does not say).
//
// The matchers (Match, the dangerous patterns and the script checks) are
// exported so a static check can apply the same policy without running
// anything.
package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/sandsh/sandsh/builtins"
)

// Action is what a rule or the default does with a command.
type Action string

// The actions a policy can name.
const (
	Allow Action = "allow"
	Deny  Action = "deny"
	Ask   Action = "ask"
	// Jail allows a command as a host program run in sandsh's OS jail
	// (the same as --allow-run NAME; see package jail). For a name the
	// sandbox serves itself it means allow.
	Jail Action = "jail"
)

// strength orders actions for a priority tie: deny wins.
func (a Action) strength() int {
	switch a {
	case Deny:
		return 2
	case Ask:
		return 1
	}
	return 0 // allow and jail: both let the command run
}

// ExitOnDeny reports whether the first refusal ends the run (on_deny:
// exit in any layer).
func (p *Policy) ExitOnDeny() bool { return p.OnDeny == "exit" }

// HasJail reports whether a rule says jail.
func (p *Policy) HasJail() bool {
	for _, r := range p.Rules {
		if r.Action == Jail {
			return true
		}
	}
	return false
}

// Rule is one command rule of a policy.
type Rule struct {
	Name      string `yaml:"name" json:"name"`
	Command   string `yaml:"command" json:"command"`
	Args      string `yaml:"args,omitempty" json:"args,omitempty"`
	ArgsRegex string `yaml:"args_regex,omitempty" json:"args_regex,omitempty"`
	// Options are option names (in-place, recursive, or a letter), any of
	// which the command line must set as the command's parser reads it.
	Options  []string `yaml:"options,omitempty" json:"options,omitempty"`
	Action   Action   `yaml:"action" json:"action"`
	Priority int      `yaml:"priority,omitempty" json:"priority,omitempty"`
	Reason   string   `yaml:"reason,omitempty" json:"reason,omitempty"`
	Line     int      `yaml:"-" json:"line,omitempty"` // where the rule starts in the file
	File     string   `yaml:"-" json:"file,omitempty"` // the policy file it is in

	cmd    *regexp.Regexp
	args   *regexp.Regexp
	tables map[string]builtins.OptionTable
}

// Paths restricts the directories a script may read and write inside the
// sandbox; an empty list means everywhere.
type Paths struct {
	Read  []string `yaml:"read,omitempty" json:"read,omitempty"`
	Write []string `yaml:"write,omitempty" json:"write,omitempty"`
}

// Dangerous turns built-in dangerous patterns off by name.
type Dangerous struct {
	Disable []string `yaml:"disable,omitempty" json:"disable,omitempty"`
}

// Limits are the run's limits as the policy file gives them, spelled as
// the sandsh flags are: sizes like "64MiB", durations like "30s". A nil
// field is not set by the file.
type Limits struct {
	Timeout      *string `yaml:"timeout,omitempty" json:"timeout,omitempty"`
	MaxCommands  *int64  `yaml:"max-commands,omitempty" json:"max-commands,omitempty"`
	MaxLoopIters *int64  `yaml:"max-loop-iterations,omitempty" json:"max-loop-iterations,omitempty"`
	MaxCallDepth *int    `yaml:"max-call-depth,omitempty" json:"max-call-depth,omitempty"`
	MaxOutput    *string `yaml:"max-output,omitempty" json:"max-output,omitempty"`
	MaxFSBytes   *string `yaml:"max-fs-bytes,omitempty" json:"max-fs-bytes,omitempty"`
	MaxFiles     *int    `yaml:"max-files,omitempty" json:"max-files,omitempty"`
	MaxFileSize  *string `yaml:"max-file-size,omitempty" json:"max-file-size,omitempty"`
	MaxMemory    *string `yaml:"max-memory,omitempty" json:"max-memory,omitempty"`
	MaxJobs      *int    `yaml:"max-jobs,omitempty" json:"max-jobs,omitempty"`
	MaxVarBytes  *string `yaml:"max-var-bytes,omitempty" json:"max-var-bytes,omitempty"`
	MaxCapture   *string `yaml:"max-capture,omitempty" json:"max-capture,omitempty"`
	MaxScript    *string `yaml:"max-script-bytes,omitempty" json:"max-script-bytes,omitempty"`
	MaxFields    *int    `yaml:"max-fields,omitempty" json:"max-fields,omitempty"`
}

// Policy is a parsed, validated policy file.
type Policy struct {
	Default   Action    `yaml:"default" json:"default"`
	Rules     []*Rule   `yaml:"rules,omitempty" json:"rules,omitempty"`
	Dangerous Dangerous `yaml:"dangerous,omitempty" json:"dangerous,omitempty"`
	Paths     Paths     `yaml:"paths,omitempty" json:"paths,omitempty"`
	Limits    Limits    `yaml:"limits,omitempty" json:"limits,omitempty"`
	Network   Network   `yaml:"network,omitempty" json:"network,omitempty"`
	Tests     []*Test   `yaml:"tests,omitempty" json:"tests,omitempty"`
	// OnDeny is what a refusal does to the run: "continue" (the
	// default: the command fails with 126 and the script goes on, as in
	// bash) or "exit" (the first refusal ends the run with 126).
	OnDeny string `yaml:"on_deny,omitempty" json:"on_deny,omitempty"`

	// File is the name the policy was loaded from; Digest the SHA-256 of
	// its bytes ("sha256:…"), for the audit log.
	File   string `yaml:"-" json:"file,omitempty"`
	Digest string `yaml:"-" json:"digest,omitempty"`

	disabled map[string]bool
	layers   []*Policy                       // the files a combined policy decides with (Layer)
	tables   map[string]builtins.OptionTable // the in-process commands' option parsers
}

// Decision is the verdict on one command line.
type Decision struct {
	Action Action
	// Rule names the rule that decided; "default" when none matched;
	// "dangerous:NAME" for a built-in pattern.
	Rule   string
	Reason string
	// Pattern is the dangerous pattern's name when one matched.
	Pattern string
	// At is where the deciding rule is ("file:line"); the policy file
	// for a default, "" for a dangerous pattern.
	At string
}

// String is a one-line account of the decision for messages:
// `rule "no-sed": edits go through patches`, `dangerous pattern
// "rm-rf-root": recursive removal of /`, `default deny: no rule matches`.
func (d Decision) String() string {
	var s string
	switch {
	case d.Pattern != "":
		s = fmt.Sprintf("dangerous pattern %q", d.Pattern)
	case d.Rule == "default":
		s = "default " + string(d.Action)
	default:
		s = fmt.Sprintf("rule %q", d.Rule)
	}
	if d.Reason != "" {
		s += ": " + d.Reason
	}
	return s
}

// Decide rules on argv (argv[0] is the command as the script named it,
// perhaps a path).
func (p *Policy) Decide(argv []string) Decision { return p.DecideAt("", argv) }

// DecideAt is Decide for a command run in directory dir (absolute, in the
// sandbox): the dangerous patterns see relative operands of rm, chmod
// and chown resolved against it, so `cd /; rm -rf etc` and `rm -rf
// ../../..` are the removal of a system directory they are.
func (p *Policy) DecideAt(dir string, argv []string) Decision {
	if len(argv) == 0 {
		return Decision{Action: Allow, Rule: "default"}
	}
	if len(p.layers) > 0 {
		return p.decideLayers(dir, argv)
	}
	if pat := p.Dangerous.match(p, absOperands(dir, argv)); pat != nil {
		return Decision{Action: Deny, Rule: "dangerous:" + pat.Name, Reason: pat.Desc, Pattern: pat.Name}
	}
	var best *Rule
	opts := p.optionsOnce(argv)
	for _, r := range p.Rules {
		if !r.match(argv, opts) {
			continue
		}
		if best == nil || r.Priority > best.Priority ||
			r.Priority == best.Priority && r.Action.strength() > best.Action.strength() {
			best = r
		}
	}
	if best == nil {
		return Decision{Action: p.Default, Rule: "default", Reason: "no rule matches", At: p.File}
	}
	return Decision{Action: best.Action, Rule: best.label(), Reason: best.Reason, At: best.Where()}
}

// Match reports whether the rule applies to argv: its command glob
// matches the command word, for a path its base name, or another name of
// the same in-process command (a rule on awk covers gawk, one on grep
// egrep, one on egrep grep -E); its args glob or regular expression (if
// any) matches any one argument word; and argv sets one of its options
// (if any).
func (r *Rule) Match(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	return r.match(argv, optionsOnce(r.tables, argv))
}

// optionsOnce reads argv's options at most once, for all the rules of a
// decision that need them.
func (p *Policy) optionsOnce(argv []string) func() setOptions { return optionsOnce(p.tables, argv) }

func optionsOnce(tables map[string]builtins.OptionTable, argv []string) func() setOptions {
	var set *setOptions
	return func() setOptions {
		if set == nil {
			s := readOptions(tables, argv)
			set = &s
		}
		return *set
	}
}

func (r *Rule) match(argv []string, opts func() setOptions) bool {
	return r.matchName(argv, opts) && r.matchWords(argv, opts)
}

// matchWords matches the rule's args and options.
func (r *Rule) matchWords(argv []string, opts func() setOptions) bool {
	if r.args != nil && !slices.ContainsFunc(argv[1:], r.args.MatchString) {
		return false
	}
	return len(r.Options) == 0 || r.matchOptions(opts())
}

func (r *Rule) matchName(argv []string, opts func() setOptions) bool {
	name, base := argv[0], path.Base(argv[0])
	if r.cmd.MatchString(name) || r.cmd.MatchString(base) {
		return true
	}
	cmd, _ := builtins.SameCommand(base)
	if cmd != base && r.cmd.MatchString(cmd) {
		return true
	}
	for _, a := range builtins.Aliases(cmd) {
		if a == base || !r.cmd.MatchString(a) {
			continue
		}
		t, ok := r.tables[a]
		if !ok || len(t.Implied) == 0 {
			return true
		}
		// A rule on egrep covers grep -E: the options the name
		// implies are set.
		implied, _ := t.Present(nil)
		set := opts()
		if set.table != nil && set.table.Command == t.Command && !set.refused && containsAll(set.names, implied) {
			return true
		}
	}
	return false
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// Disabled reports whether the policy turned the dangerous pattern off.
func (p *Policy) Disabled(pattern string) bool { return p.disabled[pattern] }

// Glob compiles a shell-style glob (*, ?, [...], \ escapes) into an
// anchored regular expression. Unlike path.Match, * also matches '/', so
// an argument glob like "/etc/*" covers a whole tree.
func Glob(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString(`\A(?s:`)
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch c {
		case '*':
			b.WriteString(`.*`)
		case '?':
			b.WriteString(`.`)
		case '\\':
			if i+1 >= len(glob) {
				return nil, fmt.Errorf("glob %q: trailing backslash", glob)
			}
			i++
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		case '[':
			end := strings.IndexByte(glob[i+1:], ']')
			if end == 0 { // "[]...]": a ] first is literal
				if e2 := strings.IndexByte(glob[i+2:], ']'); e2 >= 0 {
					end = e2 + 1
				} else {
					end = -1
				}
			}
			if end < 0 {
				return nil, fmt.Errorf("glob %q: unterminated [", glob)
			}
			class := glob[i+1 : i+1+end]
			i += end + 1
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			class = strings.ReplaceAll(class, `\`, `\\`)
			if strings.HasPrefix(class, "^]") || strings.HasPrefix(class, "]") {
				class = strings.Replace(class, "]", `\]`, 1)
			}
			class = strings.ReplaceAll(class, "[", `\[`)
			b.WriteString("[" + class + "]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`)\z`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("glob %q: %v", glob, err)
	}
	return re, nil
}

func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// DecideBuiltin rules on a shell builtin (eval, source, cd, …). Only
// rules that name the builtin literally apply, and the default does not:
// a policy with `default: deny` still lets a script use echo and cd, and
// a rule `command: eval` with `action: deny` takes eval away. It reports
// false when no rule names the builtin.
func (p *Policy) DecideBuiltin(argv []string) (Decision, bool) {
	if len(argv) == 0 {
		return Decision{}, false
	}
	if len(p.layers) > 0 {
		return p.decideBuiltinLayers(argv)
	}
	var best *Rule
	opts := p.optionsOnce(argv)
	for _, r := range p.Rules {
		if !sameBuiltin(r.Command, argv[0]) || !r.matchWords(argv, opts) {
			continue
		}
		if best == nil || r.Priority > best.Priority ||
			r.Priority == best.Priority && r.Action.strength() > best.Action.strength() {
			best = r
		}
	}
	if best == nil {
		return Decision{}, false
	}
	return Decision{Action: best.Action, Rule: best.label(), Reason: best.Reason, At: best.Where()}, true
}

// sameBuiltin reports whether a rule's command names the builtin name:
// literally, or as its other name (source and ., test and [).
func sameBuiltin(rule, name string) bool {
	if rule == name {
		return true
	}
	for _, pair := range [][2]string{{"source", "."}, {"test", "["}} {
		if rule == pair[0] && name == pair[1] || rule == pair[1] && name == pair[0] {
			return true
		}
	}
	return false
}

func (r *Rule) label() string {
	if r.Name != "" {
		return r.Name
	}
	return fmt.Sprintf("rule at line %d", r.Line)
}

// Matching lists the rules that match argv, in the file's order (for
// `sandsh policy test`, which shows what the decision overrode).
func (p *Policy) Matching(argv []string) []*Rule {
	var out []*Rule
	opts := p.optionsOnce(argv)
	for _, r := range p.Rules {
		if r.match(argv, opts) {
			out = append(out, r)
		}
	}
	return out
}

// Label names a rule in messages: its name, or where it is.
func (r *Rule) Label() string { return r.label() }
