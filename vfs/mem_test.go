package vfs

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// mustWrite creates name with data on fsys, and its parent directories.
func mustWrite(t *testing.T, fsys afero.Fs, name, data string) {
	t.Helper()
	if err := fsys.MkdirAll(path.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(fsys, name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func wantErrno(t *testing.T, err error, want syscall.Errno) {
	t.Helper()
	if got := errnoOf(err); got != want {
		t.Fatalf("got error %v, want %s", err, errnoName(want))
	}
}

// TestMemPermissions checks the kernel's permission rules for the
// non-root sandbox user (the view NewMem returns).
func TestMemPermissions(t *testing.T) {
	tests := []struct{ name, script string }{
		{"file 000", `
			write /f secret
			chmod /f 000
			read /f => EACCES
			openw /f => EACCES
			write /f x => EACCES
			stat /f => f6
			chmod /f 200
			openw /f
			read /f => EACCES
			chmod /f 400
			read /f => secret
			append /f more => EACCES
			rm /f
		`},
		{"dir 500 refuses entries", `
			mkdir /ro 500
			write /ro/x 1 => EACCES
			mkdir /ro/y => EACCES
			symlink a /ro/l => EACCES
			chmod /ro 755
			write /ro/x 1
			write /f 2
			chmod /ro 500
			rm /ro/x => EACCES
			rename /ro/x /x2 => EACCES
			rename /f /ro/f => EACCES
			link /f /ro/h => EACCES
			rmall /ro => EACCES
			read /ro/x => 1
			write /ro/x 3
			read /ro/x => 3
		`},
		{"dir without r or x", `
			mkdir /d
			write /d/x 1
			chmod /d 300
			opendir /d => EACCES
			ls /d => EACCES
			read /d/x => 1
			chmod /d 600
			ls /d => x
			read /d/x => EACCES
			stat /d/x => EACCES
			write /d/y 1 => EACCES
			chmod /d 755
			stat /d/x => f1
		`},
		{"search through symlink", `
			mkdir /d
			write /d/x 1
			symlink /d/x /l
			chmod /d 600
			read /l => EACCES
			lstat /l => l
			readlink /l => /d/x
		`},
		{"new file mode honoured after creation", `
			excl /f
			chmod /f 444
			openw /f => EACCES
			read /f =>
		`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runScript(t, NewMem(), tc.script) })
	}
}

// TestMemPermissionsOwnership covers rules that involve several users.
func TestMemPermissionsOwnership(t *testing.T) {
	user := NewMem()
	root := user.As(Cred{UID: 0, GID: 0, Umask: 0o022})
	other := user.As(Cred{UID: 1001, GID: 1001, Umask: 0o022})

	// A newly created file belongs to its creator.
	mustWrite(t, user, "/mine", "x")
	fi, _ := user.Stat("/mine")
	if m := MetaOf(fi); m.UID != DefaultUID || m.GID != DefaultGID {
		t.Fatalf("owner %d:%d, want %d:%d", m.UID, m.GID, DefaultUID, DefaultGID)
	}

	// Root-owned directories are read-only for the user; root bypasses.
	if err := root.Mkdir("/sys", 0o755); err != nil {
		t.Fatal(err)
	}
	wantErrno(t, user.Mkdir("/sys/x", 0o755), syscall.EACCES)
	if err := root.Mkdir("/sys/x", 0o000); err != nil {
		t.Fatal(err)
	}
	if _, err := root.Open("/sys/x"); err != nil {
		t.Fatalf("root should open a 000 directory: %v", err)
	}

	// Only the owner may chmod; only root may give files away.
	wantErrno(t, other.Chmod("/mine", 0o777), syscall.EPERM)
	wantErrno(t, user.Chown("/mine", 1001, -1), syscall.EPERM)
	wantErrno(t, user.Chown("/mine", -1, 0), syscall.EPERM)
	wantErrno(t, other.Chown("/mine", -1, 1001), syscall.EPERM)
	if err := user.Chown("/mine", -1, DefaultGID); err != nil {
		t.Fatalf("chown to own group: %v", err)
	}
	if err := root.Chown("/mine", 1001, 1001); err != nil {
		t.Fatal(err)
	}
	fi, _ = user.Stat("/mine")
	if m := MetaOf(fi); m.UID != 1001 || m.GID != 1001 {
		t.Fatalf("after chown: %d:%d", m.UID, m.GID)
	}
	// Now "other" owns it and mode 644 keeps the user from writing.
	_, err := user.OpenFile("/mine", os.O_WRONLY, 0)
	wantErrno(t, err, syscall.EACCES)
	wantErrno(t, user.Chtimes("/mine", time.Now(), time.Now()), syscall.EPERM)

	// The group class applies when the uid differs but the gid matches.
	mustWrite(t, root, "/grp", "g")
	if err := root.Chown("/grp", 1001, DefaultGID); err != nil {
		t.Fatal(err)
	}
	wantErrno(t, user.Chmod("/grp", 0o777), syscall.EPERM)
	if err := other.Chmod("/grp", 0o060); err != nil {
		t.Fatal(err)
	}
	if _, err := afero.ReadFile(user, "/grp"); err != nil {
		t.Fatalf("group read: %v", err)
	}
	// ... but the owner class is exclusive, even when it grants less.
	_, err = afero.ReadFile(other, "/grp")
	wantErrno(t, err, syscall.EACCES)

	// Hard links to files one may not write are refused
	// (fs.protected_hardlinks).
	mustWrite(t, root, "/rootfile", "r")
	wantErrno(t, user.LinkIfPossible("/rootfile", "/hl"), syscall.EPERM)
}

// TestMemSticky checks /tmp-style sticky directories.
func TestMemSticky(t *testing.T) {
	user := NewMem()
	root := user.As(Cred{UID: 0, GID: 0})
	other := user.As(Cred{UID: 1001, GID: 1001, Umask: 0o022})
	if err := root.Mkdir("/tmp", 0o777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	runScript(t, user, "mode /tmp => 1777")
	mustWrite(t, user, "/tmp/a", "a")
	mustWrite(t, other, "/tmp/b", "b")
	wantErrno(t, other.Remove("/tmp/a"), syscall.EPERM)
	wantErrno(t, other.Rename("/tmp/a", "/tmp/c"), syscall.EPERM)
	wantErrno(t, user.Rename("/tmp/a", "/tmp/b"), syscall.EPERM)
	if err := other.Remove("/tmp/b"); err != nil {
		t.Fatal(err)
	}
	if err := root.Remove("/tmp/a"); err != nil {
		t.Fatal(err)
	}
}

// TestMemSetgidAndUmask checks creation modes.
func TestMemSetgidAndUmask(t *testing.T) {
	m := NewMem(WithUmask(0o077))
	runScript(t, m, `
		write /f x
		mode /f => 600
		mkdir /d 777
		mode /d => 700
	`)
	root := m.As(Cred{UID: 0, GID: 0})
	if err := root.Mkdir("/shared", 0o777|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	if err := root.Chown("/shared", 0, 50); err != nil {
		t.Fatal(err)
	}
	if err := m.Mkdir("/shared/sub", 0o755); err != nil {
		t.Fatal(err)
	}
	fi, _ := m.Stat("/shared/sub")
	if MetaOf(fi).GID != 50 || fi.Mode()&fs.ModeSetgid == 0 {
		t.Fatalf("setgid dir: gid %d mode %v", MetaOf(fi).GID, fi.Mode())
	}
	if m.Cred().Umask != 0o077 {
		t.Fatalf("Cred().Umask = %o", m.Cred().Umask)
	}
}

func TestMemErrorsAreStandard(t *testing.T) {
	m := NewMem()
	_, err := m.Open("/nope")
	if !errors.Is(err, fs.ErrNotExist) || !os.IsNotExist(err) {
		t.Fatalf("Open missing: %v is not ErrNotExist", err)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != "open" || pe.Path != "/nope" {
		t.Fatalf("Open missing: %#v", err)
	}
	if err.Error() != "open /nope: no such file or directory" {
		t.Fatalf("message %q", err)
	}
	mustWrite(t, m, "/f", "")
	err = m.Mkdir("/f", 0o755)
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("Mkdir existing: %v", err)
	}
	err = m.Rename("/missing", "/x")
	var le *os.LinkError
	if !errors.As(err, &le) || le.Op != "rename" || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Rename missing: %#v", err)
	}
	m.Mkdir("/ro", 0o555)
	if err := m.Mkdir("/ro/x", 0o755); !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("Mkdir in 555: %v", err)
	}
	wantErrno(t, m.Mkdir("/"+strings.Repeat("n", 256), 0o755), syscall.ENAMETOOLONG)
	wantErrno(t, m.SymlinkIfPossible(strings.Repeat("x", 4096), "/l"), syscall.ENAMETOOLONG)
	wantErrno(t, m.SymlinkIfPossible("", "/l"), syscall.ENOENT)
	_, err = m.Stat("")
	wantErrno(t, err, syscall.ENOENT)
	wantErrno(t, m.Remove("/"), syscall.EBUSY)
	wantErrno(t, m.Remove("/ro/."), syscall.EINVAL)
	wantErrno(t, m.Rename("/ro", "/"), syscall.EBUSY)
}

func TestMemRelativePaths(t *testing.T) {
	m := NewMem()
	mustWrite(t, m, "rel", "r")
	runScript(t, m, `
		read /rel => r
		read rel => r
		read ./rel => r
		read //rel => r
		mkdirall a/b
		stat /a/b => d
	`)
}

func TestMemOpenFlags(t *testing.T) {
	m := NewMem()
	mustWrite(t, m, "/f", "hello")
	m.SymlinkIfPossible("f", "/l")
	m.Mkdir("/d", 0o755)

	tests := []struct {
		name string
		path string
		flag int
		want syscall.Errno
	}{
		{"nofollow on symlink", "/l", os.O_RDONLY | syscall.O_NOFOLLOW, syscall.ELOOP},
		{"nofollow on file", "/f", os.O_RDONLY | syscall.O_NOFOLLOW, 0},
		{"directory flag on file", "/f", os.O_RDONLY | syscall.O_DIRECTORY, syscall.ENOTDIR},
		{"directory flag on dir", "/d", os.O_RDONLY | syscall.O_DIRECTORY, 0},
		{"excl on symlink", "/l", os.O_WRONLY | os.O_CREATE | os.O_EXCL, syscall.EEXIST},
		{"creat on dir", "/d", os.O_RDONLY | os.O_CREATE, syscall.EISDIR},
		{"trunc on dir", "/d", os.O_RDONLY | os.O_TRUNC, syscall.EISDIR},
		{"rdwr on dir", "/d", os.O_RDWR, syscall.EISDIR},
		{"missing", "/m", os.O_RDWR, syscall.ENOENT},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := m.OpenFile(tc.path, tc.flag, 0o644)
			if f != nil {
				f.Close()
			}
			if tc.want == 0 && err != nil || tc.want != 0 {
				wantErrno(t, err, tc.want)
			}
		})
	}

	// O_RDONLY|O_TRUNC truncates, as on Linux.
	f, err := m.OpenFile("/f", os.O_RDONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	runScript(t, m, "stat /f => f0")
}

func TestMemFileIO(t *testing.T) {
	m := NewMem()
	f, err := m.OpenFile("/f", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("hello world"); err != nil {
		t.Fatal(err)
	}
	// Seek and read.
	if pos, err := f.Seek(-5, io.SeekEnd); err != nil || pos != 6 {
		t.Fatalf("Seek end: %d %v", pos, err)
	}
	buf := make([]byte, 10)
	n, err := f.Read(buf)
	if n != 5 || err != nil || string(buf[:n]) != "world" {
		t.Fatalf("Read: %d %v %q", n, err, buf[:n])
	}
	if n, err := f.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("Read at EOF: %d %v", n, err)
	}
	if _, err := f.Seek(-1, io.SeekStart); errnoOf(err) != syscall.EINVAL {
		t.Fatalf("negative seek: %v", err)
	}
	if _, err := f.Seek(0, 7); errnoOf(err) != syscall.EINVAL {
		t.Fatalf("bad whence: %v", err)
	}
	// ReadAt does not move the offset and reports a short read as EOF.
	if n, err := f.ReadAt(buf[:4], 2); n != 4 || err != nil || string(buf[:4]) != "llo " {
		t.Fatalf("ReadAt: %d %v %q", n, err, buf[:4])
	}
	if n, err := f.ReadAt(buf, 8); n != 3 || err != io.EOF {
		t.Fatalf("short ReadAt: %d %v", n, err)
	}
	if _, err := f.ReadAt(buf, -1); errnoOf(err) != syscall.EINVAL {
		t.Fatalf("negative ReadAt: %v", err)
	}
	if pos, _ := f.Seek(0, io.SeekCurrent); pos != 11 {
		t.Fatalf("offset moved to %d", pos)
	}
	// WriteAt past the end leaves a zero-filled hole.
	if _, err := f.WriteAt([]byte("!"), 14); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, m, "/f"); got != "hello world\x00\x00\x00!" {
		t.Fatalf("after WriteAt: %q", got)
	}
	// Shrink and regrow: the regrown part must read as zeros, not as the
	// old bytes still sitting in the buffer.
	if err := f.Truncate(2); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(6); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, m, "/f"); got != "he\x00\x00\x00\x00" {
		t.Fatalf("after truncate: %q", got)
	}
	if err := f.Truncate(-1); errnoOf(err) != syscall.EINVAL {
		t.Fatalf("negative truncate: %v", err)
	}
	// Writing at an offset beyond the end after a seek.
	f.Seek(8, io.SeekStart)
	f.Write([]byte("x"))
	if got := readAll(t, m, "/f"); got != "he\x00\x00\x00\x00\x00\x00x" {
		t.Fatalf("after seek+write: %q", got)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if f.Name() != "/f" {
		t.Fatalf("Name %q", f.Name())
	}
}

