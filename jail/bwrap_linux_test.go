package jail

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sandsh/sandsh/internal/suite"
	"github.com/sandsh/sandsh/restrict"
	"github.com/sandsh/sandsh/vfs"
)

// fakeBwrap writes a program that prints out and exits with status.
func fakeBwrap(t *testing.T, out string, status int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "bwrap")
	script := "#!/bin/sh\nprintf '%s\\n' '" + out + "'\nexit " + string(rune('0'+status)) + "\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBwrapVersion: a bubblewrap older than 0.12.0, one that does not
// say its version, or one that fails is refused with the reason.
func TestBwrapVersion(t *testing.T) {
	for _, tc := range []struct {
		out    string
		status int
		want   string // "" accepted, else in the error
	}{
		{"bubblewrap 0.8.0", 0, "is bubblewrap 0.8.0, older than 0.12.0, the oldest the bwrap backend accepts"},
		{"bubblewrap 0.11.9", 0, "older than 0.12.0"},
		{"bubblewrap 0.12.0", 0, ""},
		{"bubblewrap 0.12.1-rc1", 0, ""},
		{"bubblewrap 1.0", 0, ""},
		{"bwrap from somewhere", 0, "not a bubblewrap version"},
		{"bubblewrap 0.x.1", 0, "not a bubblewrap version"},
		{"bubblewrap 0.12.0", 1, "status 1"},
	} {
		c := &Config{bwrapAt: fakeBwrap(t, tc.out, tc.status)}
		info := c.bwrap()
		switch {
		case tc.want == "" && info.err != nil:
			t.Errorf("%q: refused: %v", tc.out, info.err)
		case tc.want != "" && (info.err == nil || !strings.Contains(info.err.Error(), tc.want)):
			t.Errorf("%q: %v, want an error with %q", tc.out, info.err, tc.want)
		}
	}
	if info := (&Config{}).bwrap(); info.path == "" && !strings.Contains(info.err.Error(), "not installed") {
		t.Errorf("no bwrap: %v", info.err)
	}
}

// TestRunRefusesOldBwrap: Run with the bwrap backend and an old
// bubblewrap runs nothing and says why.
func TestRunRefusesOldBwrap(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		suite.Skip(t, "python3", "/usr/bin/python3 is the program the jail would run")
	}
	c := &Config{Backend: BackendBwrap, bwrapAt: fakeBwrap(t, "bubblewrap 0.8.0", 0), Allowed: func([]string) bool { return true }}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	req := &restrict.JailRequest{Name: "python3", Argv: []string{"python3", "-c", "pass"}, Dir: "/workspace", Work: "/workspace",
		Tree: &vfs.Snapshot{Entries: []vfs.SnapEntry{{Path: "/", Type: "dir", Mode: 0o755}}}}
	res, err := c.Run(context.Background(), req, null, null, null)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Refused, "bwrap: "+c.bwrapAt+" is bubblewrap 0.8.0, older than 0.12.0") {
		t.Errorf("refused %q", res.Refused)
	}
}
