// Package magic guesses what a file holds from its first bytes, the way
// file(1) does for the common cases: text encodings and line endings,
// scripts, JSON/XML/HTML, images, archives, compressed data and ELF.
package magic

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// HeadSize is how much of a file Describe wants to see.
const HeadSize = 64 << 10

// Result is a description and MIME type.
type Result struct {
	Desc     string
	MIME     string // type, e.g. "text/plain"
	Encoding string // charset, e.g. "us-ascii", "binary"
}

// Describe classifies a regular file from its head (up to HeadSize
// bytes); tail returns the last n bytes of the file when a format keeps
// information there (gzip's size), or nil.
func Describe(head []byte, size int64, tail func(n int) []byte, loc *time.Location) Result {
	if size == 0 {
		return Result{"empty", "inode/x-empty", "binary"}
	}
	if r, ok := binaryFormat(head, size, tail, loc); ok {
		// Like file(1), the charset comes from the bytes, whatever the
		// format.
		r.Encoding = "binary"
		if _, cs, ok := encoding(head); ok {
			r.Encoding = cs
		}
		return r
	}
	if r, ok := textFormat(head); ok {
		return r
	}
	return Result{"data", "application/octet-stream", "binary"}
}

func binaryFormat(b []byte, size int64, tail func(int) []byte, loc *time.Location) (Result, bool) {
	bin := func(desc, mime string) (Result, bool) { return Result{desc, mime, "binary"}, true }
	switch {
	case bytes.HasPrefix(b, []byte("\x7fELF")):
		return elf(b)
	case bytes.HasPrefix(b, []byte("\x1f\x8b")):
		return bin(gzipDesc(b, size, tail, loc), "application/gzip")
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return bin(pngDesc(b), "image/png")
	case bytes.HasPrefix(b, []byte("GIF87a")) || bytes.HasPrefix(b, []byte("GIF89a")):
		d := "GIF image data, version " + string(b[3:6])
		if len(b) >= 10 {
			d += fmt.Sprintf(", %d x %d", binary.LittleEndian.Uint16(b[6:]), binary.LittleEndian.Uint16(b[8:]))
		}
		return bin(d, "image/gif")
	case bytes.HasPrefix(b, []byte("\xff\xd8\xff")):
		return bin("JPEG image data", "image/jpeg")
	case bytes.HasPrefix(b, []byte("BZh")) && len(b) > 3 && b[3] >= '1' && b[3] <= '9':
		return Result{fmt.Sprintf("bzip2 compressed data, block size = %c00k", b[3]), "application/x-bzip2", "us-ascii"}, true
	case bytes.HasPrefix(b, []byte("\xfd7zXZ\x00")):
		return bin("XZ compressed data, checksum "+xzCheck(b), "application/x-xz")
	case bytes.HasPrefix(b, []byte("\x28\xb5\x2f\xfd")):
		return bin("Zstandard compressed data (v0.8+), Dictionary ID: None", "application/zstd")
	case bytes.HasPrefix(b, []byte("PK\x03\x04")) && len(b) >= 30:
		return bin(fmt.Sprintf("Zip archive data, at least v%d.%d to extract", b[4]/10, b[4]%10), "application/zip")
	case len(b) >= 262 && bytes.Equal(b[257:262], []byte("ustar")):
		if len(b) >= 265 && string(b[257:265]) == "ustar  \x00" {
			return bin("POSIX tar archive (GNU)", "application/x-tar")
		}
		return bin("POSIX tar archive", "application/x-tar")
	case bytes.HasPrefix(b, []byte("%PDF-")) && len(b) >= 8:
		v := b[5:8]
		return Result{"PDF document, version " + string(v), "application/pdf", "us-ascii"}, true
	case bytes.HasPrefix(b, []byte("\x00asm")):
		return bin("WebAssembly (wasm) binary module", "application/wasm")
	case bytes.HasPrefix(b, []byte("SQLite format 3\x00")):
		return bin("SQLite 3.x database", "application/vnd.sqlite3")
	}
	return Result{}, false
}

func xzCheck(b []byte) string {
	if len(b) < 8 {
		return "CRC64"
	}
	switch b[7] & 0xf {
	case 0:
		return "none"
	case 1:
		return "CRC32"
	case 4:
		return "CRC64"
	case 10:
		return "SHA-256"
	}
	return "CRC64"
}

func gzipDesc(b []byte, size int64, tail func(int) []byte, loc *time.Location) string {
	d := "gzip compressed data"
	if len(b) < 10 {
		return d
	}
	flags := b[3]
	mtime := binary.LittleEndian.Uint32(b[4:])
	if flags&0x08 != 0 {
		off := 10
		if flags&0x04 != 0 && len(b) >= 12 {
			off += 2 + int(binary.LittleEndian.Uint16(b[10:]))
		}
		if off < len(b) {
			if end := bytes.IndexByte(b[off:], 0); end >= 0 {
				d += fmt.Sprintf(", was \"%s\"", b[off:off+end])
			}
		}
	}
	if mtime != 0 {
		d += ", last modified: " + time.Unix(int64(mtime), 0).In(loc).Format("Mon Jan _2 15:04:05 2006")
	}
	switch b[8] {
	case 2:
		d += ", max compression"
	case 4:
		d += ", max speed"
	}
	if b[9] == 3 {
		d += ", from Unix"
	}
	if tail != nil && size >= 18 {
		if t := tail(4); len(t) == 4 {
			d += fmt.Sprintf(", original size modulo 2^32 %d", binary.LittleEndian.Uint32(t))
		}
	}
	return d
}

