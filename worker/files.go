package worker

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"

	"github.com/sandsh/sandsh/vfs"
)

// The file operations go through the shell's own view of the files: the
// script's user and permissions, the policy's paths and the audit log.

// readFile reads a file for the session, at most max bytes (maxFile,
// the session's file size limit, when 0).
func readFile(fsys vfs.FS, cwd, name string, max, maxFile int64) ([]byte, error) {
	f, err := fsys.Open(vfs.Clean(cwd, name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s: is a directory", name)
	}
	if max <= 0 {
		max = maxFile
	}
	if max <= 0 {
		max = 1 << 30
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: file bigger than %d bytes", name, max)
	}
	return data, nil
}

// writeFile creates or replaces a file for the session.
func writeFile(fsys vfs.FS, cwd, name string, data []byte, perm fs.FileMode) error {
	f, err := fsys.OpenFile(vfs.Clean(cwd, name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// mkdirAll creates a directory and its parents for the session.
func mkdirAll(fsys vfs.FS, cwd, name string, perm fs.FileMode) error {
	return fsys.MkdirAll(vfs.Clean(cwd, name), perm)
}

// readDir lists a directory for the session, sorted by name.
func readDir(fsys vfs.FS, cwd, name string) ([]DirEntry, error) {
	dir := vfs.Clean(cwd, name)
	f, err := fsys.Open(dir)
	if err != nil {
		return nil, err
	}
	list, err := f.Readdir(-1)
	f.Close()
	if err != nil {
		return nil, err
	}
	out := make([]DirEntry, 0, len(list))
	for _, fi := range list {
		e := DirEntry{Name: fi.Name(), Size: fi.Size(), Mode: fi.Mode()}
		if fi.Mode()&fs.ModeSymlink != 0 {
			e.Target, _ = fsys.ReadlinkIfPossible(dir + "/" + fi.Name())
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
