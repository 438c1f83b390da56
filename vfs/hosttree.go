package vfs

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// ReadHostTree reads the host directory dir into a Snapshot whose "/" is
// dir, for --import. It never follows a symlink: links are copied as
// links (so inside the sandbox they resolve to sandbox paths, never to
// the host), and everything is read through os.Root, which no path
// escapes. Files that are neither regular, directories nor symlinks
// (sockets, FIFOs, devices) are skipped. Everything is owned by the
// sandbox user; setuid and setgid bits are dropped. A tree bigger than
// lim is refused whole. Each of skip (a slash path relative to dir) is
// left out, as NewImport leaves it out.
func ReadHostTree(ctx context.Context, dir string, lim SnapLimits, skip ...string) (*Snapshot, error) {
	skipped := skipSet(skip)
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	s := &Snapshot{}
	var bytes int64
	var walk func(rel string) error
	walk = func(rel string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if lim.MaxFiles > 0 && len(s.Entries) > lim.MaxFiles {
			return fmt.Errorf("%s: more than %d files", dir, lim.MaxFiles)
		}
		fi, err := root.Lstat(rel)
		if err != nil {
			return err
		}
		p := "/" + rel
		if rel == "." {
			p = "/"
		}
		// A path the sandbox cannot hold ends the walk where it is met:
		// a deep tree would otherwise cost memory with the square of its
		// depth before the snapshot's own check refused it.
		if len(p) >= maxPathLen {
			return fmt.Errorf("%s: path longer than %d bytes", ShortPath(p), maxPathLen-1)
		}
		e := SnapEntry{Path: p, Mode: UnixMode(fi.Mode()) &^ 0o6000, UID: DefaultUID, GID: DefaultGID, Mtime: fi.ModTime(), Atime: fi.ModTime()}
		switch {
		case fi.IsDir():
			e.Type = "dir"
			s.Entries = append(s.Entries, e)
			f, err := root.Open(rel)
			if err != nil {
				return err
			}
			room := -1
			if lim.MaxFiles > 0 {
				room = lim.MaxFiles - len(s.Entries) + 1
			}
			names, err := readNames(f, room, dir, lim.MaxFiles)
			f.Close()
			if err != nil {
				return err
			}
			slices.Sort(names)
			for _, n := range names {
				if skipped[path.Join(rel, n)] {
					continue
				}
				if err := walk(path.Join(rel, n)); err != nil {
					return err
				}
			}
			return nil
		case fi.Mode()&fs.ModeSymlink != 0:
			e.Type, e.Mode = "symlink", 0
			if e.Target, err = root.Readlink(rel); err != nil {
				return err
			}
			if e.Target == "" || len(e.Target) > maxPathLen {
				return nil
			}
		case fi.Mode().IsRegular():
			e.Type = "file"
			if lim.MaxFileSize > 0 && fi.Size() > lim.MaxFileSize {
				return fmt.Errorf("%s: bigger than %d bytes", path.Join(dir, rel), lim.MaxFileSize)
			}
			bytes += fi.Size()
			if lim.MaxBytes > 0 && bytes > lim.MaxBytes {
				return fmt.Errorf("%s: files hold more than %d bytes", dir, lim.MaxBytes)
			}
			f, err := root.OpenFile(rel, os.O_RDONLY|oNoFollow|oNonBlock, 0)
			if err != nil {
				return err
			}
			e.Data, err = io.ReadAll(io.LimitReader(f, fi.Size()))
			f.Close()
			if err != nil {
				return err
			}
		default:
			return nil
		}
		s.Entries = append(s.Entries, e)
		return nil
	}
	if err := walk("."); err != nil {
		return nil, err
	}
	return s, nil
}

