package builtins

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/spf13/afero"

	"github.com/sandsh/sandsh/vfs"
)

const dataZipUsage = `Usage: zip [-options] zipfile list
  -r   recurse into directories
  -q   quiet operation
  -j   junk (don't record) directory names
  -0   store only   -1 compress faster   -9 compress better
  -d   delete entries in zipfile
`

// dataZipEntry is one member to write.
type dataZipEntry struct {
	hdr  zip.FileHeader
	data []byte
	path string // sandbox path to read from, if data is nil
	verb string // "adding" or "updating" for new members, "" for kept ones
}

var zipGetopt = Getopt{Short: "rqjd0123456789Dv", Long: []string{"recurse-paths", "quiet", "junk-paths", "delete"},
	LongAlias: map[string]string{"recurse-paths": "r", "quiet": "q", "junk-paths": "j", "delete": "d"}}

func runZip(ctx context.Context, env *Env, args []string) int {
	g := zipGetopt
	opts, ops, err := g.Parse(args[1:])
	if err != nil {
		fmt.Fprintf(env.Stderr, "zip error: Invalid command arguments (%v)\n", err)
		return 16
	}
	recurse, quiet, junk, del, noDirs := false, false, false, false, false
	level := 6
	for _, o := range opts {
		switch o.Name {
		case "r":
			recurse = true
		case "q":
			quiet = true
		case "j":
			junk = true
		case "d":
			del = true
		case "D":
			noDirs = true
		case "v":
		default:
			level = int(o.Name[0] - '0')
		}
	}
	if len(ops) < 1 {
		fmt.Fprint(env.Stderr, dataZipUsage)
		return 16
	}
	archive := ops[0]
	if !strings.HasSuffix(archive, ".zip") && path.Ext(archive) == "" {
		archive += ".zip"
	}
	out := dataWriter(env)
	defer out.Flush()
	say := func(format string, a ...any) {
		if !quiet {
			fmt.Fprintf(out, format, a...)
		}
	}
	// Existing members are kept; new ones replace them by name.
	var entries []*dataZipEntry
	index := map[string]int{}
	if b, err := afero.ReadFile(env.FS, env.Abs(archive)); err == nil {
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			out.Flush()
			fmt.Fprintf(env.Stderr, "\nzip error: Zip file structure invalid (%s)\n", archive)
			return 3
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				continue
			}
			data, _ := io.ReadAll(rc)
			rc.Close()
			index[f.Name] = len(entries)
			entries = append(entries, &dataZipEntry{hdr: f.FileHeader, data: data})
		}
	}
	if del {
		st := 12
		for _, pat := range ops[1:] {
			for i, e := range entries {
				if e == nil {
					continue
				}
				if ok, _ := path.Match(pat, e.hdr.Name); ok || e.hdr.Name == pat {
					say("deleting: %s\n", e.hdr.Name)
					entries[i] = nil
					st = 0
				}
			}
		}
		if st != 0 {
			fmt.Fprintf(out, "\nzip error: Nothing to do! (%s)\n", archive)
			return 12
		}
		return dataZipWrite(ctx, env, archive, entries, level, say)
	}
	added := 0
	var add func(p string) int
	add = func(p string) int {
		fi, err := vfs.Lstat(env.FS, env.Abs(p))
		if err != nil {
			fmt.Fprintf(out, "\tzip warning: name not matched: %s\n", p)
			return 0
		}
		name := strings.TrimLeft(path.Clean(p), "/")
		if junk {
			name = path.Base(name)
		}
		if fi.IsDir() {
			if !recurse {
				if !noDirs && !junk {
					added++
					dataZipAdd(&entries, index, name+"/", fi, "")
				}
				return 0
			}
			if !noDirs && !junk {
				dataZipAdd(&entries, index, name+"/", fi, "")
				added++
			}
			names, err := dataDirNames(env, p)
			if err != nil {
				return 0
			}
			for _, n := range names {
				add(strings.TrimSuffix(p, "/") + "/" + n)
			}
			return 0
		}
		if env.Abs(p) == env.Abs(archive) {
			return 0
		}
		added++
		dataZipAdd(&entries, index, name, fi, env.Abs(p))
		return 0
	}
	for _, p := range ops[1:] {
		if ctx.Err() != nil {
			return 130
		}
		add(p)
	}
	if added == 0 {
		fmt.Fprintf(out, "\nzip error: Nothing to do! (%s)\n", archive)
		return 12
	}
	return dataZipWrite(ctx, env, archive, entries, level, say)
}

func dataZipAdd(entries *[]*dataZipEntry, index map[string]int, name string, fi fs.FileInfo, src string) {
	hdr, _ := zip.FileInfoHeader(fi)
	hdr.Name = name
	hdr.Method = zip.Deflate
	if strings.HasSuffix(name, "/") || fi.Size() == 0 {
		hdr.Method = zip.Store
	}
	e := &dataZipEntry{hdr: *hdr, path: src, verb: "adding"}
	if i, ok := index[name]; ok {
		e.verb = "updating"
		(*entries)[i] = e
	} else {
		index[name] = len(*entries)
		*entries = append(*entries, e)
	}
}

// dataZipWrite writes the archive to a buffer first, so a failure leaves
// any old archive intact. Members are compressed up front so the "adding"
// line can show the ratio like Info-ZIP does.
func dataZipWrite(ctx context.Context, env *Env, archive string, entries []*dataZipEntry, level int, say func(string, ...any)) int {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		if e == nil {
			continue
		}
		if ctx.Err() != nil {
			return 130
		}
		data := e.data
		if data == nil && e.path != "" {
			b, err := afero.ReadFile(env.FS, e.path)
			if err != nil {
				env.Errorf("zip", "%s: %s", e.path, ErrText(err))
				return 18
			}
			data = b
		}
		hdr := e.hdr
		hdr.CRC32 = crc32.ChecksumIEEE(data)
		hdr.UncompressedSize64 = uint64(len(data))
		raw := data
		if hdr.Method == zip.Deflate && level > 0 && len(data) > 0 {
			var cb bytes.Buffer
			fw, _ := flate.NewWriter(&cb, level)
			fw.Write(data)
			fw.Close()
			if cb.Len() < len(data) {
				raw = cb.Bytes()
			} else {
				hdr.Method = zip.Store
			}
		} else {
			hdr.Method = zip.Store
		}
		hdr.CompressedSize64 = uint64(len(raw))
		w, err := zw.CreateRaw(&hdr)
		if err != nil {
			env.Errorf("zip", "%v", err)
			return 15
		}
		w.Write(raw)
		if e.verb != "" {
			if hdr.Method == zip.Deflate {
				pct := int(100*(1-float64(len(raw))/float64(len(data))) + 0.5)
				say("  %s: %s (deflated %d%%)\n", e.verb, hdr.Name, pct)
			} else {
				say("  %s: %s (stored 0%%)\n", e.verb, hdr.Name)
			}
		}
	}
	if err := zw.Close(); err != nil {
		env.Errorf("zip", "%v", err)
		return 15
	}
	if err := afero.WriteFile(env.FS, env.Abs(archive), buf.Bytes(), 0o644); err != nil {
		fmt.Fprintf(env.Stderr, "zip error: Could not create output file (%s)\n", archive)
		return 15
	}
	return 0
}
