package builtins

// The md5sum family: compute and check message digests the GNU way.

import (
	"bufio"
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"strings"
)

// dataDigest describes one digest algorithm.
type dataDigest struct {
	cmd  string // command name, for messages
	tag  string // BSD tag name: MD5, SHA1, ...
	bits int
	make func() hash.Hash
}

func dataDigestByName(name string) (dataDigest, bool) {
	switch name {
	case "md5sum", "md5":
		return dataDigest{"md5sum", "MD5", 128, md5.New}, true
	case "sha1sum", "sha1":
		return dataDigest{"sha1sum", "SHA1", 160, sha1.New}, true
	case "sha224sum", "sha224":
		return dataDigest{"sha224sum", "SHA224", 224, sha256.New224}, true
	case "sha256sum", "sha256":
		return dataDigest{"sha256sum", "SHA256", 256, sha256.New}, true
	case "sha384sum", "sha384":
		return dataDigest{"sha384sum", "SHA384", 384, sha512.New384}, true
	case "sha512sum", "sha512":
		return dataDigest{"sha512sum", "SHA512", 512, sha512.New}, true
	}
	return dataDigest{}, false
}

func dataSumUsage(cmd, tag string) string {
	return fmt.Sprintf(`Usage: %[1]s [OPTION]... [FILE]...
Print or check %[2]s checksums.

With no FILE, or when FILE is -, read standard input.
  -b, --binary         read in binary mode
  -c, --check          read checksums from the FILEs and check them
      --tag            create a BSD-style checksum
  -t, --text           read in text mode (default)
  -z, --zero           end each output line with NUL, not newline,
                       and disable file name escaping

The following five options are useful only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
      --quiet          don't print OK for each successfully verified file
      --status         don't output anything, status code shows success
      --strict         exit non-zero for improperly formatted checksum lines
  -w, --warn           warn about improperly formatted checksum lines
`, cmd, tag)
}

// dataSumOpts are the parsed md5sum-family options.
type dataSumOpts struct {
	binary, check, tag, zero     bool
	ignoreMissing, quiet, status bool
	strict, warn                 bool
}

var digestGetopt = Getopt{Short: "bctzw", Long: []string{"binary", "check", "tag", "text", "zero",
	"ignore-missing", "quiet", "status", "strict", "warn"},
	LongAlias: map[string]string{"binary": "b", "check": "c", "text": "t", "zero": "z", "warn": "w"}}