func pngDesc(b []byte) string {
	d := "PNG image data"
	if len(b) < 29 || string(b[12:16]) != "IHDR" {
		return d
	}
	w, h := binary.BigEndian.Uint32(b[16:]), binary.BigEndian.Uint32(b[20:])
	depth, ct, il := b[24], b[25], b[28]
	kinds := map[byte]string{0: "grayscale", 2: "RGB", 3: "colormap", 4: "gray+alpha", 6: "RGBA"}
	d += fmt.Sprintf(", %d x %d, %d-bit", w, h, depth)
	if k, ok := kinds[ct]; ok {
		if ct == 0 || ct == 4 {
			d += " " + k
		} else {
			d += "/color " + k
		}
	}
	if il == 1 {
		d += ", interlaced"
	} else {
		d += ", non-interlaced"
	}
	return d
}

// elfPhnum is the ELF header's count of program headers (e_phnum), 0 if
// the header is cut short.
func elfPhnum(b []byte, bo binary.ByteOrder) uint16 {
	off := 44 // 32-bit
	if b[4] == 2 {
		off = 56
	}
	if len(b) < off+2 {
		return 0
	}
	return bo.Uint16(b[off:])
}

func elf(b []byte) (Result, bool) {
	if len(b) < 20 {
		return Result{"ELF", "application/octet-stream", "binary"}, true
	}
	bits := "32-bit"
	if b[4] == 2 {
		bits = "64-bit"
	}
	var bo binary.ByteOrder = binary.LittleEndian
	order := "LSB"
	if b[5] == 2 {
		bo, order = binary.BigEndian, "MSB"
	}
	typ := bo.Uint16(b[16:])
	mach := bo.Uint16(b[18:])
	types := map[uint16]string{1: "relocatable", 2: "executable", 3: "shared object", 4: "core file"}
	machines := map[uint16]string{3: "Intel 80386", 8: "MIPS", 20: "PowerPC", 21: "64-bit PowerPC", 40: "ARM",
		62: "x86-64", 183: "ARM aarch64", 243: "UCB RISC-V"}
	t := types[typ]
	mime := "application/x-executable"
	switch typ {
	case 1:
		mime = "application/x-object"
	case 3:
		mime = "application/x-sharedlib"
		if bytes.Contains(b, []byte("/ld-linux")) || bytes.Contains(b, []byte("/ld-musl")) {
			t, mime = "pie executable", "application/x-pie-executable"
		}
	case 4:
		mime = "application/x-coredump"
	}
	m := machines[mach]
	if m == "" {
		m = fmt.Sprintf("*unknown arch %#x*", mach)
	}
	d := fmt.Sprintf("ELF %s %s %s, %s, version %d (SYSV)", bits, order, t, m, b[6])
	if typ == 2 || typ == 3 {
		if bytes.Contains(b, []byte("/ld-linux")) || bytes.Contains(b, []byte("/ld-musl")) {
			d += ", dynamically linked"
		} else if typ == 2 && elfPhnum(b, bo) > 0 {
			// file reports the linking from the program headers; a
			// header without any says nothing about it.
			d += ", statically linked"
		}
	}
	return Result{d, mime, "binary"}, true
}

// textFormat describes text: its encoding, what it is (script, JSON,
// XML, HTML) and its line endings.
func textFormat(b []byte) (Result, bool) {
	enc, charset, ok := encoding(b)
	if !ok {
		return Result{}, false
	}
	kind, mime, exec := textKind(b)
	var d string
	switch {
	case kind == "":
		d = enc + " text"
	case exec && strings.HasSuffix(kind, " text executable"):
		d = kind
	case exec:
		d = kind + ", " + enc + " text executable"
	case kind == "JSON text data":
		d = kind
	default:
		d = kind + ", " + enc + " text"
	}
	if mods := lineInfo(b); mods != "" {
		d += ", " + mods
	}
	return Result{d, mime, charset}, true
}

// encoding classifies the bytes as ASCII, UTF-8 or ISO-8859 text.
func encoding(b []byte) (desc, charset string, ok bool) {
	ascii, bom := true, bytes.HasPrefix(b, []byte("\xef\xbb\xbf"))
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			continue
		}
		if c < 0x20 && !strings.ContainsRune("\t\n\r\f\b\x1b\a\v", rune(c)) {
			return "", "", false
		}
	}
	switch {
	case ascii:
		return "ASCII", "us-ascii", true
	case validUTF8Prefix(b):
		if bom {
			return "Unicode text, UTF-8 (with BOM)", "utf-8", true
		}
		return "Unicode text, UTF-8", "utf-8", true
	}
	for _, c := range b {
		if c >= 0x80 && c < 0xa0 {
			return "", "", false
		}
	}
	return "ISO-8859", "iso-8859-1", true
}

