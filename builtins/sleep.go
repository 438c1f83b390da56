package builtins

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/sandsh/sandsh/builtins/internal/cfloat"
)

const sleepUsage = `Usage: sleep NUMBER[SUFFIX]...
  or:  sleep OPTION
Pause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),
'm' for minutes, 'h' for hours or 'd' for days.  NUMBER need not be an
integer.  Given two or more arguments, pause for the amount of time
specified by the sum of their values.
`

var sleepGetopt = Getopt{}

// runSleep waits for the summed durations or until ctx is cancelled.
func runSleep(ctx context.Context, env *Env, args []string) int {
	_, ops, err := sleepGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(args[0], err, 1)
	}
	if len(ops) == 0 {
		return env.UsageError(args[0], errors.New("missing operand"), 1)
	}
	total := 0.0
	for _, op := range ops {
		secs, ok := shellParseDuration(op)
		if !ok {
			env.Errorf(args[0], "invalid time interval %s", shellQuoteGNU(op))
			fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", args[0])
			return 1
		}
		total += secs
	}
	if err := shellSleep(ctx, total); err != nil {
		return 130
	}
	return 0
}

// shellParseDuration parses NUMBER[smhd] like GNU sleep and timeout: a C
// floating-point number (decimals, exponents, hex, inf) and one optional
// unit suffix. It returns seconds.
func shellParseDuration(s string) (float64, bool) {
	v, n, _ := cfloat.Parse(s)
	if n == 0 || v.NaN() {
		return 0, false
	}
	mult := 1.0
	switch s[n:] {
	case "", "s":
	case "m":
		mult = 60
	case "h":
		mult = 3600
	case "d":
		mult = 86400
	default:
		return 0, false
	}
	f, _ := v.F.Float64()
	if f < 0 || v.F.Signbit() && f != 0 {
		return 0, false
	}
	return f * mult, true
}

// shellDuration converts seconds to a Duration, saturating for huge or
// infinite values.
func shellDuration(secs float64) time.Duration {
	if secs >= float64(math.MaxInt64)/1e9 {
		return math.MaxInt64
	}
	return time.Duration(math.Ceil(secs * 1e9))
}

// shellSleep waits secs seconds; it returns ctx's error if cancelled.
func shellSleep(ctx context.Context, secs float64) error {
	d := shellDuration(secs)
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
