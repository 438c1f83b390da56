package builtins

import (
	"context"
	"strings"
)

const hostnameUsage = `Usage: hostname [-s|-f|-d|-i]
Show the system's host name.

  -s, --short            short host name
  -f, --fqdn, --long     long host name (FQDN)
  -d, --domain           DNS domain name
  -i, --ip-address       addresses for the host name
`

var hostnameGetopt = Getopt{Short: "sfdiIaA", Long: []string{"short", "fqdn", "long", "domain", "ip-address", "all-ip-addresses"},
	LongAlias: map[string]string{"short": "s", "fqdn": "f", "long": "f", "domain": "d", "ip-address": "i", "all-ip-addresses": "I"}}

// runHostname shows the virtual host name; the sandbox cannot rename it.
func runHostname(ctx context.Context, env *Env, args []string) int {
	opts, ops, err := hostnameGetopt.Parse(args[1:])
	if err != nil {
		env.Errorf(args[0], "%v", err)
		return 1
	}
	if len(ops) > 0 {
		env.Errorf(args[0], "you must be root to change the host name")
		return 1
	}
	name := env.System().Hostname
	out := name
	for _, o := range opts {
		switch o.Name {
		case "s":
			out, _, _ = strings.Cut(name, ".")
		case "f", "a", "A":
			out = name
		case "d":
			_, out, _ = strings.Cut(name, ".")
		case "i", "I":
			out = "127.0.1.1"
		}
	}
	return shellPrintln(env, args[0], out)
}
