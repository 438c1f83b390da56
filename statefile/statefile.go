// Package statefile is the on-disk format of a saved sandsh session: the
// shell state (interp.State) and the files of a sandbox (the whole tree
// of a memory filesystem as a vfs.Snapshot, or what the runs changed on
// an overlay as a vfs.Delta with stamps of the base), versioned and
// checksummed so that a damaged, truncated, foreign or newer file is
// refused whole, never half-loaded.
//
// Version 2 (what Write writes) is one text line and a stream:
//
//	sandsh-state 2\n
//	<an S2 stream (github.com/klauspost/compress/s2, the Snappy framing
//	 format): blocks of at most 1 MiB, each compressed or stored as is
//	 when it does not shrink, each with the CRC-32C of its bytes>
//
// The stream decodes to records, each a kind byte and its fields
// (integers as varints, strings and file contents as a length and the
// bytes, never escaped or re-encoded):
//
//	'H' the shell state (JSON of interp.State: small, bounded by the
//	    variable limits), first and once
//	'E' an entry of the Snapshot; 'd' starts a Delta, 'R' is one of its
//	    removed paths and 'D' one of its entries; 'B' is a BaseStamp
//	'Z' the end: the number of records before it; nothing may follow
//
// The CRC-32C of every block and the end record catch a damaged or
// truncated file. The checksum is there for damage, not forgery (anyone
// who can write the file can recompute any unkeyed hash, SHA-256
// included): what a file may put into a sandbox is bounded by the
// checks on what it holds (vfs.Snapshot.Check, vfs.Delta.Check,
// interp.ImportState), and Read bounds every length before it
// allocates. CRC-32C runs in hardware at several GB/s, where SHA-256
// over the whole file cost as much as the rest of the load together.
//
// Version 1 (gzip-compressed JSON with a SHA-256 line) is still read.
// The package reads and writes streams only: opening, creating and
// renaming host files is the caller's business.
package statefile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/s2"
	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/vfs"
)

// Version is the format version this package writes and the newest it
// reads.
const Version = 2

const magic = "sandsh-state"

// File is what a state file holds.
type File struct {
	Shell *interp.State `json:"shell"`
	// FS is the whole tree of a memory filesystem.
	FS *vfs.Snapshot `json:"fs,omitempty"`
	// Delta is what the runs changed on an overlay since it was set up,
	// and Base what its base held at the paths the delta touches.
	Delta *vfs.Delta      `json:"delta,omitempty"`
	Base  []vfs.BaseStamp `json:"base,omitempty"`
}

// Errors Read returns, wrapped with details; test with errors.Is.
var (
	ErrNotState = errors.New("not a sandsh state file")
	ErrVersion  = errors.New("state file from a newer sandsh")
	ErrDamaged  = errors.New("state file is damaged")
)

// Record kinds of version 2.
const (
	recShell   = 'H'
	recEntry   = 'E'
	recDelta   = 'd'
	recRemoved = 'R'
	recDEntry  = 'D'
	recStamp   = 'B'
	recEnd     = 'Z'
)

var entryTypes = []string{"", "dir", "file", "symlink", "link"}

const (
	flagReplace = 1 << iota
	flagKeep
	flagNoMtime
	flagNoAtime
)

// Write encodes f onto w in the current version.
func Write(w io.Writer, f *File) error {
	if _, err := fmt.Fprintf(w, "%s %d\n", magic, Version); err != nil {
		return err
	}
	zw := s2.NewWriter(w, s2.WriterCustomEncoder(storeIncompressible))
	e := &encoder{w: bufio.NewWriterSize(zw, 64<<10)}
	shell, err := json.Marshal(f.Shell)
	if err != nil {
		return fmt.Errorf("state file: encode: %w", err)
	}
	e.kind(recShell)
	e.bytes(shell)
	if f.FS != nil {
		for i := range f.FS.Entries {
			e.entry(recEntry, &f.FS.Entries[i])
		}
	}
	if f.Delta != nil {
		e.kind(recDelta)
		for _, p := range f.Delta.Removed {
			e.kind(recRemoved)
			e.str(p)
		}
		for i := range f.Delta.Entries {
			e.entry(recDEntry, &f.Delta.Entries[i])
		}
	}
	for i := range f.Base {
		b := &f.Base[i]
		e.kind(recStamp)
		e.str(b.Path)
		e.str(b.Type)
		e.varint(b.Size)
		e.raw(b.Sum[:])
		e.str(b.Target)
	}
	n := e.records
	e.kind(recEnd)
	e.uvarint(n)
	if e.err == nil {
		e.err = e.w.Flush()
	}
	if err := zw.Close(); e.err == nil {
		e.err = err
	}
	if e.err != nil {
		return fmt.Errorf("state file: write: %w", e.err)
	}
	return nil
}

