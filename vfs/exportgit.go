package vfs

import (
	"bytes"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/sandsh/sandsh/internal/termsafe"
)

// An export is read by host tools, and git runs commands that a
// repository's own files name: `core.fsmonitor`, `core.pager`, aliases
// and `core.hooksPath` in its config, the hooks, and the filter drivers
// `.gitattributes` selects (issue 23.3). A script in the sandbox wrote
// all of them, so by default an export leaves them out:
//
//   - in every git directory — a directory named `.git`, or one holding
//     two of `HEAD`, `objects`, `refs` and `commondir`, which git takes
//     for a repository (a bare one, a submodule's under `.git/modules`,
//     the target of a `gitdir:` file or of `commondir`) — its `config`,
//     `config.worktree` and `hooks` (with everything below), and its
//     `info/attributes` when it names a filter;
//   - every `.gitattributes` that names a filter (`filter=NAME`): the
//     driver is a command from the host's own git configuration (git
//     lfs's, say), run on files the script wrote.
//
// `.gitmodules` is kept: git runs the `update = !command` of a submodule
// only from `.git/config` (since 2.24.1; CVE-2019-19604), which is held
// back, and refuses the `ext::` transport unless configured.

// gitMarkers are the names git looks for in a repository directory.
var gitMarkers = []string{"HEAD", "objects", "refs", "commondir"}

// HoldBackGit returns s without what would make git on the host run
// commands from the export, and the paths it left out, relative to the
// export's root, a directory left out whole as "dir/" once. A hard link
// to a file left out is kept as a copy of its data.
func HoldBackGit(s *Snapshot) (*Snapshot, []string) {
	if s == nil || len(s.Entries) == 0 {
		return s, nil
	}
	children := map[string]map[string]bool{}
	byPath := map[string]*SnapEntry{}
	for i := range s.Entries {
		e := &s.Entries[i]
		byPath[e.Path] = e
		dir, name := path.Split(e.Path)
		dir = path.Clean(dir)
		if children[dir] == nil {
			children[dir] = map[string]bool{}
		}
		children[dir][name] = true
	}
	gitDirs := map[string]bool{}
	for _, e := range s.Entries {
		if e.Type != "dir" {
			continue
		}
		n := 0
		for _, m := range gitMarkers {
			if children[e.Path][m] {
				n++
			}
		}
		if path.Base(e.Path) == ".git" || n >= 2 {
			gitDirs[e.Path] = true
		}
	}
	held := map[string]bool{}       // every path left out
	var tops []string               // what the message names
	heldDirs := map[string]string{} // a directory left out whole: its top
	dataOf := func(e *SnapEntry) []byte {
		if e.Type == "link" {
			if t := byPath[e.Target]; t != nil {
				return t.Data
			}
		}
		return e.Data
	}
	for i := 1; i < len(s.Entries); i++ {
		e := &s.Entries[i]
		dir, name := path.Split(e.Path)
		dir = path.Clean(dir)
		if top, ok := heldDirs[dir]; ok {
			held[e.Path] = true
			if e.Type == "dir" {
				heldDirs[e.Path] = top
			}
			continue
		}
		hold := false
		switch {
		case gitDirs[dir] && (name == "config" || name == "config.worktree" || name == "hooks"):
			hold = true
		case name == "attributes" && path.Base(dir) == "info" && gitDirs[path.Dir(dir)],
			name == ".gitattributes":
			hold = e.Type == "symlink" || namesFilter(dataOf(e))
		}
		if !hold {
			continue
		}
		held[e.Path] = true
		if e.Type == "dir" {
			heldDirs[e.Path] = e.Path
			tops = append(tops, e.Path+"/")
		} else {
			tops = append(tops, e.Path)
		}
	}
	if len(held) == 0 {
		return s, nil
	}
	out := &Snapshot{Entries: make([]SnapEntry, 0, len(s.Entries)-len(held))}
	moved := map[string]string{} // a held file -> the kept link now holding its data
	for _, e := range s.Entries {
		if held[e.Path] {
			continue
		}
		if e.Type == "link" && held[e.Target] {
			if to, ok := moved[e.Target]; ok {
				e.Target = to
			} else if t := byPath[e.Target]; t != nil {
				moved[e.Target] = e.Path
				e.Type, e.Data, e.Target, e.Mode = "file", t.Data, "", t.Mode
			}
		}
		out.Entries = append(out.Entries, e)
	}
	root := s.Entries[0].Path
	for i, p := range tops {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		tops[i] = rel
	}
	sort.Strings(tops)
	return out, tops
}

// namesFilter reports whether gitattributes text sets a filter driver
// (`filter=NAME`, also inside a macro).
func namesFilter(data []byte) bool {
	for _, line := range bytes.Split(data, []byte("\n")) {
		for _, f := range bytes.Fields(line) {
			if bytes.HasPrefix(f, []byte("filter=")) {
				return true
			}
		}
	}
	return false
}

// HeldBackLine is the one line that says what an export left out.
func HeldBackLine(flag, target string, held []string, unsafeFlag string) string {
	const show = 8
	list := held
	more := ""
	if len(list) > show {
		list, more = list[:show], fmt.Sprintf(" and %d more", len(held)-show)
	}
	return termsafe.String(fmt.Sprintf("sandsh: %s %s: held back what would make git on the host run commands (%s writes it): %s%s",
		flag, target, unsafeFlag, strings.Join(list, ", "), more))
}
