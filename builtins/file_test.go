package builtins

import (
	"bytes"
	"compress/gzip"
	"testing"
	"time"
)

func TestFile(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Name = "notes.txt"
	zw.ModTime = time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	zw.Write([]byte("hello world\n"))
	zw.Close()
	elf := "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x3e\x00\x01\x00\x00\x00" + string(make([]byte, 40))
	files := map[string]string{
		"s": "#!/bin/bash\necho\n", "e": "", "t": "plain\n", "u": "\xc3\xa9t\xc3\xa9\n", "j": "{\"a\":1}\n",
		"z.gz": gz.String(), "elf": elf, "bin": "\x00\x01\xff", "d/": "", "env": "#!/usr/bin/env -S node --flag\n",
		"awk": "#!/usr/bin/awk -f\n", "other": "#!/opt/tool run\n",
	}
	filesRunCases(t, []filesCase{
		{files: files, args: []string{"file", "s", "e", "t"}, out: "s: Bourne-Again shell script, ASCII text executable\ne: empty\nt: ASCII text\n"},
		{files: files, args: []string{"file", "-b", "u", "j", "bin", "d"}, out: "Unicode text, UTF-8 text\nJSON text data\ndata\ndirectory\n"},
		{files: files, args: []string{"file", "-b", "z.gz"},
			out: "gzip compressed data, was \"notes.txt\", last modified: Thu Jan  2 03:04:05 2020, original size modulo 2^32 12\n"},
		{files: files, args: []string{"file", "-b", "elf"}, out: "ELF 64-bit LSB executable, x86-64, version 1 (SYSV)\n"},
		{files: files, args: []string{"file", "-b", "env", "awk", "other"}, out: "a -S node --flag script, ASCII text executable\n" +
			"awk script, ASCII text executable\na /opt/tool run script, ASCII text executable\n"},
		{files: files, args: []string{"file", "-i", "s", "z.gz"}, out: "s:    text/x-shellscript; charset=us-ascii\nz.gz: application/gzip; charset=binary\n"},
		{files: files, args: []string{"file", "nope"}, out: "nope: cannot open `nope' (No such file or directory)\n"},
		{files: files, args: []string{"file", "-E", "nope"}, out: "nope: ERROR: cannot stat `nope' (No such file or directory)\n", status: 1},
		{files: files, args: []string{"file", "-"}, stdin: "#!/bin/sh\n", out: "/dev/stdin: POSIX shell script, ASCII text executable\n"},
		{name: "links", files: files, setup: func(t *testing.T, env *Env) {
			filesSymlink(t, env, "s", "ls")
			filesSymlink(t, env, "gone", "dl")
		}, args: []string{"file", "ls", "dl"}, out: "ls: symbolic link to s\ndl: broken symbolic link to gone\n"},
		{files: files, args: []string{"file"}, errSub: "Usage: file", status: 1},
	})
}
