package builtins

import (
	"fmt"
	"strings"
)

// Getopt parses command-line flags the way GNU getopt_long does: combined
// short flags (-rn), attached values (-n1, -k2,2n, -t:), long flags with
// unique-prefix matching (--num=3, --num 3), "--" to end options, and
// options mixed with operands unless StopAtOperand is set.
type Getopt struct {
	// Short lists the short flags; a ':' after a letter means it takes a
	// value, "::" an optional attached value. A leading '+' means
	// StopAtOperand.
	Short string
	// Long lists the long flags. "name" takes no value, "name=" requires
	// one, "name?" takes an optional "=value". "name=x" style aliasing is
	// done with LongAlias.
	Long []string
	// LongAlias maps a long name to the short flag it is the same as,
	// e.g. {"lines": "n"}. Parsed options then carry the short name.
	LongAlias map[string]string
	// StopAtOperand ends option parsing at the first operand.
	StopAtOperand bool
	// NumericShort lets "-5" mean option "5" with the digits as value
	// (head -5, tail -20, xargs not included).
	NumericShort bool
	// Prepare, when set, rewrites the arguments before they are parsed:
	// a historical form the command accepts (tar's "tar czf a.tgz") that
	// a policy's options: rule must read exactly as the command does.
	Prepare func(args []string) []string
	// Same names options the command treats alike (rm's -R is -r, sed's
	// -r is -E, curl's --data-binary sends data like -d), so that a
	// policy rule naming one covers the others. Parse does not apply it.
	Same map[string]string
}

// Opt is one parsed option. Name is the short letter or the long name
// (after LongAlias), Value its argument, if any.
type Opt struct {
	Name     string
	Value    string
	HasValue bool
}

// Parse splits args (without the command name) into options and operands.
func (g Getopt) Parse(args []string) ([]Opt, []string, error) {
	if g.Prepare != nil {
		args = g.Prepare(args)
	}
	short := g.Short
	stop := g.StopAtOperand
	if strings.HasPrefix(short, "+") {
		short, stop = short[1:], true
	}
	var opts []Opt
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return opts, append(operands, args[i+1:]...), nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			spec, err := g.matchLong(name)
			if err != nil {
				return nil, nil, err
			}
			full := strings.TrimRight(spec, "=?")
			kind := spec[len(full):]
			o := Opt{Name: full}
			if alias, ok := g.LongAlias[full]; ok {
				o.Name = alias
			}
			switch kind {
			case "":
				if hasVal {
					return nil, nil, fmt.Errorf("option '--%s' doesn't allow an argument", full)
				}
			case "=":
				if !hasVal {
					if i+1 >= len(args) {
						return nil, nil, fmt.Errorf("option '--%s' requires an argument", full)
					}
					i++
					val = args[i]
				}
				o.Value, o.HasValue = val, true
			case "?":
				o.Value, o.HasValue = val, hasVal
			}
			opts = append(opts, o)
		case len(a) > 1 && a[0] == '-':
			if g.NumericShort && a[1] >= '0' && a[1] <= '9' {
				opts = append(opts, Opt{Name: "#", Value: a[1:], HasValue: true})
				continue
			}
			for j := 1; j < len(a); j++ {
				c := a[j]
				k := strings.IndexByte(short, c)
				if k < 0 || c == ':' {
					return nil, nil, fmt.Errorf("invalid option -- '%c'", c)
				}
				switch {
				case k+2 < len(short) && short[k+1] == ':' && short[k+2] == ':':
					o := Opt{Name: string(c)}
					if j+1 < len(a) {
						o.Value, o.HasValue = a[j+1:], true
					}
					opts = append(opts, o)
					j = len(a)
				case k+1 < len(short) && short[k+1] == ':':
					var val string
					if j+1 < len(a) {
						val = a[j+1:]
					} else if i+1 < len(args) {
						i++
						val = args[i]
					} else {
						return nil, nil, fmt.Errorf("option requires an argument -- '%c'", c)
					}
					opts = append(opts, Opt{Name: string(c), Value: val, HasValue: true})
					j = len(a)
				default:
					opts = append(opts, Opt{Name: string(c)})
				}
			}
		default:
			if stop {
				return opts, append(operands, args[i:]...), nil
			}
			operands = append(operands, a)
		}
	}
	return opts, operands, nil
}

func (g Getopt) matchLong(name string) (string, error) {
	var found []string
	for _, spec := range g.Long {
		full := strings.TrimRight(spec, "=?")
		if full == name {
			return spec, nil
		}
		if strings.HasPrefix(full, name) {
			found = append(found, spec)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("unrecognized option '--%s'", name)
	}
	return "", fmt.Errorf("option '--%s' is ambiguous", name)
}
