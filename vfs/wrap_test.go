package vfs

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"
)

func TestReadOnly(t *testing.T) {
	m := NewMem()
	mustWrite(t, m, "/d/f", "data")
	m.SymlinkIfPossible("f", "/d/l")
	ro := ReadOnly(m)
	runScript(t, ro, `
		read /d/f => data
		read /d/l => data
		readlink /d/l => f
		ls /d => f l
		lstat /d/l => l
		mkdirall /d
		rmall /missing
		write /d/f x => EROFS
		write /d/new x => EROFS
		append /d/f x => EROFS
		mkdir /e => EROFS
		mkdirall /e/f => EROFS
		rm /d/f => EROFS
		rmall /d => EROFS
		rename /d/f /d/g => EROFS
		symlink x /d/s => EROFS
		link /d/f /d/h => EROFS
		chmod /d/f 600 => EROFS
		trunc /d/f 0 => EROFS
	`)
	wantErrno(t, ro.Chown("/d/f", 0, 0), syscall.EROFS)
	wantErrno(t, ro.Chtimes("/d/f", time.Now(), time.Now()), syscall.EROFS)
	_, err := ro.Create("/d/f")
	wantErrno(t, err, syscall.EROFS)
	runScript(t, m, "read /d/f => data")
}

func TestLimit(t *testing.T) {
	for _, f := range []fsFactory{allFS()[0], allFS()[2]} {
		t.Run(f.name, func(t *testing.T) {
			l := Limit(f.new(t), WithMaxBytes(10), WithMaxFileSize(8), WithMaxFiles(4))
			usage := func() (int64, int) { return l.(*limitFS).Usage() }
			runScript(t, l, `
				write /a 12345
				append /a 678
				append /a 9 => EFBIG
				read /a => 12345678
				write /b 123 => ENOSPC
				read /b => 12
				trunc /b 5 => ENOSPC
				trunc /b 1
				write /c x
				mkdir /d
				mkdir /e => ENOSPC
				write /f x => ENOSPC
				symlink a /l => ENOSPC
			`)
			if b, n := usage(); b != 10 || n != 4 {
				t.Fatalf("usage %d bytes %d files", b, n)
			}
			runScript(t, l, `
				rm /a
				write /b 1234567
				mkdirall /d/x
				rmall /d
				write /e 1
			`)
			if b, n := usage(); b != 9 || n != 3 {
				t.Fatalf("usage after removals %d bytes %d files", b, n)
			}
			// WriteAt past the end charges the hole too.
			fh, err := l.OpenFile("/e", os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			n, err := fh.WriteAt([]byte("zz"), 1)
			fh.Close()
			if n != 1 || errnoOf(err) != syscall.ENOSPC {
				t.Fatalf("WriteAt at the limit: %d %v", n, err)
			}
			// Renaming onto a file frees the replaced one.
			if err := l.Rename("/e", "/c"); err != nil {
				t.Fatal(err)
			}
			if b, n := usage(); b != 9 || n != 2 {
				t.Fatalf("usage after rename %d bytes %d files", b, n)
			}
			if got := readAll(t, l, "/c"); got != "1z" {
				t.Fatalf("/c = %q", got)
			}
			if err := afero.WriteFile(l, "/c", nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if b, _ := usage(); b != 7 {
				t.Fatalf("O_TRUNC did not give space back: %d", b)
			}
		})
	}
}
