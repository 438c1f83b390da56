package builtins

import (
	"context"
	"strings"
)

const unameUsage = `Usage: uname [OPTION]...
Print certain system information.  With no OPTION, same as -s.

  -a, --all                print all information, in the following order,
                             except omit -p and -i if unknown:
  -s, --kernel-name        print the kernel name
  -n, --nodename           print the network node hostname
  -r, --kernel-release     print the kernel release
  -v, --kernel-version     print the kernel version
  -m, --machine            print the machine hardware name
  -p, --processor          print the processor type (non-portable)
  -i, --hardware-platform  print the hardware platform (non-portable)
  -o, --operating-system   print the operating system
`

// The virtual kernel sandsh reports.
const (
	shellKernelName    = "Linux"
	shellKernelRelease = "6.1.0-sandsh"
	shellKernelVersion = "#1 SMP PREEMPT_DYNAMIC sandsh"
	shellOS            = "GNU/Linux"
)

var unameGetopt = Getopt{Short: "asnrvmpio",
	Long: []string{"all", "kernel-name", "nodename", "kernel-release", "kernel-version", "machine",
		"processor", "hardware-platform", "operating-system", "sysname", "release"},
	LongAlias: map[string]string{"all": "a", "kernel-name": "s", "sysname": "s", "nodename": "n",
		"kernel-release": "r", "release": "r", "kernel-version": "v", "machine": "m", "processor": "p",
		"hardware-platform": "i", "operating-system": "o"}}

func runUname(ctx context.Context, env *Env, args []string) int {
	opts, ops, err := unameGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(args[0], err, 1)
	}
	if len(ops) > 0 {
		return shellExtraOperand(env, args[0], ops[0], 1)
	}
	want := map[string]bool{}
	all := false
	for _, o := range opts {
		if o.Name == "a" {
			all = true
		}
		want[o.Name] = true
	}
	if len(opts) == 0 {
		want["s"] = true
	}
	fields := []struct {
		flag, value string
		unknown     bool
	}{
		{"s", shellKernelName, false}, {"n", env.System().Hostname, false}, {"r", shellKernelRelease, false},
		{"v", shellKernelVersion, false}, {"m", shellMachine, false}, {"p", "unknown", true},
		{"i", "unknown", true}, {"o", shellOS, false},
	}
	var out []string
	for _, f := range fields {
		if want[f.flag] || all && !f.unknown {
			out = append(out, f.value)
		}
	}
	return shellPrintln(env, args[0], strings.Join(out, " "))
}
