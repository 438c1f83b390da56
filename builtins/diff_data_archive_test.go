package builtins

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/sandsh/sandsh/internal/suite"
)

func dataGzipBytes(t *testing.T, s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

func TestDataDiffGzip(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("hello gzip world\n", 200)
	gz := dataGzipBytes(t, text)
	files := map[string]string{"a.txt": text, "b.bin": "\x00\x01\x02binary", "a.gz": gz, "two.gz": gz + dataGzipBytes(t, "second\n"),
		"bad.gz": "not gzip at all\n", "trail.gz": gz + "junk", "d/x.txt": "x\n", "d/y.txt": "y\n", "noext": "q\n", "t.tgz": gz}
	ign := []string{"*.gz"}
	cases := []dataFSCase{
		{Args: []string{"gzip", "a.txt"}, Files: files, Ignore: ign},
		{Args: []string{"gzip", "-k", "a.txt", "b.bin"}, Files: files, Ignore: ign},
		{Args: []string{"gzip", "a.gz"}, Files: files, Ignore: ign},
		{Args: []string{"gzip", "nope", "a.txt"}, Files: files, Ignore: ign},
		{Args: []string{"gzip", "d"}, Files: files, Ignore: ign},
		{Args: []string{"gzip", "-r", "d"}, Files: files, Ignore: ign},
		{Args: []string{"gzip", "-d", "a.gz"}, Files: files},
		{Args: []string{"gunzip", "a.gz"}, Files: files},
		{Args: []string{"gunzip", "-k", "two.gz"}, Files: files},
		{Args: []string{"gunzip", "bad.gz"}, Files: files},
		{Args: []string{"gunzip", "trail.gz"}, Files: files},
		{Args: []string{"gunzip", "noext"}, Files: files},
		{Args: []string{"gunzip", "t.tgz"}, Files: files},
		{Args: []string{"gunzip", "-c", "a.gz"}, Files: files},
		{Args: []string{"zcat", "a.gz", "two.gz"}, Files: files},
		{Args: []string{"zcat", "bad.gz"}, Files: files},
		{Args: []string{"zcat", "trail.gz"}, Files: files},
		{Args: []string{"gzip", "-dc"}, Files: files, Stdin: gz},
		{Args: []string{"gzip", "-d"}, Files: files, Stdin: "garbage"},
		{Args: []string{"gzip", "-t", "a.gz"}, Files: files},
		{Args: []string{"gzip", "-t", "bad.gz"}, Files: files},
		{Args: []string{"gzip", "-l", "a.gz"}, Files: files},
		{Name: "exists", Files: map[string]string{"a.txt": "1\n", "a.txt.gz": gz}, Args: []string{"gzip", "a.txt"}},
		{Name: "exists -f", Files: map[string]string{"a.txt": "1\n", "a.txt.gz": gz}, Args: []string{"gzip", "-f", "a.txt"}, Ignore: ign},
		{Name: "gunzip exists", Files: map[string]string{"a": "1\n", "a.gz": gz}, Args: []string{"gunzip", "a.gz"}},
		{Name: "gunzip exists -f", Files: map[string]string{"a": "1\n", "a.gz": gz}, Args: []string{"gunzip", "-f", "a.gz"}},
		{Name: "roundtrip", Files: files, Script: [][]string{{"gzip", "-9", "a.txt", "b.bin"}, {"gunzip", "a.txt.gz", "b.bin.gz"}}},
		{Name: "roundtrip stdin", Files: files, Script: [][]string{{"gzip", "-c", "-1", "a.txt"}}, SkipStdout: "the compressed bytes depend on the deflate implementation (the round trip is compared by the cases above)"},
		{Name: "suffix", Files: files, Script: [][]string{{"gzip", "-S", ".z", "a.txt"}, {"gzip", "-d", "-S", ".z", "a.txt.z"}}},
	}
	runDataFSDiff(t, cases)
}

// TestDataGzipHostReadable checks that host gzip reads what we write.
func TestDataGzipHostReadable(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("gzip"); err != nil {
		suite.Skip(t, "gzip", "the host's gzip reads what sandsh wrote")
	}
	text := strings.Repeat("some text to compress\n", 1000) + "\x00\xff"
	for _, lvl := range []string{"-1", "-6", "-9"} {
		env := testEnv(t, map[string]string{"f": text})
		res := run(t, env, "", "gzip", lvl, "-c", "f")
		if res.Status != 0 {
			t.Fatalf("gzip %s: %v", lvl, res)
		}
		cmd := exec.Command("gzip", "-dc")
		cmd.Stdin = strings.NewReader(res.Stdout)
		out, err := cmd.Output()
		if err != nil || string(out) != text {
			t.Errorf("host gunzip of gzip %s: err %v, %d bytes", lvl, err, len(out))
		}
	}
}

func TestDataDiffTar(t *testing.T) {
	t.Parallel()
	files := map[string]string{"src/a.txt": "a\n", "src/sub/b.txt": "b\n", "src/sub/deep/c.txt": "c\n", "src/empty/": "", "top.txt": "top\n", "out/": ""}
	ign := []string{"*.tar", "*.tgz"}
	cases := []dataFSCase{
		{Name: "c then x", Files: files, Ignore: ign, Script: [][]string{{"tar", "cf", "x.tar", "src"}, {"tar", "xf", "x.tar", "-C", "src/empty"}}},
		{Name: "c then t", Files: files, Ignore: ign, Script: [][]string{{"tar", "-cf", "x.tar", "--sort=name", "src", "top.txt"}, {"tar", "-tf", "x.tar"}}},
		{Name: "cz then tz", Files: files, Ignore: ign, Script: [][]string{{"tar", "czf", "x.tgz", "--sort=name", "src"}, {"tar", "tzf", "x.tgz"}}},
		{Name: "cz then t autodetect", Files: files, Ignore: ign, Script: [][]string{{"tar", "-czf", "x.tgz", "--sort=name", "src"}, {"tar", "-tf", "x.tgz"}}},
		{Name: "cv", Files: files, Ignore: ign, Args: []string{"tar", "cvf", "x.tar", "--sort=name", "src"}},
		{Name: "strip", Files: files, Ignore: ign, Script: [][]string{{"tar", "cf", "x.tar", "src"}, {"tar", "xf", "x.tar", "-C", "out", "--strip-components=1"}}},
		{Name: "member", Files: files, Ignore: ign, Script: [][]string{{"tar", "cf", "x.tar", "src"}, {"tar", "xvf", "x.tar", "-C", "out", "src/sub/b.txt"}}},
		{Name: "member dir", Files: files, Ignore: ign, Script: [][]string{{"tar", "cf", "x.tar", "src"}, {"tar", "-x", "-f", "x.tar", "-C", "out", "src/sub"}}},
		{Name: "missing member", Files: files, Ignore: ign, Script: [][]string{{"tar", "cf", "x.tar", "src"}, {"tar", "xf", "x.tar", "-C", "out", "nothere"}}},
		{Name: "missing input", Files: files, Ignore: ign, Args: []string{"tar", "cf", "y.tar", "src/nope", "src/a.txt"}},
		{Name: "no archive", Files: files, Args: []string{"tar", "xf", "nope.tar"}},
		{Name: "no mode", Files: files, Args: []string{"tar", "f", "x.tar"}},
		{Name: "empty create", Files: files, Args: []string{"tar", "cf", "x.tar"}},
		{Name: "exclude", Files: files, Ignore: ign, Script: [][]string{{"tar", "cf", "x.tar", "--exclude=*.txt", "--sort=name", "src"}, {"tar", "tf", "x.tar"}}},
		{Name: "to stdout", Files: files, Ignore: ign, Script: [][]string{{"tar", "cf", "x.tar", "src"}, {"tar", "xOf", "x.tar", "src/sub/b.txt"}}},
		{Name: "stdin archive", Files: files, Ignore: ign, Script: [][]string{{"tar", "cf", "x.tar", "src"}, {"tar", "-xf", "x.tar", "-C", "out"}}},
		{Name: "not tar", Files: map[string]string{"x.tar": strings.Repeat("garbage!", 200)}, Args: []string{"tar", "tf", "x.tar"}},
	}
	runDataFSDiff(t, cases)
}

// TestDataTarHostReadable checks that host tar reads our archives and we
// read host archives, including the refused member names.
func TestDataTarHostReadable(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tar"); err != nil {
		suite.Skip(t, "tar", "the host's tar reads what sandsh wrote")
	}
	env := testEnv(t, map[string]string{"src/a.txt": "a\n", "src/sub/b.txt": "bb\n"})
	res := run(t, env, "", "tar", "czf", "-", "src")
	if res.Status != 0 {
		t.Fatalf("tar czf -: %+v", res)
	}
	cmd := exec.Command("tar", "tzf", "-")
	cmd.Stdin = strings.NewReader(res.Stdout)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Fields(string(out))
	want := []string{"src/", "src/a.txt", "src/sub/", "src/sub/b.txt"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("host lists %v, want %v", got, want)
	}
}

