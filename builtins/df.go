package builtins

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/vfs"
)

const dfUsage = `Usage: df [OPTION]... [FILE]...
Show information about the file system on which each FILE resides,
or all file systems by default.

  -a, --all             include pseudo, duplicate, inaccessible file systems
  -B, --block-size=SIZE  scale sizes by SIZE before printing them
  -h, --human-readable  print sizes in powers of 1024 (e.g., 1023M)
  -H, --si              print sizes in powers of 1000 (e.g., 1.1G)
  -i, --inodes          list inode information instead of block usage
  -k                    like --block-size=1K
  -l, --local           limit listing to local file systems
  -P, --portability     use the POSIX output format
      --total           elide all entries insignificant to available space,
                          and produce a grand total
  -t, --type=TYPE       limit listing to file systems of type TYPE
  -T, --print-type      print file system type
  -x, --exclude-type=TYPE   limit listing to file systems not of type TYPE
      --help     display this help and exit

The sandbox has one file system, mounted on /.
`

var dfGetopt = Getopt{
	Short: "aB:hHiklPt:Tx:",
	Long: []string{"all", "block-size=", "human-readable", "si", "inodes", "local", "portability", "total",
		"type=", "print-type", "exclude-type=", "sync", "no-sync"},
	LongAlias: map[string]string{"all": "a", "block-size": "B", "human-readable": "h", "si": "H",
		"inodes": "i", "local": "l", "portability": "P", "type": "t", "print-type": "T", "exclude-type": "x"},
}

// The sandbox filesystem as df describes it.
const (
	dfSource = "sandbox"
	dfType   = "memfs"
	// Without a configured limit the sandbox reports this much room.
	dfDefaultBytes  = 1 << 30
	dfDefaultInodes = 1 << 20
)

// filesUsage is the space and inode use of the sandbox filesystem.
type filesUsage struct {
	total, used   int64
	inodes, files int
}

func (u filesUsage) free() int64 { return max(0, u.total-u.used) }

// filesUsageOf asks the filesystem for its usage (a Usage method) and
// limits (a Limits method), falling back to a nominal size.
func filesUsageOf(fsys vfs.FS) filesUsage {
	u := filesUsage{total: dfDefaultBytes, inodes: dfDefaultInodes}
	if f, ok := fsys.(interface{ Usage() (int64, int) }); ok {
		u.used, u.files = f.Usage()
	}
	if f, ok := fsys.(interface{ Limits() (int64, int) }); ok {
		if b, n := f.Limits(); b > 0 || n > 0 {
			if b > 0 {
				u.total = b
			}
			if n > 0 {
				u.inodes = n
			}
		}
	}
	if u.used > u.total {
		u.total = u.used
	}
	if u.files > u.inodes {
		u.inodes = u.files
	}
	return u
}

type dfCol struct {
	head  string
	left  bool
	min   int
	cells []string
}