func readAll(t *testing.T, fsys afero.Fs, name string) string {
	t.Helper()
	b, err := afero.ReadFile(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMemHandleModes(t *testing.T) {
	m := NewMem()
	mustWrite(t, m, "/f", "abc")
	r, _ := m.Open("/f")
	if _, err := r.Write([]byte("x")); errnoOf(err) != syscall.EBADF {
		t.Fatalf("write on O_RDONLY: %v", err)
	}
	if err := r.Truncate(0); errnoOf(err) != syscall.EINVAL {
		t.Fatalf("truncate on O_RDONLY: %v", err)
	}
	if _, err := r.Readdir(-1); errnoOf(err) != syscall.ENOTDIR {
		t.Fatalf("readdir on file: %v", err)
	}
	r.Close()
	if err := r.Close(); !errors.Is(err, fs.ErrClosed) {
		t.Fatalf("double close: %v", err)
	}
	if _, err := r.Read(make([]byte, 1)); !errors.Is(err, fs.ErrClosed) {
		t.Fatalf("read after close: %v", err)
	}
	w, _ := m.OpenFile("/f", os.O_WRONLY, 0)
	if _, err := w.Read(make([]byte, 1)); errnoOf(err) != syscall.EBADF {
		t.Fatalf("read on O_WRONLY: %v", err)
	}
	w.Close()
	a, _ := m.OpenFile("/f", os.O_WRONLY|os.O_APPEND, 0)
	if _, err := a.WriteAt([]byte("x"), 0); err == nil {
		t.Fatal("WriteAt with O_APPEND succeeded")
	}
	// O_APPEND writes go to the end even after a seek.
	a.Seek(0, io.SeekStart)
	a.Write([]byte("d"))
	a.Close()
	if got := readAll(t, m, "/f"); got != "abcd" {
		t.Fatalf("append after seek: %q", got)
	}
	d, _ := m.Open("/")
	if _, err := d.Read(make([]byte, 1)); errnoOf(err) != syscall.EISDIR {
		t.Fatalf("read on dir: %v", err)
	}
	d.Close()
}

func TestMemReaddir(t *testing.T) {
	m := NewMem()
	for _, n := range []string{"zeta", "Alpha", "beta", "_x", "10", "9"} {
		mustWrite(t, m, "/d/"+n, n)
	}
	m.SymlinkIfPossible("beta", "/d/link")
	m.Mkdir("/d/sub", 0o755)
	f, err := m.Open("/d")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		t.Fatal(err)
	}
	want := "10 9 Alpha _x beta link sub zeta"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("Readdirnames = %q, want %q (byte order)", got, want)
	}
	// At the end: count <= 0 gives an empty slice and no error; count > 0
	// gives io.EOF.
	if rest, err := f.Readdirnames(-1); len(rest) != 0 || err != nil {
		t.Fatalf("Readdirnames at end: %v %v", rest, err)
	}
	if rest, err := f.Readdir(1); len(rest) != 0 || err != io.EOF {
		t.Fatalf("Readdir(1) at end: %v %v", rest, err)
	}
	// Seek to 0 restarts; batches of 3.
	f.Seek(0, io.SeekStart)
	var batches []int
	for {
		infos, err := f.Readdir(3)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		batches = append(batches, len(infos))
	}
	if len(batches) != 3 || batches[0] != 3 || batches[2] != 2 {
		t.Fatalf("batches %v", batches)
	}
	// Readdir entries are lstat infos; ReadDir types show the symlink.
	infos, err := afero.ReadDir(m, "/d")
	if err != nil {
		t.Fatal(err)
	}
	for _, fi := range infos {
		if fi.Name() == "link" && fi.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("Readdir link mode %v", fi.Mode())
		}
		if fi.Name() == "zeta" && fi.Size() != 4 {
			t.Fatalf("zeta size %d", fi.Size())
		}
	}
	g, _ := m.Open("/d")
	defer g.Close()
	ents, err := g.(fs.ReadDirFile).ReadDir(-1)
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]fs.FileMode{}
	for _, e := range ents {
		types[e.Name()] = e.Type()
	}
	if types["link"] != fs.ModeSymlink || types["sub"] != fs.ModeDir || types["zeta"] != 0 {
		t.Fatalf("ReadDir types %v", types)
	}
}

