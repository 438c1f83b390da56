package builtins

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

const timeUsage = `Usage: time [-apqvV] [-f FORMAT] [-o FILE] [--append] [--verbose]
       [--portability] [--format=FORMAT] [--output=FILE] [--version]
       [--quiet] [--help] COMMAND [ARG...]
Run COMMAND, then print its resource usage like GNU time.
`

// timeDefaultFormat is GNU time's default report.
const timeDefaultFormat = "%Uuser %Ssystem %Eelapsed %PCPU (%Xavgtext+%Davgdata %Mmaxresident)k\n" +
	"%Iinputs+%Ooutputs (%Fmajor+%Rminor)pagefaults %Wswaps"

var timeGetopt = Getopt{Short: "+af:o:pqvV", Long: []string{"append", "format=", "output=", "portability", "quiet", "verbose", "version", "help"},
	LongAlias: map[string]string{"append": "a", "format": "f", "output": "o", "portability": "p", "quiet": "q", "verbose": "v", "version": "V"}}

// runTime is GNU /usr/bin/time. In-process commands have no separate CPU
// accounting, so user and system times are reported as zero.
func runTime(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, ops, err := timeGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 125)
	}
	if shellHelp(env, opts, timeUsage) {
		return 0
	}
	format, output, appendOut, quiet, verbose := timeDefaultFormat, "", false, false, false
	for _, o := range opts {
		switch o.Name {
		case "a":
			appendOut = true
		case "f":
			format = o.Value
		case "o":
			output = o.Value
		case "p":
			format = "real %e\nuser %U\nsys %S"
		case "q":
			quiet = true
		case "v":
			verbose = true
		case "V":
			return shellPrintln(env, name, "time (GNU Time) 1.9")
		}
	}
	if len(ops) == 0 {
		fmt.Fprintf(env.Stderr, "%s: missing program to run\nTry '%s --help' for more information.\n", name, name)
		return 125
	}
	now := env.System().Now
	start := now()
	st, found := shellExec(ctx, env, env, "time", ops)
	elapsed := now().Sub(start)
	if !found {
		env.Errorf(name, "cannot run %s: No such file or directory", ops[0])
	}
	var report strings.Builder
	if st != 0 && !quiet {
		fmt.Fprintf(&report, "Command exited with non-zero status %d\n", st)
	}
	if verbose {
		format = timeVerboseFormat
	}
	report.WriteString(timeExpand(format, strings.Join(ops, " "), elapsed, st))
	report.WriteByte('\n')
	w := env.Stderr
	if output != "" {
		f, err := timeOpenOutput(env, output, appendOut)
		if err != nil {
			env.Errorf(name, "cannot open %s: %s", output, ErrText(err))
			return 125
		}
		defer f.Close()
		w = f
	}
	io.WriteString(w, report.String())
	return st
}

func timeOpenOutput(env *Env, name string, appendOut bool) (io.WriteCloser, error) {
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appendOut {
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	return env.FS.OpenFile(env.Abs(name), flag, 0o644)
}

// timeVerboseFormat is what -v prints, one resource per line.
const timeVerboseFormat = "\tCommand being timed: \"%C\"\n\tUser time (seconds): %U\n\tSystem time (seconds): %S\n" +
	"\tPercent of CPU this job got: %P\n\tElapsed (wall clock) time (h:mm:ss or m:ss): %E\n" +
	"\tAverage shared text size (kbytes): %X\n\tAverage unshared data size (kbytes): %D\n" +
	"\tAverage stack size (kbytes): %p\n\tAverage total size (kbytes): %K\n" +
	"\tMaximum resident set size (kbytes): %M\n\tAverage resident set size (kbytes): %t\n" +
	"\tMajor (requiring I/O) page faults: %F\n\tMinor (reclaiming a frame) page faults: %R\n" +
	"\tVoluntary context switches: %w\n\tInvoluntary context switches: %c\n\tSwaps: %W\n" +
	"\tFile system inputs: %I\n\tFile system outputs: %O\n\tSocket messages sent: %s\n" +
	"\tSocket messages received: %r\n\tSignals delivered: %k\n\tPage size (bytes): %Z\n\tExit status: %x"

// timeExpand fills in a GNU time format.
func timeExpand(format, command string, elapsed time.Duration, status int) string {
	var b strings.Builder
	secs := elapsed.Seconds()
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c == '\\' && i+1 < len(format) {
			i++
			switch format[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '\\':
				b.WriteByte('\\')
			default:
				b.WriteString("?\\" + string(format[i]))
			}
			continue
		}
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case '%':
			b.WriteByte('%')
		case 'C':
			b.WriteString(command)
		case 'e':
			fmt.Fprintf(&b, "%.2f", secs)
		case 'E':
			cs := int64(secs * 100)
			h, m, s := cs/360000, cs/6000%60, cs/100%60
			if h > 0 {
				fmt.Fprintf(&b, "%d:%02d:%02d", h, m, s)
			} else {
				fmt.Fprintf(&b, "%d:%02d.%02d", m, s, cs%100)
			}
		case 'U', 'S':
			b.WriteString("0.00")
		case 'P':
			b.WriteString("0%")
		case 'x':
			fmt.Fprint(&b, status)
		case 'Z':
			b.WriteString("4096")
		case 'X', 'D', 'M', 'I', 'O', 'F', 'R', 'W', 'p', 'K', 't', 'w', 'c', 's', 'r', 'k':
			b.WriteByte('0')
		default:
			b.WriteString("?" + string(format[i]))
		}
	}
	return b.String()
}