func runDf(_ context.Context, env *Env, args []string) int {
	opts, operands, err := dfGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError("df", err, 1)
	}
	var human, si, inodes, posix, showType, total bool
	blockSize, suffix := int64(1024), ""
	var types, excludes []string
	for _, o := range opts {
		switch o.Name {
		case "B":
			n, err := fileutil.ParseSize(o.Value)
			if err != nil || n <= 0 {
				env.Errorf("df", "invalid -B argument %s", fileutil.Quote(o.Value))
				return 1
			}
			blockSize, human, suffix = n, false, ""
			if o.Value[0] < '0' || o.Value[0] > '9' {
				suffix = o.Value
			}
		case "h":
			human, si = true, false
		case "H":
			human, si = true, true
		case "i":
			inodes = true
		case "k":
			blockSize, human, suffix = 1024, false, ""
		case "P":
			posix = true
		case "T":
			showType = true
		case "total":
			total = true
		case "t":
			types = append(types, o.Value)
		case "x":
			excludes = append(excludes, o.Value)
		}
	}
	status := 0
	for _, name := range operands {
		if _, err := filesStat(env, name); err != nil {
			env.Errorf("df", "%s: %s", fileutil.QuoteIf(name), ErrText(err))
			status = 1
		}
	}
	if len(operands) > 0 && status != 0 && len(operands) == 1 {
		return status
	}
	show := (len(types) == 0 || dfContains(types, dfType)) && !dfContains(excludes, dfType)
	if !show {
		env.Errorf("df", "no file systems processed")
		return 1
	}
	u := filesUsageOf(env.FS)
	rows := [][]string{{dfSource, dfType}}
	if total {
		rows = append(rows, []string{"total", "-"})
	}
	cols := []*dfCol{{head: "Filesystem", left: true, min: 14}}
	if showType {
		cols = append(cols, &dfCol{head: "Type", left: true, min: 4})
	}
	num := func(v int64) string {
		if human {
			return fileutil.Human(v, si)
		}
		return strconv.FormatInt((v+blockSize-1)/blockSize, 10) + suffix
	}
	if inodes {
		used, free := int64(u.files), int64(u.inodes-u.files)
		cols = append(cols,
			&dfCol{head: "Inodes", min: 5}, &dfCol{head: "IUsed", min: 5},
			&dfCol{head: "IFree", min: 5}, &dfCol{head: "IUse%", min: 5})
		for range rows {
			n := func(v int64) string {
				if human {
					return fileutil.Human(v, si)
				}
				return strconv.FormatInt(v, 10)
			}
			dfAdd(cols[len(cols)-4:], n(int64(u.inodes)), n(used), n(free), dfPercent(used, free))
		}
	} else {
		sizeHead := dfBlockHeader(blockSize, suffix, posix)
		availHead, pctHead := "Available", "Use%"
		if human {
			sizeHead, availHead = "Size", "Avail"
		}
		if posix {
			pctHead = "Capacity"
		}
		cols = append(cols,
			&dfCol{head: sizeHead, min: 5}, &dfCol{head: "Used", min: 5},
			&dfCol{head: availHead, min: 5}, &dfCol{head: pctHead, min: 4})
		// Used space is counted in whole 4 KiB blocks, like a disk.
		used := (u.used + 4095) / 4096 * 4096
		free := max(0, u.total-used)
		for range rows {
			dfAdd(cols[len(cols)-4:], num(u.total), num(used), num(free), dfPercent(used, free))
		}
	}
	cols = append(cols, &dfCol{head: "Mounted on", left: true})
	for _, row := range rows {
		cols[0].cells = append(cols[0].cells, row[0])
		if showType {
			cols[1].cells = append(cols[1].cells, row[1])
		}
		mount := "/"
		if row[0] == "total" {
			mount = "-"
		}
		cols[len(cols)-1].cells = append(cols[len(cols)-1].cells, mount)
	}
	out := filesNewWriter(env.Stdout)
	for line := -1; line < len(rows); line++ {
		for i, c := range cols {
			w := max(c.min, len(c.head))
			for _, s := range c.cells {
				w = max(w, len(s))
			}
			s := c.head
			if line >= 0 {
				s = c.cells[line]
			}
			if i > 0 {
				out.WriteByte(' ')
			}
			switch {
			case i == len(cols)-1:
				out.WriteString(s)
			case c.left:
				fmt.Fprintf(out, "%-*s", w, s)
			default:
				fmt.Fprintf(out, "%*s", w, s)
			}
		}
		out.WriteByte('\n')
	}
	if err := out.Flush(); err != nil {
		return env.WriteError("df", err)
	}
	return status
}

func dfAdd(cols []*dfCol, vals ...string) {
	for i, v := range vals {
		cols[i].cells = append(cols[i].cells, v)
	}
}

func dfContains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// dfPercent is GNU's rounded-up use percentage.
func dfPercent(used, free int64) string {
	if used+free == 0 {
		return "-"
	}
	p := (used*100 + used + free - 1) / (used + free)
	return strconv.FormatInt(p, 10) + "%"
}

// dfBlockHeader names the size column: "1K-blocks", "1M-blocks",
// "1024-blocks" (POSIX).
func dfBlockHeader(bs int64, suffix string, posix bool) string {
	if posix && bs == 1024 {
		return "1024-blocks"
	}
	if suffix != "" {
		return "1" + strings.TrimPrefix(suffix, "1") + "-blocks"
	}
	units := []string{"", "K", "M", "G", "T", "P", "E"}
	for i := len(units) - 1; i > 0; i-- {
		p := int64(1) << (10 * i)
		if bs%p == 0 {
			return strconv.FormatInt(bs/p, 10) + units[i] + "-blocks"
		}
	}
	return strconv.FormatInt(bs, 10) + "-blocks"
}
