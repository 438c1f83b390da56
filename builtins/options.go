package builtins

import (
	"slices"
	"strings"
)

// OptionTable is how an in-process command reads its options: the very
// Getopt its Run parses with. The policy package matches a rule's
// `options:` with it, so no spelling (-ni, --in-pl, -i.bak, -e x -i)
// can mean one thing to the policy and another to the command.
type OptionTable struct {
	// Command is the command whose parser this is: "grep" for egrep,
	// "awk" for gawk.
	Command string
	// Implied are the arguments the name puts before the script's
	// (egrep is grep -E).
	Implied []string

	spec *Getopt
}

// optionSpecs maps every in-process command that parses its options
// with Getopt to its spec. Commands with a parser of their own (echo,
// printf, test, expr, find, jq, xxd, which, tput, yes, true, false, ps,
// dd with its KEY=VALUE operands) are
// not here: a policy cannot name their options.
func optionSpecs() map[string]*Getopt {
	return map[string]*Getopt{
		"arch": &archGetopt, "awk": &awkGetopt, "base32": &basencGetopt, "base64": &basencGetopt,
		"basename": &basenameGetopt, "bc": &bcGetopt, "cat": &catGetopt, "chmod": &chmodGetopt,
		"cksum": &cksumGetopt, "clear": &clearGetopt, "cmp": &cmpGetopt, "column": &columnGetopt,
		"comm": &commGetopt, "cp": &cpGetopt, "curl": &curlGetopt, "cut": &cutGetopt, "date": &dateGetopt,
		"df": &dfGetopt, "diff": &diffGetopt, "dirname": &dirnameGetopt, "du": &duGetopt, "env": &envGetopt,
		"expand": &expandGetopt, "file": &fileGetopt, "fmt": &fmtGetopt, "fold": &foldGetopt,
		"getconf": &getconfGetopt, "grep": &grepGetopt, "gzip": &gzipGetopt, "gunzip": &gzipGetopt,
		"zcat": &gzipGetopt, "head": &headGetopt, "hexdump": &hexdumpGetopt, "hostname": &hostnameGetopt,
		"id": &idGetopt, "install": &installGetopt, "join": &joinGetopt, "ln": &lnGetopt, "ls": &lsGetopt, "md5sum": &digestGetopt,
		"sha1sum": &digestGetopt, "sha224sum": &digestGetopt, "sha256sum": &digestGetopt,
		"sha384sum": &digestGetopt, "sha512sum": &digestGetopt, "mkdir": &mkdirGetopt, "mktemp": &mktempGetopt,
		"mv": &mvGetopt, "nice": &niceGetopt, "nl": &nlGetopt, "nohup": &nohupGetopt, "nproc": &nprocGetopt,
		"od": &odGetopt, "paste": &pasteGetopt, "patch": &patchGetopt, "pgrep": &pgrepGetopt, "pkill": &pgrepGetopt, "printenv": &printenvGetopt,
		"readlink": &readlinkGetopt, "realpath": &realpathGetopt, "rev": &revGetopt, "rm": &rmGetopt,
		"rmdir": &rmdirGetopt, "sed": &sedGetopt, "seq": &seqGetopt, "sleep": &sleepGetopt, "sort": &sortGetopt,
		"split": &splitGetopt, "stat": &statGetopt, "strings": &stringsGetopt, "sum": &sumGetopt,
		"sync": &syncGetopt, "tac": &tacGetopt, "tail": &tailGetopt, "tar": &tarGetopt, "tee": &teeGetopt,
		"time": &timeGetopt, "timeout": &timeoutGetopt, "touch": &touchGetopt, "tr": &trGetopt,
		"tree": &treeGetopt, "truncate": &truncateGetopt, "tty": &ttyGetopt, "uname": &unameGetopt,
		"unexpand": &unexpandGetopt, "uniq": &uniqGetopt, "unzip": &unzipGetopt, "wc": &wcGetopt,
		"wget": &wgetGetopt, "whoami": &whoamiGetopt, "xargs": &xargsGetopt, "zip": &zipGetopt,
		"getopt": &getoptSelf, "chown": &chownGetopt, "chgrp": &chownGetopt, "envsubst": &envsubstGetopt, "shuf": &shufGetopt,
		"bzip2": &zGetopt, "bunzip2": &zGetopt, "bzcat": &zGetopt, "xz": &zGetopt, "unxz": &zGetopt, "xzcat": &zGetopt,
	}
}