func dataRunSum(ctx context.Context, env *Env, args []string, d dataDigest) int {
	name := args[0]
	g := digestGetopt
	opts, files, err := g.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	var o dataSumOpts
	for _, op := range opts {
		switch op.Name {
		case "b":
			o.binary = true
		case "t":
			o.binary = false
		case "c":
			o.check = true
		case "tag":
			o.tag = true
		case "z":
			o.zero = true
		case "ignore-missing":
			o.ignoreMissing = true
		case "quiet":
			o.quiet = true
		case "status":
			o.status = true
		case "strict":
			o.strict = true
		case "w":
			o.warn = true
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if o.check && o.tag {
		env.Errorf(name, "the --tag option is meaningless when verifying checksums")
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", name)
		return 1
	}
	if !o.check && (o.ignoreMissing || o.quiet || o.status || o.strict || o.warn) {
		which := "--warn"
		switch {
		case o.ignoreMissing:
			which = "--ignore-missing"
		case o.status:
			which = "--status"
		case o.quiet:
			which = "--quiet"
		case o.strict:
			which = "--strict"
		}
		env.Errorf(name, "the %s option is meaningful only when verifying checksums", which)
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", name)
		return 1
	}
	w := dataWriter(env)
	st := 0
	for _, f := range files {
		if dataCancelled(ctx) {
			return 130
		}
		var s int
		if o.check {
			s = dataSumCheck(ctx, env, w, name, f, d, &o)
		} else {
			s = dataSumFile(ctx, env, w, name, f, d, &o)
		}
		if s > st {
			st = s
		}
		if err := w.Flush(); err != nil {
			return env.WriteError(name, err)
		}
	}
	return st
}

// dataHashFile digests one named input.
func dataHashFile(ctx context.Context, env *Env, file string, d dataDigest) ([]byte, error) {
	r, err := dataOpen(env, file)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	h := d.make()
	buf := make([]byte, dataBufSize)
	if _, err := io.CopyBuffer(h, dataCtxReader{ctx, r}, buf); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

func dataSumFile(ctx context.Context, env *Env, w *bufio.Writer, name, file string, d dataDigest, o *dataSumOpts) int {
	sum, err := dataHashFile(ctx, env, file, d)
	if err != nil {
		return env.FileError(name, file, err)
	}
	hexsum := hex.EncodeToString(sum)
	shown, escaped := file, false
	if !o.zero && strings.ContainsAny(file, "\\\n\r") {
		shown, escaped = dataSumEscape(file), true
	}
	if escaped {
		w.WriteByte('\\')
	}
	if o.tag {
		fmt.Fprintf(w, "%s (%s) = %s", d.tag, shown, hexsum)
	} else {
		mode := byte(' ')
		if o.binary {
			mode = '*'
		}
		w.WriteString(hexsum)
		w.WriteByte(' ')
		w.WriteByte(mode)
		w.WriteString(shown)
	}
	if o.zero {
		w.WriteByte(0)
	} else {
		w.WriteByte('\n')
	}
	return 0
}

func dataSumEscape(s string) string {
	r := strings.NewReplacer("\\", "\\\\", "\n", "\\n", "\r", "\\r")
	return r.Replace(s)
}

func dataSumUnescape(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		i++
		if i == len(s) {
			return "", false
		}
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		default:
			return "", false
		}
	}
	return b.String(), true
}

// dataSumParseLine splits a check line into digest and file name, in
// either the "HASH  FILE" / "HASH *FILE" form or the BSD "TAG (FILE) =
// HASH" form.
func dataSumParseLine(line string, d dataDigest) (sum, file string, ok bool) {
	hexLen := d.bits / 4
	escaped := false
	if strings.HasPrefix(line, "\\") {
		escaped = true
		line = line[1:]
	}
	if rest, found := strings.CutPrefix(line, d.tag); found && strings.HasPrefix(strings.TrimLeft(rest, " "), "(") {
		rest = strings.TrimLeft(rest, " ")[1:]
		i := strings.LastIndex(rest, ") = ")
		if i < 0 {
			return "", "", false
		}
		file, sum = rest[:i], rest[i+4:]
	} else {
		line = strings.TrimLeft(line, " \t")
		if len(line) < hexLen+2 || line[hexLen] != ' ' || (line[hexLen+1] != ' ' && line[hexLen+1] != '*') {
			return "", "", false
		}
		sum, file = line[:hexLen], line[hexLen+2:]
	}
	if len(sum) != hexLen || file == "" {
		return "", "", false
	}
	if _, err := hex.DecodeString(sum); err != nil {
		return "", "", false
	}
	if escaped {
		if file, ok = dataSumUnescape(file); !ok {
			return "", "", false
		}
	}
	return strings.ToLower(sum), file, true
}

func dataSumCheck(ctx context.Context, env *Env, w *bufio.Writer, name, list string, d dataDigest, o *dataSumOpts) int {
	r, err := dataOpen(env, list)
	if err != nil {
		return env.FileError(name, list, err)
	}
	defer r.Close()
	shownList := list
	if list == "-" {
		shownList = "standard input"
	}
	var bad, unreadable, mismatched, okCount, lineNo int
	matchedAny := false
	sc := bufio.NewReaderSize(r, dataBufSize)
	for {
		line, rerr := sc.ReadString('\n')
		if line == "" && rerr != nil {
			break
		}
		lineNo++
		line = strings.TrimSuffix(line, "\n")
		line = strings.TrimSuffix(line, "\r")
		if strings.HasPrefix(line, "#") {
			continue
		}
		want, file, ok := dataSumParseLine(line, d)
		if !ok {
			bad++
			if o.warn {
				env.Errorf(name, "%s: %d: improperly formatted %s checksum line", shownList, lineNo, d.tag)
			}
			continue
		}
		matchedAny = true
		got, err := dataHashFile(ctx, env, file, d)
		if err != nil {
			if o.ignoreMissing && dataNotExist(err) {
				continue
			}
			unreadable++
			env.FileError(name, file, err)
			if !o.status {
				w.WriteString(file + ": FAILED open or read\n")
			}
			continue
		}
		if hex.EncodeToString(got) != want {
			mismatched++
			if !o.status {
				w.WriteString(file + ": FAILED\n")
			}
		} else {
			okCount++
			if !o.status && !o.quiet {
				w.WriteString(file + ": OK\n")
			}
		}
		if rerr != nil {
			break
		}
	}
	w.Flush()
	if !matchedAny {
		env.Errorf(name, "%s: no properly formatted %s checksum lines found", shownList, d.tag)
		return 1
	}
	if o.ignoreMissing && okCount == 0 && mismatched == 0 && unreadable == 0 {
		env.Errorf(name, "%s: no file was verified", shownList)
		return 1
	}
	if !o.status {
		plural := func(n int, one, many string) string {
			if n == 1 {
				return one
			}
			return many
		}
		if bad > 0 {
			env.Errorf(name, "WARNING: %d %s improperly formatted", bad, plural(bad, "line is", "lines are"))
		}
		if unreadable > 0 {
			env.Errorf(name, "WARNING: %d listed %s could not be read", unreadable, plural(unreadable, "file", "files"))
		}
		if mismatched > 0 {
			env.Errorf(name, "WARNING: %d computed %s did NOT match", mismatched, plural(mismatched, "checksum", "checksums"))
		}
	}
	if mismatched > 0 || unreadable > 0 || (o.strict && bad > 0) {
		return 1
	}
	return 0
}

func dataNotExist(err error) bool {
	return strings.Contains(ErrText(err), "No such file")
}
