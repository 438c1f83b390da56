package guard

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnread: a regular file gets its bytes back; a pipe and an in-memory
// document (what a here-document is to bash: a pipe) do not move.
func TestUnread(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 8)
	if n, _ := io.ReadFull(f, buf); n != 8 {
		t.Fatalf("read %d", n)
	}
	Unread(f, 4)
	Unread(f, 0)
	rest, _ := io.ReadAll(f)
	if string(rest) != "two\n" {
		t.Errorf("regular file: after Unread read %q, want %q", rest, "two\n")
	}

	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	pw.Write([]byte("ab"))
	pw.Close()
	pr.Read(buf[:1])
	Unread(pr, 1) // ESPIPE: ignored
	if rest, _ := io.ReadAll(pr); string(rest) != "b" {
		t.Errorf("pipe: read %q after Unread, want %q", rest, "b")
	}

	sr := strings.NewReader("xy")
	sr.Read(buf[:1])
	Unread(sr, 1)
	if rest, _ := io.ReadAll(sr); string(rest) != "y" {
		t.Errorf("document: read %q after Unread, want %q", rest, "y")
	}
}