func TestDataDiffZip(t *testing.T) {
	t.Parallel()
	files := map[string]string{"src/a.txt": strings.Repeat("a", 35) + "\n", "src/sub/b.txt": "b\n", "src/e": "", "top.txt": "top\n", "out/": ""}
	ign := []string{"*.zip"}
	cases := []dataFSCase{
		{Name: "zip then unzip", Files: files, Ignore: ign, Script: [][]string{{"zip", "-qr", "x.zip", "src"}, {"unzip", "-q", "x.zip", "-d", "out"}}},
		{Name: "zip files", Files: files, Ignore: ign, Args: []string{"zip", "x.zip", "top.txt", "src/sub/b.txt"}},
		{Name: "zip missing", Files: files, Ignore: ign, Args: []string{"zip", "x.zip", "nope"}},
		{Name: "unzip -l count", Files: files, Ignore: ign, Script: [][]string{{"zip", "-q", "x.zip", "top.txt"}, {"unzip", "-l", "x.zip", "nothere"}}},
		{Name: "unzip msgs", Files: files, Ignore: ign, Script: [][]string{{"zip", "-q", "x.zip", "top.txt", "src/e"}, {"unzip", "x.zip", "-d", "out"}}},
		{Name: "unzip exists", Files: files, Ignore: ign, Script: [][]string{{"zip", "-q", "x.zip", "top.txt"}, {"unzip", "x.zip"}}},
		{Name: "unzip -o", Files: files, Ignore: ign, Script: [][]string{{"zip", "-q", "x.zip", "top.txt"}, {"unzip", "-o", "x.zip"}}},
		{Name: "unzip -p", Files: files, Ignore: ign, Script: [][]string{{"zip", "-q", "x.zip", "top.txt", "src/a.txt"}, {"unzip", "-p", "x.zip", "src/a.txt"}}},
		{Name: "unzip missing", Files: files, Args: []string{"unzip", "nope.zip"}},
		{Name: "zip -d", Files: files, Ignore: ign, Script: [][]string{{"zip", "-q", "x.zip", "top.txt", "src/e"}, {"zip", "-d", "x.zip", "top.txt"}}},
	}
	runDataFSDiff(t, cases)
}

