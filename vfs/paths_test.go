package vfs

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// pathsFixture: /pub is readable, /w writable (and readable), /secret
// neither; every file starts with known content.
func pathsFixture(t *testing.T) (*MemFS, FS, *[]string) {
	t.Helper()
	m := NewMem()
	mustWrite(t, m, "/pub/a", "pub")
	mustWrite(t, m, "/pub/sub/b", "pubsub")
	mustWrite(t, m, "/secret/s", "secret")
	mustWrite(t, m, "/w/own", "mine")
	mustWrite(t, m, "/wide/x", "x") // a sibling whose name starts like /w
	var mu sync.Mutex
	var denials []string
	p := RestrictPaths(m, PathRules{Read: []string{"/pub/"}, Write: []string{"/w"},
		Denied: func(op, name, resolved, access string) {
			mu.Lock()
			denials = append(denials, op+" "+name+" "+resolved+" "+access)
			mu.Unlock()
		}})
	return m, p, &denials
}

func TestRestrictPaths(t *testing.T) {
	m, p, denials := pathsFixture(t)
	runScript(t, p, `
		read /pub/a => pub
		read /w/own => mine
		read /secret/s => EACCES
		read /wide/x => EACCES
		ls /secret => EACCES
		ls /pub => a sub
		ls / => EACCES
		# metadata is not restricted (as under Landlock)
		stat /secret/s => f6
		stat /secret => d
		write /pub/a x => EACCES
		append /pub/a x => EACCES
		trunc /pub/a 0 => EACCES
		write /pub/new x => EACCES
		excl /pub/new => EACCES
		write /secret/s x => EACCES
		write /wide/x y => EACCES
		mkdir /pub/d => EACCES
		mkdirall /pub/d/e => EACCES
		mkdirall /pub/sub
		rm /pub/a => EACCES
		rmall /pub => EACCES
		rmall /pub/missing
		chmod /pub/a 777 => EACCES
		write /w/new data
		read /w/new => data
		mkdirall /w/x/y/z
		stat /w/x/y/z => d

		# a symlink in the writable directory into a read-only one
		symlink /pub/a /w/l
		read /w/l => pub
		write /w/l x => EACCES
		append /w/l x => EACCES
		chmod /w/l 777 => EACCES
		rm /w/l
		# ... with a relative target and ..
		symlink ../pub/a /w/r
		write /w/r x => EACCES
		symlink ../pub /w/dir
		write /w/dir/new x => EACCES
		mkdir /w/dir/new => EACCES
		rename /w/own /w/dir/own => EACCES
		# ... through a chain, and as a directory component
		symlink dir /w/chain
		write /w/chain/a x => EACCES
		symlink ../pub/sub/../../secret /w/dir2
		read /w/dir2/s => EACCES
		symlink /secret/s /w/sl
		read /w/sl => EACCES
		# a dangling link whose target would be created in /pub
		symlink /pub/created /w/dangling
		write /w/dangling x => EACCES
		stat /pub/created => ENOENT

		# rename out of and into the read-only directory
		rename /pub/a /w/stolen => EACCES
		rename /w/own /pub/planted => EACCES
		rename /pub/sub /w/sub => EACCES
		rename /secret /w/secret => EACCES
		# renaming the link itself is fine: it is not followed
		rename /w/dir /w/dir3
		readlink /w/dir3 => ../pub
		# a hard link to a read-only file would make it writable
		link /pub/a /w/hard => EACCES
		link /w/own /pub/hard => EACCES
		link /w/own /w/hard2
		read /pub/a => pub
	`)
	for f, want := range map[string]string{"/pub/a": "pub", "/pub/sub/b": "pubsub", "/secret/s": "secret", "/wide/x": "x"} {
		if b, err := afero.ReadFile(m, f); err != nil || string(b) != want {
			t.Errorf("%s changed: %q %v", f, b, err)
		}
	}
	for _, f := range []string{"/pub/created", "/pub/new", "/pub/d", "/pub/planted", "/pub/hard", "/w/stolen"} {
		if _, err := Lstat(m, f); err == nil {
			t.Errorf("%s was created", f)
		}
	}
	joined := strings.Join(*denials, "\n")
	for _, want := range []string{
		"open /secret/s /secret/s read",
		"open /w/l /pub/a write",
		"open /w/dangling /pub/created write",
		"link /pub/a /pub/a write",
		"rename /pub/a /pub/a write",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("no denial %q in\n%s", want, joined)
		}
	}
}

// The error names the caller's path, not the resolved one, and a file or
// FileInfo reached through a link answers to the caller's name.
func TestRestrictPathsNames(t *testing.T) {
	_, p, _ := pathsFixture(t)
	if err := p.SymlinkIfPossible("/pub/a", "/w/l"); err != nil {
		t.Fatal(err)
	}
	_, err := p.OpenFile("/w/l", os.O_WRONLY, 0)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != "/w/l" || !errors.Is(err, syscall.EACCES) {
		t.Fatalf("got %#v", err)
	}
	if err.Error() != "open /w/l: permission denied" {
		t.Errorf("message %q", err)
	}
	f, err := p.Open("/w/l")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Name() != "/w/l" {
		t.Errorf("file name %q", f.Name())
	}
	fi, err := p.Stat("/w/l")
	if err != nil || fi.Name() != "l" || fi.Size() != 3 {
		t.Errorf("stat: %v %v", fi, err)
	}
	_, err = p.Open("/w/l/x")
	if !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("open through a file: %v", err)
	}
	if err := p.SymlinkIfPossible("loop", "/w/loop"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Open("/w/loop"); !errors.Is(err, syscall.ELOOP) {
		t.Errorf("loop: %v", err)
	}
}

// A concurrent job swapping a writable directory for a link into the
// read-only one must never get a write through: resolution and use are
// one step for every operation that could be redirected.
func TestRestrictPathsRace(t *testing.T) {
	m, p, _ := pathsFixture(t)
	if err := p.Mkdir("/w/d", 0o755); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			p.RemoveAll("/w/d")
			if i%2 == 0 {
				p.SymlinkIfPossible("/pub", "/w/d")
			} else {
				p.Mkdir("/w/d", 0o755)
			}
		}
	}()
	deadline := time.Now().Add(300 * time.Millisecond)
	for time.Now().Before(deadline) {
		if f, err := p.OpenFile("/w/d/f", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644); err == nil {
			f.Close()
		}
		p.Rename("/w/own", "/w/d/own")
		p.Rename("/w/d/own", "/w/own")
		p.Chmod("/w/d/a", 0o777)
	}
	close(stop)
	wg.Wait()
	for _, f := range []string{"/pub/f", "/pub/own"} {
		if _, err := Lstat(m, f); err == nil {
			t.Errorf("%s was written through a swapped link", f)
		}
	}
	if fi, err := m.Stat("/pub/a"); err != nil || fi.Mode().Perm() == 0o777 {
		t.Errorf("/pub/a chmod-ed through a swapped link: %v %v", fi, err)
	}
}

// With only a read list, writing is allowed everywhere, and nothing
// outside the read list is readable, not even what was written there.
func TestRestrictPathsReadOnlyList(t *testing.T) {
	m := NewMem()
	mustWrite(t, m, "/pub/a", "pub")
	mustWrite(t, m, "/etc/x", "x")
	p := RestrictPaths(m, PathRules{Read: []string{"/pub"}})
	runScript(t, p, `
		read /pub/a => pub
		read /etc/x => EACCES
		write /etc/y y
		read /etc/y => EACCES
		write /pub/a new
		read /pub/a => new
	`)
}