func TestMemUnlinkedOpenFile(t *testing.T) {
	m := NewMem()
	f, err := m.Create("/f")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("before")
	if err := m.Remove("/f"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Stat("/f"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("still there: %v", err)
	}
	if _, err := f.WriteString("+after"); err != nil {
		t.Fatalf("write after unlink: %v", err)
	}
	fi, err := f.Stat()
	if err != nil || fi.Size() != 12 || MetaOf(fi).Nlink != 0 {
		t.Fatalf("Stat after unlink: %v %v", fi, err)
	}
	f.Seek(0, io.SeekStart)
	b, _ := io.ReadAll(f)
	if string(b) != "before+after" {
		t.Fatalf("read back %q", b)
	}
	// The space stays in use until the last close.
	if bytes, files := m.Usage(); bytes != 12 || files != 1 {
		t.Fatalf("usage while open: %d %d", bytes, files)
	}
	f.Close()
	if bytes, files := m.Usage(); bytes != 0 || files != 0 {
		t.Fatalf("usage after close: %d %d", bytes, files)
	}
	// A file renamed while open keeps its handle too.
	g, _ := m.Create("/g")
	m.Rename("/g", "/h")
	g.WriteString("moved")
	g.Close()
	if got := readAll(t, m, "/h"); got != "moved" {
		t.Fatalf("renamed open file: %q", got)
	}
}

func TestMemLimits(t *testing.T) {
	t.Run("max bytes", func(t *testing.T) {
		m := NewMem(WithMaxBytes(10))
		f, _ := m.Create("/a")
		n, err := f.Write([]byte("0123456789abc"))
		if n != 10 || errnoOf(err) != syscall.ENOSPC {
			t.Fatalf("write: %d %v", n, err)
		}
		f.Close()
		if b, _ := m.Usage(); b != 10 {
			t.Fatalf("usage %d", b)
		}
		wantErrno(t, afero.WriteFile(m, "/b", []byte("x"), 0o644), syscall.ENOSPC)
		// Overwriting in place needs no new space.
		g, _ := m.OpenFile("/a", os.O_WRONLY, 0)
		if _, err := g.WriteAt([]byte("XY"), 0); err != nil {
			t.Fatal(err)
		}
		wantErrno(t, g.Truncate(11), syscall.ENOSPC)
		g.Close()
		// Freeing space makes room again.
		m.Remove("/a")
		mustWrite(t, m, "/b", "0123456789")
		// Truncating through O_TRUNC releases the bytes.
		mustWrite(t, m, "/b", "abc")
		if b, _ := m.Usage(); b != 3 {
			t.Fatalf("usage after rewrite %d", b)
		}
	})
	t.Run("max file size", func(t *testing.T) {
		m := NewMem(WithMaxFileSize(4))
		f, _ := m.Create("/a")
		n, err := f.Write([]byte("123456"))
		if n != 4 || errnoOf(err) != syscall.EFBIG {
			t.Fatalf("write: %d %v", n, err)
		}
		if _, err := f.Write([]byte("x")); errnoOf(err) != syscall.EFBIG {
			t.Fatalf("write at limit: %v", err)
		}
		wantErrno(t, f.Truncate(5), syscall.EFBIG)
		if _, err := f.WriteAt([]byte("x"), 1<<40); errnoOf(err) != syscall.EFBIG {
			t.Fatalf("huge WriteAt: %v", err)
		}
		f.Close()
		mustWrite(t, m, "/b", "1234")
	})
	t.Run("max files", func(t *testing.T) {
		m := NewMem(WithMaxFiles(3))
		mustWrite(t, m, "/a", "")
		m.Mkdir("/d", 0o755)
		m.SymlinkIfPossible("a", "/l")
		wantErrno(t, m.Mkdir("/e", 0o755), syscall.ENOSPC)
		wantErrno(t, m.SymlinkIfPossible("a", "/l2"), syscall.ENOSPC)
		_, err := m.Create("/c")
		wantErrno(t, err, syscall.ENOSPC)
		// Hard links are names, not inodes.
		if err := m.LinkIfPossible("/a", "/a2"); err != nil {
			t.Fatal(err)
		}
		if _, files := m.Usage(); files != 3 {
			t.Fatalf("files %d", files)
		}
		m.RemoveAll("/d")
		mustWrite(t, m, "/c", "")
	})
	t.Run("sparse truncate is bounded", func(t *testing.T) {
		m := NewMem(WithMaxBytes(1 << 20))
		f, _ := m.Create("/a")
		defer f.Close()
		wantErrno(t, f.Truncate(1<<40), syscall.ENOSPC)
	})
}

func TestMemMetaAndTimes(t *testing.T) {
	clock := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	now := func() time.Time { return clock }
	m := NewMem(WithClock(now))
	mustWrite(t, m, "/a", "x")
	mustWrite(t, m, "/b", "y")
	fa, _ := m.Stat("/a")
	fb, _ := m.Stat("/b")
	ma, mb := MetaOf(fa), MetaOf(fb)
	if ma.Ino == mb.Ino || ma.Ino == 0 {
		t.Fatalf("inode numbers %d %d", ma.Ino, mb.Ino)
	}
	if !fa.ModTime().Equal(clock) || !ma.Ctime.Equal(clock) || !ma.Atime.Equal(clock) {
		t.Fatalf("times %v %v %v", fa.ModTime(), ma.Ctime, ma.Atime)
	}
	if ma.Nlink != 1 || ma.UID != DefaultUID {
		t.Fatalf("meta %+v", ma)
	}
	// Sys returns a copy: mutating it changes nothing.
	fa.Sys().(*Meta).UID = 42
	if MetaOf(fa).UID != DefaultUID {
		t.Fatal("Sys is not a copy")
	}
	clock = clock.Add(time.Hour)
	at := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	mt := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := m.Chtimes("/a", at, mt); err != nil {
		t.Fatal(err)
	}
	fa, _ = m.Stat("/a")
	if !fa.ModTime().Equal(mt) || !MetaOf(fa).Atime.Equal(at) || !MetaOf(fa).Ctime.Equal(clock) {
		t.Fatalf("after Chtimes: %v %+v", fa.ModTime(), MetaOf(fa))
	}
	// A zero time leaves that time alone.
	m.Chtimes("/a", time.Time{}, time.Time{})
	fa, _ = m.Stat("/a")
	if !fa.ModTime().Equal(mt) || !MetaOf(fa).Atime.Equal(at) {
		t.Fatal("zero times changed the file")
	}
	// Writing bumps mtime and the parent's mtime follows new entries.
	clock = clock.Add(time.Hour)
	mustWrite(t, m, "/a", "z")
	mustWrite(t, m, "/d/new", "")
	fa, _ = m.Stat("/a")
	root, _ := m.Stat("/d")
	if !fa.ModTime().Equal(clock) || !root.ModTime().Equal(clock) {
		t.Fatalf("mtime not updated: %v %v", fa.ModTime(), root.ModTime())
	}
	// Directory link counts: 2 + subdirectories.
	m.MkdirAll("/d/s1", 0o755)
	m.MkdirAll("/d/s2/x", 0o755)
	runScript(t, m, `
		nlink /d => 4
		nlink /d/s2 => 3
		rmall /d/s2
		nlink /d => 3
		stat / => d
	`)
	fi, _ := m.Stat("/")
	if fi.Name() != "/" || !fi.IsDir() || fi.Size() != 4096 {
		t.Fatalf("root info %q %v %d", fi.Name(), fi.IsDir(), fi.Size())
	}
}

func TestMemRemoveAllPartial(t *testing.T) {
	m := NewMem()
	root := m.As(Cred{})
	m.MkdirAll("/d/keep", 0o755)
	mustWrite(t, m, "/d/a", "")
	mustWrite(t, m, "/d/keep/x", "")
	m.Chmod("/d/keep", 0o555)
	err := m.RemoveAll("/d")
	wantErrno(t, err, syscall.EACCES)
	runScript(t, m, `
		ls /d => keep
		ls /d/keep => x
	`)
	if err := root.RemoveAll("/d"); err != nil {
		t.Fatal(err)
	}
	// RemoveAll of / empties the tree but keeps the root.
	mustWrite(t, m, "/x/y", "")
	if err := m.RemoveAll("/"); err != nil {
		t.Fatal(err)
	}
	runScript(t, m, "ls / =>")
	if b, f := m.Usage(); b != 0 || f != 0 {
		t.Fatalf("usage after RemoveAll: %d %d", b, f)
	}
}

func TestMemSymlinkSemantics(t *testing.T) {
	m := NewMem()
	// Physical "..": /a/link/.. is the parent of the link's target, not /a.
	m.MkdirAll("/a", 0o755)
	m.MkdirAll("/x/y", 0o755)
	mustWrite(t, m, "/x/marker", "x")
	m.SymlinkIfPossible("/x/y", "/a/link")
	runScript(t, m, `
		read /a/link/../marker => x
		lstat /a/link => l
		stat /a/link/. => d
		mkdir /a/link/new
		stat /x/y/new => d
		rename /a/link /a/moved
		stat /a/moved/new => d
	`)
	// Symlinks to directories can be renamed and replaced like files.
	m.SymlinkIfPossible("/x", "/a/l2")
	if err := m.Rename("/a/l2", "/a/moved"); err != nil {
		t.Fatal(err)
	}
	runScript(t, m, "readlink /a/moved => /x")
}

func TestMemFileInfoSnapshot(t *testing.T) {
	m := NewMem()
	mustWrite(t, m, "/f", "abc")
	fi, _ := m.Stat("/f")
	mustWrite(t, m, "/f", "abcdef")
	if fi.Size() != 3 {
		t.Fatal("FileInfo changed after the file did")
	}
	var buf bytes.Buffer
	f, _ := m.Open("/f")
	io.Copy(&buf, f)
	f.Close()
	if buf.String() != "abcdef" {
		t.Fatalf("io.Copy %q", buf.String())
	}
}
