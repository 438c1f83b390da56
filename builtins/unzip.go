package builtins

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"path"
	"strings"
)

const dataUnzipUsage = `Usage: unzip [-opts] file[.zip] [list] [-d exdir]
  -l  list files (short format)
  -p  extract files to pipe, no messages
  -o  overwrite files WITHOUT prompting
  -n  never overwrite existing files
  -q  quiet mode
  -d  extract files into exdir
`

var unzipGetopt = Getopt{Short: "lponqd:j", Long: []string{}}

func runUnzip(ctx context.Context, env *Env, args []string) int {
	g := unzipGetopt
	opts, ops, err := g.Parse(args[1:])
	if err != nil {
		fmt.Fprint(env.Stderr, dataUnzipUsage)
		return 10
	}
	list, pipe, over, never, quiet, junk, dir := false, false, false, false, false, false, ""
	for _, o := range opts {
		switch o.Name {
		case "l":
			list = true
		case "p":
			pipe = true
		case "o":
			over = true
		case "n":
			never = true
		case "q":
			quiet = true
		case "j":
			junk = true
		case "d":
			dir = o.Value
		}
	}
	if len(ops) == 0 {
		fmt.Fprint(env.Stdout, dataUnzipUsage)
		return 0
	}
	name := ops[0]
	members := ops[1:]
	f, err := env.FS.Open(env.Abs(name))
	if err != nil && !strings.HasSuffix(name, ".zip") {
		if f2, err2 := env.FS.Open(env.Abs(name + ".zip")); err2 == nil {
			f, err, name = f2, nil, name+".zip"
		}
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "unzip:  cannot find or open %s, %s.zip or %s.ZIP.\n", name, name, name)
		return 9
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return env.FileError("unzip", name, err)
	}
	zr, err := zip.NewReader(f.(io.ReaderAt), fi.Size())
	if err != nil {
		fmt.Fprintf(env.Stderr, "  End-of-central-directory signature not found.  Either this file is not\n  a zipfile, or it constitutes one disk of a multi-part archive.\nunzip:  cannot find zipfile directory in %s.\n", name)
		return 9
	}
	out := dataWriter(env)
	defer out.Flush()
	say := func(format string, a ...any) {
		if !quiet && !pipe {
			fmt.Fprintf(out, format, a...)
		}
	}
	match := func(n string) bool {
		if len(members) == 0 {
			return true
		}
		for _, m := range members {
			if ok, _ := path.Match(m, n); ok || m == n {
				return true
			}
		}
		return false
	}
	if list {
		fmt.Fprintf(out, "Archive:  %s\n  Length      Date    Time    Name\n---------  ---------- -----   ----\n", name)
		var total uint64
		n := 0
		for _, zf := range zr.File {
			if !match(zf.Name) {
				continue
			}
			fmt.Fprintf(out, "%9d  %s   %s\n", zf.UncompressedSize64, zf.Modified.Format("2006-01-02 15:04"), zf.Name)
			total += zf.UncompressedSize64
			n++
		}
		plural := "s"
		if n == 1 {
			plural = ""
		}
		fmt.Fprintf(out, "---------                     -------\n%9d                     %d file%s\n", total, n, plural)
		if n == 0 && len(members) > 0 {
			return 11
		}
		return 0
	}
	say("Archive:  %s\n", name)
	st := 0
	none := false
	matched := 0
	for _, zf := range zr.File {
		if ctx.Err() != nil {
			return 130
		}
		if !match(zf.Name) {
			continue
		}
		matched++
		if pipe {
			if !strings.HasSuffix(zf.Name, "/") {
				rc, err := zf.Open()
				if err == nil {
					out.Flush()
					io.Copy(out, dataCtxReader{ctx, rc})
					rc.Close()
				}
			}
			continue
		}
		rel := path.Clean("/" + zf.Name)[1:]
		if strings.Contains("/"+zf.Name+"/", "/../") {
			out.Flush()
			fmt.Fprintf(env.Stderr, "warning:  skipped \"../\" path component(s) in %s\n", zf.Name)
		}
		if junk {
			rel = path.Base(rel)
		}
		target := env.Abs(path.Join(dir, rel))
		if dir == "" {
			target = env.Abs(rel)
		}
		shown := path.Join(dir, rel)
		if strings.HasSuffix(zf.Name, "/") {
			if junk {
				continue
			}
			if _, err := env.FS.Stat(target); err != nil {
				say("   creating: %s/\n", shown)
			}
			env.FS.MkdirAll(target, 0o755)
			continue
		}
		if _, err := env.FS.Stat(target); err == nil && !over {
			if never || none {
				continue
			}
			out.Flush()
			fmt.Fprintf(env.Stderr, "replace %s? [y]es, [n]o, [A]ll, [N]one, [r]ename:  NULL\n(EOF or read error, treating as \"[N]one\" ...)\n", shown)
			none = true
			st = 1
			continue
		}
		env.FS.MkdirAll(path.Dir(target), 0o755)
		rc, err := zf.Open()
		if err != nil {
			out.Flush()
			fmt.Fprintf(env.Stderr, "  error:  %s: %v\n", zf.Name, err)
			st = 2
			continue
		}
		verb := " extracting"
		if zf.Method == zip.Deflate {
			verb = "  inflating"
		}
		say("%s: %-23s \n", verb, shown)
		w, err := env.FS.OpenFile(target, dataCreateFlags, zf.Mode().Perm()|0o600)
		if err != nil {
			rc.Close()
			out.Flush()
			fmt.Fprintf(env.Stderr, "error:  cannot create %s\n        %s\n", shown, ErrText(err))
			st = 2
			continue
		}
		_, err = io.Copy(w, dataCtxReader{ctx, rc})
		rc.Close()
		w.Close()
		if err != nil {
			st = 2
		}
		env.FS.Chtimes(target, zf.Modified, zf.Modified)
	}
	if matched == 0 && len(members) > 0 {
		out.Flush()
		fmt.Fprintf(env.Stderr, "caution: filename not matched:  %s\n", members[0])
		return 11
	}
	if err := out.Flush(); err != nil {
		return env.WriteError("unzip", err)
	}
	return st
}