// dataListTar builds an archive with fixed owners and times so that
// `tar tvf` output can be compared with the host.
func dataListTar() string {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	mt := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	add := func(h *tar.Header, data string) {
		h.ModTime, h.Format = mt, tar.FormatGNU
		h.Size = int64(len(data))
		tw.WriteHeader(h)
		tw.Write([]byte(data))
	}
	add(&tar.Header{Name: "d/", Typeflag: tar.TypeDir, Mode: 0o755, Uname: "root", Gname: "root"}, "")
	add(&tar.Header{Name: "d/file.txt", Typeflag: tar.TypeReg, Mode: 0o644, Uname: "root", Gname: "root"}, strings.Repeat("x", 12345))
	add(&tar.Header{Name: "d/link", Typeflag: tar.TypeSymlink, Linkname: "file.txt", Mode: 0o777, Uname: "root", Gname: "root"}, "")
	add(&tar.Header{Name: "d/long", Typeflag: tar.TypeReg, Mode: 0o600, Uname: "averylongusername", Gname: "staff"}, "abc")
	add(&tar.Header{Name: "d/x", Typeflag: tar.TypeReg, Mode: 0o755, Uid: 1000, Gid: 1000}, "12345678901")
	tw.Close()
	return b.String()
}

func TestDataDiffTarList(t *testing.T) {
	t.Parallel()
	files := map[string]string{"l.tar": dataListTar(), "out/": ""}
	runDataFSDiff(t, []dataFSCase{
		{Name: "tvf", Files: files, Args: []string{"tar", "tvf", "l.tar"}},
		{Name: "tf", Files: files, Args: []string{"tar", "-t", "-f", "l.tar", "d/x", "d/link"}},
		{Name: "xvf", Files: files, Args: []string{"tar", "-xvf", "l.tar", "-C", "out"}},
	})
}