// validUTF8Prefix is utf8.Valid, forgiving a sequence cut off by the
// end of the buffer.
func validUTF8Prefix(b []byte) bool {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			return len(b) < utf8.UTFMax && !utf8.FullRune(b)
		}
		b = b[n:]
	}
	return true
}

// textKind recognises scripts by their #! line and structured text.
func textKind(b []byte) (kind, mime string, exec bool) {
	if bytes.HasPrefix(b, []byte("#!")) {
		line := b[2:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(strings.TrimSpace(string(bytes.TrimRight(line, "\r"))))
		if len(fields) > 0 {
			return scriptKind(fields)
		}
	}
	t := bytes.TrimLeft(b, " \t\r\n")
	switch {
	case bytes.HasPrefix(t, []byte("<?xml")):
		return "XML 1.0 document", "text/xml", false
	case hasPrefixFold(t, "<!doctype html") || hasPrefixFold(t, "<html") || hasPrefixFold(t, "<head") ||
		hasPrefixFold(t, "<body"):
		return "HTML document", "text/html", false
	case len(t) > 0 && (t[0] == '{' || t[0] == '[') && len(b) < HeadSize && json.Valid(b):
		return "JSON text data", "application/json", false
	}
	return "", "text/plain", false
}

// scriptKind names a script by its #! line's fields as file 5.44's magic
// does: it knows some interpreters by path and fewer through env (none
// after an env option such as -S, nor sh, dash or awk), and otherwise
// repeats the line ("a /bin/dash script", "a awk -f script": the env
// path dropped).
func scriptKind(fields []string) (kind, mime string, exec bool) {
	args, viaEnv := fields, false
	if strings.HasSuffix(fields[0], "/env") && len(fields) > 1 {
		args, viaEnv = fields[1:], true
	}
	base := args[0][strings.LastIndexByte(args[0], '/')+1:]
	switch {
	case viaEnv && strings.HasPrefix(base, "-"):
	case base == "bash":
		return "Bourne-Again shell script", "text/x-shellscript", true
	case base == "zsh":
		return "Paul Falstad's zsh script", "text/x-shellscript", true
	case strings.HasPrefix(base, "python"):
		return "Python script", "text/x-script.python", true
	case strings.HasPrefix(base, "perl"):
		return "Perl script text executable", "text/x-perl", true
	case base == "ruby":
		return "Ruby script", "text/x-ruby", true
	case base == "node" || base == "nodejs":
		return "Node.js script executable", "application/javascript", false
	case viaEnv:
	case base == "sh":
		return "POSIX shell script", "text/x-shellscript", true
	case base == "ash":
		return "Neil Brown's ash script", "text/x-shellscript", true
	case base == "awk":
		return "awk script", "text/x-awk", true
	case base == "gawk":
		return "GNU awk script", "text/x-gawk", true
	case base == "nawk":
		return "new awk script", "text/x-nawk", true
	}
	return "a " + strings.Join(args, " ") + " script", "text/plain", true
}

func hasPrefixFold(b []byte, p string) bool {
	return len(b) >= len(p) && strings.EqualFold(string(b[:len(p)]), p)
}

// lineInfo lists what file(1) adds after the encoding: line
// terminators, very long lines, escape sequences.
func lineInfo(b []byte) string {
	var crlf, lf, cr int
	longest, cur := 0, 0
	esc := false
	for i, c := range b {
		switch c {
		case '\n':
			if i > 0 && b[i-1] == '\r' {
				crlf++
			} else {
				lf++
			}
			longest, cur = max(longest, cur), 0
			continue
		case '\r':
			if i+1 >= len(b) || b[i+1] != '\n' {
				cr++
				longest, cur = max(longest, cur), 0
			}
			continue
		case 0x1b:
			esc = true
		}
		cur++
	}
	longest = max(longest, cur)
	var mods []string
	if longest > 300 {
		mods = append(mods, fmt.Sprintf("with very long lines (%d)", longest))
	}
	var terms []string
	if crlf > 0 {
		terms = append(terms, "CRLF")
	}
	if cr > 0 {
		terms = append(terms, "CR")
	}
	if lf > 0 && len(terms) > 0 {
		terms = append(terms, "LF")
	}
	switch {
	case crlf+lf+cr == 0:
		mods = append(mods, "with no line terminators")
	case len(terms) > 0:
		mods = append(mods, "with "+strings.Join(terms, ", ")+" line terminators")
	}
	if esc {
		mods = append(mods, "with escape sequences")
	}
	return strings.Join(mods, ", ")
}
