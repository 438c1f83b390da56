package suite

import "testing"

// recorder is a testing.TB that records how a test ended.
type recorder struct {
	testing.TB
	skipped, failed bool
}

func (r *recorder) Helper()                           {}
func (r *recorder) Skipf(format string, args ...any)  { r.skipped = true }
func (r *recorder) Fatalf(format string, args ...any) { r.failed = true }
func (r *recorder) Errorf(format string, args ...any) { r.failed = true }
func (r *recorder) Logf(format string, args ...any)   {}

func TestSkip(t *testing.T) {
	for _, c := range []struct {
		ci, need   string
		skip, fail bool
	}{
		{"", "bwrap", true, false},
		{"true", "bwrap", false, true},
		{"true", "linux", true, false},
		{"false", "landlock", true, false},
	} {
		t.Setenv("CI", c.ci)
		r := &recorder{TB: t}
		Skip(r, c.need, "for %s", "a test")
		if r.skipped != c.skip || r.failed != c.fail {
			t.Errorf("CI=%q need %s: skipped %v failed %v, want %v %v", c.ci, c.need, r.skipped, r.failed, c.skip, c.fail)
		}
		m := &recorder{TB: t}
		Missing(m, c.need, "part")
		if m.failed != c.fail {
			t.Errorf("Missing, CI=%q need %s: failed %v, want %v", c.ci, c.need, m.failed, c.fail)
		}
	}
	for need, why := range Allowed {
		if len(why) < 40 {
			t.Errorf("Allowed[%q] needs its reason, not %q", need, why)
		}
	}
}