// CheckHostTree is the totals check of a lazy --import (NewImport): it
// walks the host directory dir through os.Root, never following a
// symlink and only stating (no file is read), and fails if what a copy
// would hold (directories, regular files, symlinks) is more than lim
// allows, in the words ReadHostTree would use.
func CheckHostTree(ctx context.Context, dir string, lim SnapLimits, skip ...string) error {
	skipped := skipSet(skip)
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	files := 0
	var bytes int64
	var walk func(rel string) error
	walk = func(rel string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := root.Open(rel)
		if err != nil {
			return err
		}
		ents, err := f.ReadDir(-1)
		f.Close()
		if err != nil {
			return err
		}
		for _, e := range ents {
			p := path.Join(rel, e.Name())
			if skipped[p] {
				continue
			}
			switch typ := e.Type(); {
			case typ.IsDir():
			case typ.IsRegular():
				fi, err := e.Info()
				if errors.Is(err, fs.ErrNotExist) {
					continue // gone meanwhile
				}
				if err != nil {
					return err
				}
				if lim.MaxFileSize > 0 && fi.Size() > lim.MaxFileSize {
					return fmt.Errorf("%s: bigger than %d bytes", path.Join(dir, p), lim.MaxFileSize)
				}
				bytes += fi.Size()
				if lim.MaxBytes > 0 && bytes > lim.MaxBytes {
					return fmt.Errorf("%s: files hold more than %d bytes", dir, lim.MaxBytes)
				}
			case typ&fs.ModeSymlink != 0:
			default:
				continue // sockets, FIFOs, devices: not imported
			}
			files++
			if lim.MaxFiles > 0 && files > lim.MaxFiles {
				return fmt.Errorf("%s: more than %d files", dir, lim.MaxFiles)
			}
			if e.IsDir() {
				if err := walk(p); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(".")
}

// readNames reads the names of the open directory f, refusing more than
// room of them (room < 0: no limit) as soon as they are seen: a
// directory of millions of entries is never held whole.
func readNames(f *os.File, room int, dir string, maxFiles int) ([]string, error) {
	var names []string
	for {
		batch, err := f.Readdirnames(1024)
		names = append(names, batch...)
		if room >= 0 && len(names) > room {
			return nil, fmt.Errorf("%s: more than %d files", dir, maxFiles)
		}
		if errors.Is(err, io.EOF) || err == nil && len(batch) == 0 {
			return names, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// ShortPath shortens a path for a message: its first and last 40 bytes
// around the number of bytes left out.
func ShortPath(p string) string {
	if len(p) <= 100 {
		return p
	}
	return fmt.Sprintf("%s…(%d bytes)…%s", strings.ToValidUTF8(p[:40], ""), len(p)-80, strings.ToValidUTF8(p[len(p)-40:], ""))
}

// CheckExportDir refuses an export target that exists and is not an
// empty directory.
func CheckExportDir(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s exists and is not a directory", dir)
	}
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if names, _ := f.Readdirnames(1); len(names) > 0 {
		return fmt.Errorf("%s is not empty", dir)
	}
	return nil
}

// ExportTargetError is an export directory refused: not a directory,
// not empty, or swapped (for a symlink) while it was being opened.
type ExportTargetError struct{ Msg string }

func (e *ExportTargetError) Error() string { return e.Msg }

// openExportDir opens the export directory dir once, creating it when
// missing, and returns a handle everything is then written through. The
// last component is created and opened through an os.Root of its
// parent, and the handle is checked to be the very directory at that
// name (not a symlink's target, whatever a concurrent process swaps in
// between): a path checked and then opened again by name could be a
// symlink to elsewhere by the time it is opened.
func openExportDir(dir string) (*os.Root, error) {
	// Cleaned first: filepath.Dir("out/") is "out" itself.
	parent, base := filepath.Dir(filepath.Clean(dir)), filepath.Base(dir)
	if base == "." || base == ".." || base == "/" {
		return nil, &ExportTargetError{fmt.Sprintf("%s: not a directory name sandsh can create", dir)}
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	pr, err := os.OpenRoot(parent)
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	if err := pr.Mkdir(base, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	root, err := pr.OpenRoot(base)
	if err != nil {
		if fi, lerr := pr.Lstat(base); lerr == nil && !fi.IsDir() {
			return nil, &ExportTargetError{fmt.Sprintf("%s exists and is not a directory", dir)}
		}
		return nil, err
	}
	opened, err := root.Stat(".")
	if err == nil {
		var named fs.FileInfo
		named, err = pr.Lstat(base)
		if err == nil && (!named.IsDir() || !os.SameFile(opened, named)) {
			err = &ExportTargetError{fmt.Sprintf("%s was replaced while it was opened (a symlink?): refused", dir)}
		}
	}
	if err == nil {
		var f *os.File
		if f, err = root.Open("."); err == nil {
			names, _ := f.Readdirnames(1)
			f.Close()
			if len(names) > 0 {
				err = &ExportTargetError{fmt.Sprintf("%s is not empty", dir)}
			}
		}
	}
	if err != nil {
		root.Close()
		return nil, err
	}
	return root, nil
}

// WriteHostTree writes s (as TakeSnapshotAt made it) into the host
// directory dir, which must be new or empty: directories, files with
// their permissions (without setuid and setgid) and times, symlinks
// verbatim, hard links. Everything goes through os.Root, so nothing is
// written outside dir, whatever the links say.
func WriteHostTree(dir string, s *Snapshot) error {
	if err := s.Check(SnapLimits{}); err != nil {
		return err
	}
	root, err := openExportDir(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	rel := func(p string) string { return strings.TrimPrefix(p, "/") }
	for _, e := range s.Entries[1:] {
		p := rel(e.Path)
		switch e.Type {
		case "dir":
			err = root.Mkdir(p, 0o700)
		case "file":
			var f *os.File
			if f, err = root.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
				_, err = f.Write(e.Data)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
		case "symlink":
			err = root.Symlink(e.Target, p)
		case "link":
			err = root.Link(rel(e.Target), p)
		}
		if err != nil {
			return err
		}
	}
	for i := len(s.Entries) - 1; i >= 0; i-- {
		e := s.Entries[i]
		p := rel(e.Path)
		if p == "" {
			p = "."
		}
		if e.Type != "dir" && e.Type != "file" {
			continue
		}
		if err := root.Chmod(p, GoMode(e.Mode&^0o6000)); err != nil {
			return err
		}
		if err := root.Chtimes(p, e.Atime, e.Mtime); err != nil {
			return err
		}
	}
	return nil
}

// WriteTar writes s as a tar archive (gzip-compressed with gz) whose
// names are relative ("dir/", "dir/file"), with permissions (without
// setuid and setgid), times, symlinks and hard links.
func WriteTar(w io.Writer, s *Snapshot, gz bool) error {
	if err := s.Check(SnapLimits{}); err != nil {
		return err
	}
	var zw *gzip.Writer
	if gz {
		zw = gzip.NewWriter(w)
		w = zw
	}
	tw := tar.NewWriter(w)
	for _, e := range s.Entries[1:] {
		h := &tar.Header{Name: strings.TrimPrefix(e.Path, "/"), Mode: int64(e.Mode &^ 0o6000), Uid: e.UID, Gid: e.GID,
			ModTime: e.Mtime, Format: tar.FormatPAX}
		if e.UID == DefaultUID {
			h.Uname, h.Gname = DefaultUser, DefaultUser
		}
		switch e.Type {
		case "dir":
			h.Typeflag, h.Name = tar.TypeDir, h.Name+"/"
		case "file":
			h.Typeflag, h.Size = tar.TypeReg, int64(len(e.Data))
		case "symlink":
			h.Typeflag, h.Linkname, h.Mode = tar.TypeSymlink, e.Target, 0o777
		case "link":
			h.Typeflag, h.Linkname = tar.TypeLink, strings.TrimPrefix(e.Target, "/")
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if e.Type == "file" {
			if _, err := tw.Write(e.Data); err != nil {
				return err
			}
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if zw != nil {
		return zw.Close()
	}
	return nil
}
