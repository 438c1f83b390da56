package statefile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// readV1 decodes the rest of a version 1 file (after its first line):
//
//	sha256:<64 hex digits> <payload length in bytes>\n
//	<payload: gzip-compressed JSON of File>
//
// sandsh no longer writes it; it reads it so that saved sessions still
// load.
func readV1(br *bufio.Reader, maxBytes int64) (*File, error) {
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
	return &f, nil
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
