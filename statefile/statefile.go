// Package statefile is the on-disk format of a saved sandsh session: the
// shell state (interp.State) and the filesystem (vfs.Snapshot) of a
// sandbox, versioned and checksummed so that a damaged, truncated,
// foreign or newer file is refused whole, never half-loaded.
//
// The format is two text lines and a payload:
//
//	sandsh-state 1\n
//	sha256:<64 hex digits> <payload length in bytes>\n
//	<payload: gzip-compressed JSON of File>
//
// The first line names the format and its version; the second the
// checksum and length of the payload, which Read checks before it
// decodes anything. The package reads and writes streams only: opening,
// creating and renaming host files is the caller's business.
package statefile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sandsh/sandsh/interp"
	"github.com/sandsh/sandsh/vfs"
)

// Version is the format version this package writes and the newest it
// reads.
const Version = 1

const magic = "sandsh-state"

// File is what a state file holds.
type File struct {
	Shell *interp.State `json:"shell"`
	FS    *vfs.Snapshot `json:"fs,omitempty"`
}

// Errors Read returns, wrapped with details; test with errors.Is.
var (
	ErrNotState = errors.New("not a sandsh state file")
	ErrVersion  = errors.New("state file from a newer sandsh")
	ErrDamaged  = errors.New("state file is damaged")
)

// Write encodes f onto w.
func Write(w io.Writer, f *File) error {
	var payload bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&payload, gzip.BestSpeed)
	if err := json.NewEncoder(zw).Encode(f); err != nil {
		return fmt.Errorf("state file: encode: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("state file: encode: %w", err)
	}
	sum := sha256.Sum256(payload.Bytes())
	if _, err := fmt.Fprintf(w, "%s %d\nsha256:%s %d\n", magic, Version, hex.EncodeToString(sum[:]), payload.Len()); err != nil {
		return err
	}
	_, err := w.Write(payload.Bytes())
	return err
}

// Read decodes a state file from r. maxBytes bounds both the payload and
// the decoded JSON (0 means 1GiB); a bigger file is refused. Read checks
// only the format; what the state may hold (file counts and sizes,
// variables) is checked by vfs.Snapshot.Check and interp.ImportState.
func Read(r io.Reader, maxBytes int64) (*File, error) {
	if maxBytes <= 0 {
		maxBytes = 1 << 30
	}
	br := bufio.NewReader(io.LimitReader(r, maxBytes+200))
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
	line2, err := readLine(br, 128)
	if err != nil {
		return nil, fmt.Errorf("%w: truncated header", ErrDamaged)
	}
	sumHex, lenText, ok := strings.Cut(strings.TrimPrefix(line2, "sha256:"), " ")
	want, herr := hex.DecodeString(sumHex)
	n, nerr := strconv.ParseInt(lenText, 10, 64)
	if !ok || !strings.HasPrefix(line2, "sha256:") || herr != nil || len(want) != sha256.Size || nerr != nil || n < 0 {
		return nil, fmt.Errorf("%w: bad checksum line", ErrDamaged)
	}
	if n > maxBytes {
		return nil, fmt.Errorf("state file: payload of %d bytes is over the %d-byte limit", n, maxBytes)
	}
	payload := make([]byte, 0, min(n, 1<<20))
	payload, err = readN(br, payload, n)
	if err != nil {
		return nil, fmt.Errorf("%w: truncated (%v)", ErrDamaged, err)
	}
	if extra, _ := br.Peek(1); len(extra) > 0 {
		return nil, fmt.Errorf("%w: data after the payload", ErrDamaged)
	}
	got := sha256.Sum256(payload)
	if !bytes.Equal(got[:], want) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrDamaged)
	}
	zr, err := gzip.NewReader(bytes.NewReader(payload))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	dec := json.NewDecoder(io.LimitReader(zr, maxBytes*2+1<<20))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	if f.Shell == nil {
		return nil, fmt.Errorf("%w: no shell state", ErrDamaged)
	}
	return &f, nil
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

// readN reads exactly n bytes, growing buf as data arrives so that a
// forged length costs nothing before the bytes are really there.
func readN(r io.Reader, buf []byte, n int64) ([]byte, error) {
	chunk := make([]byte, 64<<10)
	for int64(len(buf)) < n {
		k, err := r.Read(chunk[:min(int64(len(chunk)), n-int64(len(buf)))])
		buf = append(buf, chunk[:k]...)
		if err != nil {
			if int64(len(buf)) == n {
				break
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return buf, err
		}
	}
	return buf, nil
}
