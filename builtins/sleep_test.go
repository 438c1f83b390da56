package builtins

import (
	"context"
	"testing"
	"time"
)

func TestSleepCommand(t *testing.T) {
	shellRunCases(t, []shellCase{
		{args: []string{"sleep", "0"}},
		{args: []string{"sleep", "0.001", "0.001s", "0m", "0h", "0d"}},
		{args: []string{"sleep"}, status: 1, errHas: "missing operand"},
		{args: []string{"sleep", "1y"}, status: 1, errHas: "invalid time interval '1y'"},
		{args: []string{"sleep", "nan"}, status: 1, errHas: "invalid time interval"},
	})
	start := time.Now()
	if r := run(t, testEnv(t, nil), "", "sleep", "0.03", "0.02"); r.Status != 0 || time.Since(start) < 50*time.Millisecond {
		t.Fatalf("sleep 0.03 0.02: status %d after %v", r.Status, time.Since(start))
	}
}

func TestSleepCancel(t *testing.T) {
	for _, d := range []string{"inf", "1d", "100"} {
		env := testEnv(t, nil)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		st := runOrHang(t, "sleep "+d+" cancelled", func() int { return env.Run(ctx, []string{"sleep", d}) })
		cancel()
		if st != 130 {
			t.Fatalf("sleep %s cancelled: status %d, want 130", d, st)
		}
	}
}

func TestShellParseDuration(t *testing.T) {
	for in, want := range map[string]float64{"1": 1, "1.5": 1.5, "2m": 120, "1h": 3600, "0.5d": 43200, ".5": .5, "1e1": 10, "0x10": 16} {
		got, ok := shellParseDuration(in)
		if !ok || got != want {
			t.Errorf("shellParseDuration(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "x", "1x", "-1", "1ss", "s"} {
		if _, ok := shellParseDuration(in); ok {
			t.Errorf("shellParseDuration(%q) accepted", in)
		}
	}
}
