package builtins

import (
	"strings"
	"testing"
)

func TestDataDiffPatch(t *testing.T) {
	t.Parallel()
	nine := "1\n2\n3\n4\n5\n6\n7\n8\n9\n"
	p1 := "diff -ru a/f b/f\n--- a/f\t2024-01-02 03:04:05.000000000 +0000\n+++ b/f\t2024-01-02 03:04:05.000000000 +0000\n" +
		"@@ -1,7 +1,7 @@\n 1\n 2\n 3\n-4\n+4x\n 5\n 6\n 7\n"
	two := "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n-1\n+one\n 2\n 3\n@@ -7,3 +7,4 @@\n 7\n 8\n-9\n+nine\n+ten\n"
	create := "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+new\n+file\n"
	createEpoch := "diff -ruN a/n c/n\n--- a/n\t1970-01-01 00:00:00.000000000 +0000\n+++ c/n\t2024-01-02 03:04:05.000000000 +0000\n@@ -0,0 +1,2 @@\n+new\n+file\n"
	del := "--- a/g\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n"
	noeol := "--- a/h\n+++ b/h\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
	addeol := "--- a/h\n+++ b/h\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"
	multi := p1 + create + del
	cases := []dataFSCase{
		{Name: "p1", Files: map[string]string{"f": nine, "p.diff": p1}, Args: []string{"patch", "-p1", "-i", "p.diff"}},
		{Name: "stdin", Files: map[string]string{"f": nine}, Stdin: p1, Args: []string{"patch", "-p1"}},
		{Name: "no -p basename", Files: map[string]string{"f": nine}, Stdin: p1, Args: []string{"patch"}},
		{Name: "p0 missing", Files: map[string]string{"f": nine}, Stdin: p1, Args: []string{"patch", "-p0"}},
		{Name: "p0 in dir", Files: map[string]string{"a/f": nine, "b/": ""}, Stdin: p1, Args: []string{"patch", "-p0"}},
		{Name: "offset", Files: map[string]string{"f": "0\n0\n" + nine}, Stdin: p1, Args: []string{"patch", "-p1"}},
		{Name: "offset one", Files: map[string]string{"f": "0\n" + nine}, Stdin: p1, Args: []string{"patch", "-p1"}},
		{Name: "negative offset", Files: map[string]string{"f": nine[2:]}, Stdin: "--- a/f\n+++ b/f\n@@ -3,3 +3,3 @@\n 3\n-4\n+4x\n 5\n", Args: []string{"patch", "-p1"}},
		{Name: "fail", Files: map[string]string{"f": strings.Replace(nine, "4", "X", 1)}, Stdin: p1, Args: []string{"patch", "-p1"}, Ignore: []string{"*.rej"}},
		{Name: "two hunks", Files: map[string]string{"f": nine}, Stdin: two, Args: []string{"patch", "-p1"}},
		{Name: "two hunks one fails", Files: map[string]string{"f": strings.Replace(nine, "8", "Y", 1)}, Stdin: two, Args: []string{"patch", "-p1"}, Ignore: []string{"*.rej"}},
		{Name: "reverse", Files: map[string]string{"f": strings.Replace(nine, "4", "4x", 1)}, Stdin: p1, Args: []string{"patch", "-R", "-p1"}},
		{Name: "already applied", Files: map[string]string{"f": strings.Replace(nine, "4", "4x", 1)}, Stdin: p1, Args: []string{"patch", "-p1"}, Ignore: []string{"*.rej"}},
		{Name: "already applied -N", Files: map[string]string{"f": strings.Replace(nine, "4", "4x", 1)}, Stdin: p1, Args: []string{"patch", "-N", "-p1"}, Ignore: []string{"*.rej"}},
		{Name: "already applied -t", Files: map[string]string{"f": strings.Replace(nine, "4", "4x", 1)}, Stdin: p1, Args: []string{"patch", "-t", "-p1"}},
		{Name: "dry run", Files: map[string]string{"f": nine}, Stdin: p1, Args: []string{"patch", "--dry-run", "-p1"}},
		{Name: "dry run fail", Files: map[string]string{"f": "x\n"}, Stdin: p1, Args: []string{"patch", "--dry-run", "-p1"}},
		{Name: "output", Files: map[string]string{"f": nine}, Stdin: p1, Args: []string{"patch", "-p1", "-o", "out.txt"}},
		{Name: "dir", Files: map[string]string{"sub/f": nine}, Stdin: p1, Args: []string{"patch", "-d", "sub", "-p1"}},
		{Name: "bad dir", Files: map[string]string{"f": nine}, Stdin: p1, Args: []string{"patch", "-d", "nope", "-p1"}},
		{Name: "silent", Files: map[string]string{"f": nine}, Stdin: p1, Args: []string{"patch", "-s", "-p1"}},
		{Name: "backup", Files: map[string]string{"f": nine}, Stdin: p1, Args: []string{"patch", "-b", "-p1"}},
		{Name: "create", Files: map[string]string{}, Stdin: create, Args: []string{"patch", "-p1"}},
		{Name: "create epoch", Files: map[string]string{}, Stdin: createEpoch, Args: []string{"patch", "-p1"}},
		{Name: "delete", Files: map[string]string{"g": "gone\n"}, Stdin: del, Args: []string{"patch", "-p1"}},
		{Name: "delete missing", Files: map[string]string{}, Stdin: del, Args: []string{"patch", "-p1"}},
		{Name: "multi", Files: map[string]string{"f": nine, "g": "gone\n"}, Stdin: multi, Args: []string{"patch", "-p1"}},
		{Name: "noeol", Files: map[string]string{"h": "a\nb"}, Stdin: noeol, Args: []string{"patch", "-p1"}},
		{Name: "add eol", Files: map[string]string{"h": "a\nb"}, Stdin: addeol, Args: []string{"patch", "-p1"}},
		{Name: "garbage", Files: map[string]string{"f": nine}, Stdin: "hello\nworld\n", Args: []string{"patch", "-p1"}},
		{Name: "explicit file", Files: map[string]string{"other": nine}, Stdin: p1, Args: []string{"patch", "other"}},
		{Name: "missing input", Files: map[string]string{"f": nine}, Args: []string{"patch", "-i", "nope.diff"}},
	}
	runDataFSDiff(t, cases)
}

func TestDataDiffPatchDirInput(t *testing.T) {
	t.Parallel()
	p1 := "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n"
	runDataFSDiff(t, []dataFSCase{
		{Name: "input relative to -d", Files: map[string]string{"sub/f": "1\n2\n3\n", "sub/p.diff": p1}, Args: []string{"patch", "-d", "sub", "-p1", "-i", "p.diff"}},
	})
}
