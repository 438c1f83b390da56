package builtins

import (
	"strings"
	"testing"
)

func TestDataDiffOd(t *testing.T) {
	t.Parallel()
	bin := "abcdefghijklmnopqrstuvwxyz\n\x00\x01\xff\x80\x7f\t\r\a\b\f\v"
	zeros := strings.Repeat("\x00", 64)
	floats := "\x00\x00\x80\x3f\x00\x00\x00\x00\x00\x00\xf0\x3f\x9a\x99\x99\x99\x99\x99\xb9\x3f\x00\x00\x20\x41\x00\x00\xc0\x7f"
	files := map[string]string{"bin": bin, "zeros": zeros, "floats": floats, "a": "abc", "b": "defg\n", "e": ""}
	var cases []diffCase
	for _, a := range [][]string{
		{"od", "bin"}, {"od", "-c", "bin"}, {"od", "-t", "x1", "bin"}, {"od", "-An", "-t", "x1z", "bin"},
		{"od", "-t", "d1", "-t", "x2", "bin"}, {"od", "-t", "u4", "bin"}, {"od", "-t", "d8", "bin"}, {"od", "-b", "bin"},
		{"od", "-x", "bin"}, {"od", "-d", "bin"}, {"od", "-t", "a", "bin"}, {"od", "-a", "bin"}, {"od", "-A", "x", "-N", "5", "-j", "3", "bin"},
		{"od", "zeros"}, {"od", "-v", "zeros"}, {"od", "-w8", "-t", "x1", "bin"}, {"od", "-t", "x1", "-t", "c", "bin"},
		{"od", "-s", "bin"}, {"od", "-i", "bin"}, {"od", "-l", "bin"}, {"od", "-t", "o1", "-A", "d", "bin"}, {"od", "-tx4", "bin"},
		{"od", "-t", "x8", "bin"}, {"od", "-t", "o4", "bin"}, {"od", "-t", "u1", "bin"}, {"od", "-t", "d2", "-A", "n", "bin"},
		{"od", "-t", "f4", "floats"}, {"od", "-t", "f8", "floats"}, {"od", "-f", "floats"}, {"od", "-tfD", "floats"},
		{"od", "a", "b"}, {"od", "-c", "a", "nope", "b"}, {"od", "e"}, {"od", "-c"}, {"od", "-t", "q"}, {"od", "-t", "x3", "bin"},
		{"od", "-A", "q", "bin"}, {"od", "-j", "100", "bin"}, {"od", "-N", "3", "-c", "bin"}, {"od", "-w", "-c", "bin"},
		{"od", "-tx1z", "-w4", "bin"}, {"od", "-t", "c", "-t", "d4", "bin"}, {"od", "-t", "x2z", "b"}, {"od", "-w3", "-t", "x1", "bin"},
		{"od", "-j", "0x10", "-t", "x1", "bin"}, {"od", "-N", "1K", "-c", "bin"},
	} {
		cases = append(cases, diffCase{Args: a, Files: files, Stdin: bin})
	}
	for _, a := range [][]string{
		{"strings"}, {"strings", "-n", "3"}, {"strings", "-t", "x"}, {"strings", "-t", "d", "-n", "2"}, {"strings", "-to"},
		{"strings", "-2"}, {"strings", "-w"}, {"strings", "-f", "s1"}, {"strings", "s1", "s2"}, {"strings", "nope"},
		{"strings", "-n", "0"}, {"strings", "-a", "--bytes=6", "s1"}, {"strings", "-t", "q"},
	} {
		cases = append(cases, diffCase{Args: a, Files: map[string]string{"s1": "hello\x00wo\x01world!!\tx\nabc\nabcd", "s2": "\x00\x00longer string here\x01xy"},
			Stdin: "hello\x00wo\x01world!!\tx\r\nab c\nabcd\x00\x00zzzzzzz"})
	}
	runDiff(t, cases)
}
