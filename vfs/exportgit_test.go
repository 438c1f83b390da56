package vfs

import (
	"reflect"
	"testing"
)

// TestHoldBackGit: what git would take for a repository is found under
// any name, and only what makes it run commands is left out.
func TestHoldBackGit(t *testing.T) {
	dir := func(p string) SnapEntry { return SnapEntry{Path: p, Type: "dir", Mode: 0o755} }
	file := func(p, data string) SnapEntry {
		return SnapEntry{Path: p, Type: "file", Mode: 0o644, Data: []byte(data)}
	}
	s := &Snapshot{Entries: []SnapEntry{
		dir("/"),
		dir("/.git"), file("/.git/HEAD", "ref"), file("/.git/config", "[core]"), dir("/.git/hooks"), file("/.git/hooks/pre-commit", "x"),
		dir("/.git/info"), file("/.git/info/attributes", "* filter=x"), file("/.git/info/exclude", "*.o"),
		dir("/.git/modules"), dir("/.git/modules/sub"), file("/.git/modules/sub/HEAD", "ref"), dir("/.git/modules/sub/objects"),
		file("/.git/modules/sub/config", "[core]"),
		// a bare repository, and a worktree's git directory with commondir
		dir("/bare"), file("/bare/HEAD", "ref"), dir("/bare/refs"), dir("/bare/objects"), file("/bare/config", "[core]"),
		dir("/wt"), file("/wt/HEAD", "ref"), file("/wt/commondir", "../bare"), file("/wt/config.worktree", "[core]"),
		// an ordinary directory with a config file
		dir("/app"), file("/app/config", "port=1"), dir("/app/refs"),
		file("/.gitattributes", "[attr]m filter=lfs\n*.bin m\n"),
		file("/docs.gitattributes", "x"),
		dir("/sub"), file("/sub/.gitattributes", "*.txt text eol=lf\n"),
		{Path: "/cfg-link", Type: "link", Target: "/.git/config"},
		{Path: "/cfg-link2", Type: "link", Target: "/.git/config"},
	}}
	out, held := HoldBackGit(s)
	want := []string{".git/config", ".git/hooks/", ".git/info/attributes", ".git/modules/sub/config", ".gitattributes", "bare/config", "wt/config.worktree"}
	if !reflect.DeepEqual(held, want) {
		t.Errorf("held back %q, want %q", held, want)
	}
	kept := map[string]SnapEntry{}
	for _, e := range out.Entries {
		kept[e.Path] = e
	}
	for _, p := range []string{"/.git/HEAD", "/.git/info/exclude", "/app/config", "/sub/.gitattributes", "/docs.gitattributes", "/wt/commondir"} {
		if _, ok := kept[p]; !ok {
			t.Errorf("%s was left out", p)
		}
	}
	for _, p := range []string{"/.git/hooks/pre-commit", "/.git/config"} {
		if _, ok := kept[p]; ok {
			t.Errorf("%s was kept", p)
		}
	}
	if e := kept["/cfg-link"]; e.Type != "file" || string(e.Data) != "[core]" {
		t.Errorf("a hard link to the config: %+v", e)
	}
	if e := kept["/cfg-link2"]; e.Type != "link" || e.Target != "/cfg-link" {
		t.Errorf("a second hard link: %+v", e)
	}
	if err := out.Check(SnapLimits{}); err != nil {
		t.Errorf("the filtered snapshot: %v", err)
	}
	if same, none := HoldBackGit(&Snapshot{Entries: []SnapEntry{dir("/"), file("/a", "x")}}); none != nil || len(same.Entries) != 2 {
		t.Errorf("nothing to hold back: %v", none)
	}
}
