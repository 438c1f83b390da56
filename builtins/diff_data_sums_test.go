package builtins

import (
	"strings"
	"testing"
)

func TestDataDiffSums(t *testing.T) {
	t.Parallel()
	bin := "\x00\x01\xff\xfe binary\r\n" + strings.Repeat("xyz", 5000)
	files := map[string]string{
		"a.txt": "hello\n",
		"b.txt": "world\n",
		"e.txt": "",
		"bin":   bin,
		"sub/":  "",
		"sums.md5": "b1946ac92492d2347c6235b4d2611184  a.txt\n" +
			"00000000000000000000000000000000  b.txt\n" +
			"garbage line\n" +
			"d41d8cd98f00b204e9800998ecf8427e *e.txt\n" +
			"d41d8cd98f00b204e9800998ecf8427e  missing.txt\n",
		"good.md5": "b1946ac92492d2347c6235b4d2611184  a.txt\nMD5 (e.txt) = d41d8cd98f00b204e9800998ecf8427e\n",
		"none.md5": "nothing here\n",
		"b64":      "aGVsbG8gd29ybGQK\n",
		"b64bad":   "aGVsbG8*d29ybGQK\n",
	}
	var cases []diffCase
	for _, c := range []string{"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum"} {
		cases = append(cases,
			diffCase{Args: []string{c, "a.txt", "b.txt", "e.txt", "bin"}, Files: files},
			diffCase{Args: []string{c}, Files: files, Stdin: bin},
			diffCase{Args: []string{c, "-", "a.txt"}, Files: files, Stdin: "x"},
			diffCase{Args: []string{c, "--tag", "a.txt"}, Files: files},
			diffCase{Args: []string{c, "-b", "a.txt"}, Files: files},
			diffCase{Args: []string{c, "-z", "a.txt"}, Files: files},
			diffCase{Args: []string{c, "nope", "a.txt"}, Files: files},
			diffCase{Args: []string{c, "sub"}, Files: files},
		)
	}
	cases = append(cases,
		diffCase{Args: []string{"md5sum", "-c", "sums.md5"}, Files: files},
		diffCase{Args: []string{"md5sum", "-c", "--quiet", "sums.md5"}, Files: files},
		diffCase{Args: []string{"md5sum", "-c", "--status", "sums.md5"}, Files: files},
		diffCase{Args: []string{"md5sum", "-c", "good.md5"}, Files: files},
		diffCase{Args: []string{"md5sum", "-c", "--strict", "good.md5"}, Files: files},
		diffCase{Args: []string{"md5sum", "-c", "-w", "sums.md5"}, Files: files},
		diffCase{Args: []string{"md5sum", "-c", "--ignore-missing", "sums.md5"}, Files: files},
		diffCase{Args: []string{"md5sum", "-c", "none.md5"}, Files: files},
		diffCase{Args: []string{"md5sum", "-c"}, Files: files, Stdin: "b1946ac92492d2347c6235b4d2611184  a.txt\n"},
		diffCase{Args: []string{"md5sum", "--quiet", "a.txt"}, Files: files},
		diffCase{Args: []string{"sha256sum", "-c", "x"}, Files: map[string]string{"a": "1\n", "x": "4355a46b19d348dc2f57c046f8ef63d4538ebb936000f3c9ee954a27460dd865  a\n"}},
		diffCase{Name: "escaped name", Args: []string{"md5sum", "a\\b"}, Files: map[string]string{"a\\b": "q"}},
		diffCase{Args: []string{"cksum", "a.txt", "b.txt", "e.txt", "bin"}, Files: files},
		diffCase{Args: []string{"cksum"}, Files: files, Stdin: bin},
		diffCase{Args: []string{"cksum", "-"}, Files: files, Stdin: "abc"},
		diffCase{Args: []string{"cksum", "nope"}, Files: files},
		diffCase{Args: []string{"cksum", "-a", "md5", "a.txt"}, Files: files},
		diffCase{Args: []string{"cksum", "-a", "sha256", "--untagged", "a.txt"}, Files: files},
		diffCase{Args: []string{"cksum", "-a", "sysv", "a.txt", "bin"}, Files: files},
		diffCase{Args: []string{"cksum", "-a", "bsd", "bin"}, Files: files},
		diffCase{Args: []string{"cksum", "-a", "nope", "bin"}, Files: files},
		diffCase{Args: []string{"sum", "a.txt", "bin"}, Files: files},
		diffCase{Args: []string{"sum"}, Files: files, Stdin: bin},
		diffCase{Args: []string{"sum", "-s", "bin"}, Files: files},
		diffCase{Args: []string{"sum", "-r", "-"}, Files: files, Stdin: bin},
		diffCase{Args: []string{"base64"}, Stdin: bin},
		diffCase{Args: []string{"base64"}, Stdin: ""},
		diffCase{Args: []string{"base64", "-w", "0", "a.txt"}, Files: files},
		diffCase{Args: []string{"base64", "-w", "10", "bin"}, Files: files},
		diffCase{Args: []string{"base64", "--wrap=3"}, Stdin: "abcdefgh"},
		diffCase{Args: []string{"base64", "-w", "x"}, Stdin: "a"},
		diffCase{Args: []string{"base64", "-d", "b64"}, Files: files},
		diffCase{Args: []string{"base64", "-d", "b64bad"}, Files: files},
		diffCase{Args: []string{"base64", "-di", "b64bad"}, Files: files},
		diffCase{Args: []string{"base64", "-d"}, Stdin: "YWJjZA"},
		diffCase{Args: []string{"base64", "-d"}, Stdin: "YWJjZA==YWJj"},
		diffCase{Args: []string{"base64", "-d"}, Stdin: "YW=Jj"},
		diffCase{Args: []string{"base64", "-d"}, Stdin: "Y"},
		diffCase{Args: []string{"base64", "-d"}, Stdin: "YWJj ZA=="},
		diffCase{Args: []string{"base64", "nope"}},
		diffCase{Args: []string{"base64", "a", "b"}},
		diffCase{Args: []string{"base32"}, Stdin: bin},
		diffCase{Args: []string{"base32"}, Stdin: "abc"},
		diffCase{Args: []string{"base32", "-w", "7"}, Stdin: "abcdefghijk"},
		diffCase{Args: []string{"base32", "-d"}, Stdin: "MFRGG===\n"},
		diffCase{Args: []string{"base32", "-d"}, Stdin: "MFRGG"},
		diffCase{Args: []string{"base32", "-d"}, Stdin: "MFRG*G==="},
	)
	// Round trips of every length around group boundaries.
	for n := 0; n < 12; n++ {
		s := bin[:n]
		cases = append(cases, diffCase{Name: "b64 len " + string(rune('a'+n)), Args: []string{"base64"}, Stdin: s},
			diffCase{Name: "b32 len " + string(rune('a'+n)), Args: []string{"base32"}, Stdin: s})
	}
	runDiff(t, cases)
}