// SameCommand maps a name to the in-process command it is another name
// of ("gawk" → "awk"), with the arguments the name implies ("egrep" →
// "grep", "-E"). Any other name maps to itself.
func SameCommand(name string) (string, []string) {
	switch name {
	case "gawk", "mawk", "nawk":
		return "awk", nil
	case "egrep":
		return "grep", egrepImplied
	case "fgrep":
		return "grep", fgrepImplied
	case "[":
		return "test", nil
	}
	return name, nil
}

// Aliases lists the other names the in-process command cmd answers to
// (for "awk": gawk, mawk, nawk).
func Aliases(cmd string) []string {
	switch cmd {
	case "awk":
		return []string{"gawk", "mawk", "nawk"}
	case "grep":
		return []string{"egrep", "fgrep"}
	case "test":
		return []string{"["}
	}
	return nil
}

// OptionTables returns the option table of every in-process command that
// has one, by every name it answers to.
func OptionTables() map[string]OptionTable {
	specs := optionSpecs()
	out := make(map[string]OptionTable, len(specs)+6)
	for _, c := range table() {
		cmd, implied := SameCommand(c.Name)
		if spec, ok := specs[cmd]; ok {
			out[c.Name] = OptionTable{Command: cmd, Implied: implied, spec: spec}
		}
	}
	return out
}

// LookupOptions is the option table of one command name.
func LookupOptions(name string) (OptionTable, bool) {
	cmd, implied := SameCommand(name)
	spec, ok := optionSpecs()[cmd]
	if !ok {
		return OptionTable{}, false
	}
	return OptionTable{Command: cmd, Implied: implied, spec: spec}, true
}

// Resolve maps an option name as a policy writes it — a long name
// without dashes, or a single letter — to the name Present reports for
// it. It does not take abbreviations: a policy names options in full.
func (t OptionTable) Resolve(name string) (string, bool) {
	g := t.spec
	canon := ""
	for _, spec := range g.Long {
		if strings.TrimRight(spec, "=?") == name {
			canon = name
			if a, ok := g.LongAlias[name]; ok {
				canon = a
			}
			break
		}
	}
	if canon == "" && len(name) == 1 && name != ":" && name != "+" && strings.Contains(g.Short, name) {
		canon = name
	}
	if canon == "" {
		return "", false
	}
	if s, ok := g.Same[canon]; ok {
		canon = s
	}
	return canon, true
}

// Present lists the options argv (without the command name) sets, as the
// command's own parser reads it, by the names Resolve gives. Nothing
// after "--" or (for a command that stops there) the first operand
// counts. err is the parser's: the command would refuse argv.
func (t OptionTable) Present(args []string) ([]string, error) {
	if len(t.Implied) > 0 {
		args = append(slices.Clone(t.Implied), args...)
	}
	opts, _, err := t.spec.Parse(args)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(opts))
	for _, o := range opts {
		if o.Name == "#" { // head -5: a number, not a name
			continue
		}
		name := o.Name
		if s, ok := t.spec.Same[name]; ok {
			name = s
		}
		out = append(out, name)
	}
	return out, nil
}

// Names lists the options of the table by the names a policy may use:
// long names, and letters that have no long name.
func (t OptionTable) Names() []string {
	var out []string
	long := map[string]bool{}
	for _, spec := range t.spec.Long {
		n := strings.TrimRight(spec, "=?")
		out = append(out, n)
		if a, ok := t.spec.LongAlias[n]; ok {
			long[a] = true
		}
	}
	for _, c := range strings.Trim(t.spec.Short, "+") {
		if c != ':' && !long[string(c)] {
			out = append(out, string(c))
		}
	}
	return out
}
