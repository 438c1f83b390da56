package statefile

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
)

// writeV1 writes f in the version 1 format, for the tests that old
// files still load.
func writeV1(w io.Writer, f *File) error {
	var payload bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&payload, gzip.BestSpeed)
	if err := json.NewEncoder(zw).Encode(f); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	sum := sha256.Sum256(payload.Bytes())
	if _, err := fmt.Fprintf(w, "%s 1\nsha256:%s %d\n", magic, hex.EncodeToString(sum[:]), payload.Len()); err != nil {
		return err
	}
	_, err := w.Write(payload.Bytes())
	return err
}