// storeIncompressible is the S2 writer's block encoder: a block whose
// first 16 KiB do not shrink by a sixteenth is stored as it is (random
// or already compressed data), without trying the whole block, which
// cost as much as the rest of a save; the others are compressed.
func storeIncompressible(dst, src []byte) int {
	const probe = 16 << 10
	if len(src) < 4*probe {
		return -1
	}
	var buf [probe + probe/8 + 64]byte
	if n := len(s2.Encode(buf[:], src[:probe])); n > probe-probe/16 {
		return 0
	}
	return -1
}

type encoder struct {
	w       *bufio.Writer
	err     error
	records uint64
	buf     [binary.MaxVarintLen64]byte
}

func (e *encoder) raw(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *encoder) kind(k byte) {
	e.records++
	if e.err == nil {
		e.err = e.w.WriteByte(k)
	}
}

func (e *encoder) uvarint(x uint64) { e.raw(binary.AppendUvarint(e.buf[:0], x)) }
func (e *encoder) varint(x int64)   { e.raw(binary.AppendVarint(e.buf[:0], x)) }

func (e *encoder) str(s string) {
	e.uvarint(uint64(len(s)))
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

func (e *encoder) bytes(b []byte) {
	e.uvarint(uint64(len(b)))
	e.raw(b)
}

func (e *encoder) time(t time.Time) {
	e.varint(t.Unix())
	e.uvarint(uint64(t.Nanosecond()))
}

func (e *encoder) entry(kind byte, s *vfs.SnapEntry) {
	typ := 0
	for i, name := range entryTypes {
		if name == s.Type && i > 0 {
			typ = i
		}
	}
	if typ == 0 && e.err == nil {
		e.err = fmt.Errorf("%s: unknown type %q", s.Path, s.Type)
	}
	var flags byte
	if s.Replace {
		flags |= flagReplace
	}
	if s.Keep {
		flags |= flagKeep
	}
	if s.Mtime.IsZero() {
		flags |= flagNoMtime
	}
	if s.Atime.IsZero() {
		flags |= flagNoAtime
	}
	e.kind(kind)
	e.str(s.Path)
	e.raw([]byte{byte(typ), flags})
	e.uvarint(uint64(s.Mode))
	e.uvarint(uint64(s.UID))
	e.uvarint(uint64(s.GID))
	if flags&flagNoMtime == 0 {
		e.time(s.Mtime)
	}
	if flags&flagNoAtime == 0 {
		e.time(s.Atime)
	}
	switch s.Type {
	case "symlink", "link":
		e.str(s.Target)
	case "file":
		if !s.Keep {
			e.bytes(s.Data)
		}
	}
}

// Read decodes a state file from r. maxBytes bounds the file and the
// contents it holds (0 means 1GiB); a bigger file is refused. Read
// checks only the format; what the state may hold (file counts and
// sizes, variables) is checked by vfs.Snapshot.Check, vfs.Delta.Check
// and interp.ImportState, or by ReadWithin as it decodes.
func Read(r io.Reader, maxBytes int64) (*File, error) {
	return ReadWithin(r, maxBytes, vfs.SnapLimits{})
}

// ReadWithin is Read that also refuses, while decoding, a file that
// holds more than lim allows (files, one file's size, all contents),
// so that a hostile file costs no more memory than the limits.
func ReadWithin(r io.Reader, maxBytes int64, lim vfs.SnapLimits) (*File, error) {
	if maxBytes <= 0 {
		maxBytes = 1 << 30
	}
	br := bufio.NewReaderSize(io.LimitReader(r, maxBytes+200), 64<<10)
	line1, err := readLine(br, 64)
	if err != nil {
		return nil, ErrNotState
	}
	name, ver, ok := strings.Cut(line1, " ")
	if !ok || name != magic {
		return nil, ErrNotState
	}
	v, err := strconv.Atoi(ver)
	if err != nil || v < 1 {
		return nil, fmt.Errorf("%w: bad version %q", ErrNotState, ver)
	}
	if v > Version {
		return nil, fmt.Errorf("%w: format version %d, this sandsh reads up to %d", ErrVersion, v, Version)
	}
	var f *File
	if v == 1 {
		f, err = readV1(br, maxBytes)
	} else {
		f, err = readV2(br, maxBytes, lim)
	}
	if err != nil {
		return nil, err
	}
	if f.Shell == nil {
		return nil, fmt.Errorf("%w: no shell state", ErrDamaged)
	}
	return f, nil
}

// errOver marks a file that is well-formed but holds more than allowed.
type errOver struct{ msg string }

func (e *errOver) Error() string { return e.msg }

func readV2(br *bufio.Reader, maxBytes int64, lim vfs.SnapLimits) (*File, error) {
	zr := s2.NewReader(br)
	// The contents are at most maxBytes (the caller's bound of the
	// filesystem); the records around them add little.
	budget := 2*maxBytes + 1<<20
	contents := maxBytes
	if lim.MaxBytes > 0 && lim.MaxBytes < contents {
		contents = lim.MaxBytes
	}
	d := &decoder{r: bufio.NewReaderSize(&io.LimitedReader{R: zr, N: budget}, 64<<10), lim: lim, budget: contents}
	f, err := d.file()
	if err == nil {
		// The end record must end the stream: no more records, no
		// bytes after it.
		if _, rerr := d.r.ReadByte(); rerr != io.EOF {
			err = errors.New("data after the end")
		}
	}
	if err != nil {
		var over *errOver
		if errors.As(err, &over) {
			return nil, fmt.Errorf("state file: %s", over.msg)
		}
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	return f, nil
}

type decoder struct {
	r       *bufio.Reader
	lim     vfs.SnapLimits
	budget  int64 // file contents still allowed
	entries int
	records uint64
}

func (d *decoder) file() (*File, error) {
	f := &File{}
	for {
		k, err := d.r.ReadByte()
		if err != nil {
			return nil, err
		}
		if k != recEnd {
			d.records++
			if d.records == 1 && k != recShell {
				return nil, errors.New("no shell state first")
			}
		}
		switch k {
		case recShell:
			if f.Shell != nil {
				return nil, errors.New("two shell states")
			}
			data, err := d.blob(d.budget + 1<<20)
			if err != nil {
				return nil, err
			}
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&f.Shell); err != nil || f.Shell == nil {
				return nil, fmt.Errorf("shell state: %v", err)
			}
		case recEntry:
			if f.Delta != nil {
				return nil, errors.New("a snapshot entry after the delta")
			}
			if f.FS == nil {
				f.FS = &vfs.Snapshot{}
			}
			e, err := d.entry()
			if err != nil {
				return nil, err
			}
			f.FS.Entries = append(f.FS.Entries, e)
		case recDelta:
			if f.Delta != nil {
				return nil, errors.New("two deltas")
			}
			f.Delta = &vfs.Delta{}
		case recRemoved:
			if f.Delta == nil {
				return nil, errors.New("a removed path outside a delta")
			}
			if err := d.count(); err != nil {
				return nil, err
			}
			p, err := d.str()
			if err != nil {
				return nil, err
			}
			f.Delta.Removed = append(f.Delta.Removed, p)
		case recDEntry:
			if f.Delta == nil {
				return nil, errors.New("a delta entry outside a delta")
			}
			e, err := d.entry()
			if err != nil {
				return nil, err
			}
			f.Delta.Entries = append(f.Delta.Entries, e)
		case recStamp:
			if err := d.count(); err != nil {
				return nil, err
			}
			var b vfs.BaseStamp
			if b.Path, err = d.str(); err == nil {
				b.Type, err = d.str()
			}
			if err == nil {
				b.Size, err = binary.ReadVarint(d.r)
			}
			if err == nil {
				_, err = io.ReadFull(d.r, b.Sum[:])
			}
			if err == nil {
				b.Target, err = d.str()
			}
			if err != nil {
				return nil, err
			}
			f.Base = append(f.Base, b)
		case recEnd:
			n, err := binary.ReadUvarint(d.r)
			if err != nil {
				return nil, err
			}
			if n != d.records {
				return nil, fmt.Errorf("%d records, the end says %d", d.records, n)
			}
			return f, nil
		default:
			return nil, fmt.Errorf("unknown record %q", k)
		}
	}
}

// count charges one more path against the limit of files.
func (d *decoder) count() error {
	d.entries++
	if max := d.lim.MaxFiles; max > 0 && d.entries > 10*max+10000 {
		return &errOver{fmt.Sprintf("more than %d files", max)}
	}
	return nil
}

func (d *decoder) str() (string, error) {
	b, err := d.blob(4096)
	return string(b), err
}

// blob reads a length and that many bytes, refusing a length over max.
// Big blobs grow as their bytes arrive, so that a forged length costs
// nothing before the data is really there.
func (d *decoder) blob(max int64) ([]byte, error) {
	n, err := binary.ReadUvarint(d.r)
	if err != nil {
		return nil, err
	}
	return d.blobN(n, max)
}

func (d *decoder) blobN(n uint64, max int64) ([]byte, error) {
	if n > uint64(max) {
		return nil, fmt.Errorf("a length of %d", n)
	}
	if n <= 16<<20 {
		b := make([]byte, n)
		_, err := io.ReadFull(d.r, b)
		return b, err
	}
	return readN(d.r, make([]byte, 0, 16<<20), int64(n))
}

func (d *decoder) time() (time.Time, error) {
	sec, err := binary.ReadVarint(d.r)
	if err != nil {
		return time.Time{}, err
	}
	ns, err := binary.ReadUvarint(d.r)
	if err != nil {
		return time.Time{}, err
	}
	if ns >= 1e9 {
		return time.Time{}, errors.New("bad time")
	}
	return time.Unix(sec, int64(ns)), nil
}

func (d *decoder) entry() (vfs.SnapEntry, error) {
	var e vfs.SnapEntry
	if err := d.count(); err != nil {
		return e, err
	}
	p, err := d.str()
	if err != nil {
		return e, err
	}
	e.Path = p
	var tf [2]byte
	if _, err := io.ReadFull(d.r, tf[:]); err != nil {
		return e, err
	}
	if tf[0] == 0 || int(tf[0]) >= len(entryTypes) || tf[1]&^(flagReplace|flagKeep|flagNoMtime|flagNoAtime) != 0 {
		return e, fmt.Errorf("%s: bad type or flags", p)
	}
	e.Type, e.Replace, e.Keep = entryTypes[tf[0]], tf[1]&flagReplace != 0, tf[1]&flagKeep != 0
	var ids [3]uint64
	for i := range ids {
		if ids[i], err = binary.ReadUvarint(d.r); err != nil {
			return e, err
		}
		if ids[i] > 1<<31-1 {
			return e, fmt.Errorf("%s: bad mode or owner", p)
		}
	}
	e.Mode, e.UID, e.GID = uint32(ids[0]), int(ids[1]), int(ids[2])
	if tf[1]&flagNoMtime == 0 {
		if e.Mtime, err = d.time(); err != nil {
			return e, err
		}
	}
	if tf[1]&flagNoAtime == 0 {
		if e.Atime, err = d.time(); err != nil {
			return e, err
		}
	}
	switch e.Type {
	case "symlink", "link":
		if e.Target, err = d.str(); err != nil {
			return e, err
		}
	case "file":
		if e.Keep {
			break
		}
		n, err := binary.ReadUvarint(d.r)
		if err != nil {
			return e, err
		}
		if m := d.lim.MaxFileSize; m > 0 && n > uint64(m) {
			return e, &errOver{fmt.Sprintf("%s: file bigger than %d bytes", p, m)}
		}
		if n > uint64(d.budget) {
			return e, &errOver{"files hold more than the limit of the filesystem"}
		}
		if e.Data, err = d.blobN(n, d.budget); err != nil {
			return e, err
		}
		d.budget -= int64(len(e.Data))
	}
	return e, nil
}

func readLine(br *bufio.Reader, max int) (string, error) {
	var sb strings.Builder
	for sb.Len() <= max {
		c, err := br.ReadByte()
		if err != nil {
			return "", err
		}
		if c == '\n' {
			return sb.String(), nil
		}
		sb.WriteByte(c)
	}
	return "", errors.New("line too long")
}
