package builtins

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"syscall"

	"github.com/sandsh/sandsh/builtins/internal/fileutil"
	"github.com/sandsh/sandsh/vfs"
)

const chownUsage = `Usage: chown [OPTION]... [OWNER][:[GROUP]] FILE...
  or:  chown [OPTION]... --reference=RFILE FILE...
Change the owner and/or group of each FILE to OWNER and/or GROUP.
With --reference, change the owner and group of each FILE to those of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --dereference      affect the referent of each symbolic link (this is
                         the default), rather than the symbolic link itself
      --reference=RFILE  use RFILE's owner and group rather than
                         specifying OWNER:GROUP values
  -R, --recursive        operate on files and directories recursively
      --help     display this help and exit

Owner is unchanged if missing.  Group is unchanged if missing, but changed
to login group if implied by a ':' following a symbolic OWNER.
OWNER and GROUP may be numeric as well as symbolic.

The owners are the sandbox's virtual accounts (/etc/passwd, /etc/group and
the sandbox user, as id shows them); like any user but root, the sandbox
user may not give a file away, and may set its group only to its own.
`

// chownGetopt is shared by chown and chgrp.
var chownGetopt = Getopt{
	Short: "cfvRhHLP",
	Long:  []string{"changes", "silent", "quiet", "verbose", "reference=", "recursive", "dereference", "no-dereference", "preserve-root", "no-preserve-root", "from="},
	LongAlias: map[string]string{"changes": "c", "silent": "f", "quiet": "f", "verbose": "v",
		"recursive": "R", "no-dereference": "h"},
}

// chownRun is one chown or chgrp: uid and gid are -1 to keep.
type chownRun struct {
	ctx                  context.Context
	env                  *Env
	cmd                  string // chown or chgrp
	db                   *idDB
	uid, gid             int
	changes, quiet, verb bool
	recursive            bool
	status               int
}

func runChown(ctx context.Context, env *Env, args []string) int {
	return chownMain(ctx, env, "chown", args)
}

func chownMain(ctx context.Context, env *Env, cmd string, args []string) int {
	opts, operands, err := chownGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(cmd, err, 1)
	}
	r := &chownRun{ctx: ctx, env: env, cmd: cmd, db: idLoad(env), uid: -1, gid: -1}
	var ref string
	haveRef := false
	for _, o := range opts {
		switch o.Name {
		case "c":
			r.changes = true
		case "f":
			r.quiet = true
		case "v":
			r.verb = true
		case "R":
			r.recursive = true
		case "reference":
			ref, haveRef = o.Value, true
		case "from":
			return env.UsageError(cmd, errors.New("--from is not supported in the sandbox"), 1)
		}
	}
	switch {
	case haveRef:
		fi, err := filesStat(env, ref)
		if err != nil {
			filesErrorf(env, cmd, err, "failed to get attributes of %s", fileutil.Quote(ref))
			return 1
		}
		m := vfs.MetaOf(fi)
		r.gid = m.GID
		if cmd == "chown" {
			r.uid = m.UID
		}
	case len(operands) == 0:
		return env.UsageError(cmd, errors.New("missing operand"), 1)
	default:
		spec := operands[0]
		operands = operands[1:]
		if cmd == "chgrp" {
			gid, ok := r.group(spec)
			if !ok {
				env.Errorf(cmd, "invalid group: %s", fileutil.Quote(spec))
				return 1
			}
			r.gid = gid
		} else if msg := r.parseSpec(spec); msg != "" {
			env.Errorf(cmd, "%s", msg)
			return 1
		}
		if len(operands) == 0 {
			return env.UsageError(cmd, fmt.Errorf("missing operand after %s", fileutil.Quote(spec)), 1)
		}
	}
	if len(operands) == 0 {
		return env.UsageError(cmd, errors.New("missing operand"), 1)
	}
	for _, name := range operands {
		if ctx.Err() != nil {
			return 130
		}
		r.top(name)
	}
	return r.status
}

// group resolves a group name or number.
func (r *chownRun) group(s string) (int, bool) {
	for gid, name := range r.db.groups {
		if name == s {
			return gid, true
		}
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(s, "+")); err == nil && n >= 0 && n <= 1<<31-2 {
		return n, true
	}
	return 0, false
}

// parseSpec reads OWNER[:[GROUP]] (or the old OWNER.GROUP); it returns the
// message GNU prints for a bad one.
func (r *chownRun) parseSpec(spec string) string {
	user, group, colon := strings.Cut(spec, ":")
	if !colon {
		if _, ok := r.db.lookup(spec); !ok {
			if u, g, dot := strings.Cut(spec, "."); dot {
				user, group, colon = u, g, true
				r.env.Errorf(r.cmd, "warning: '.' should be ':': %s", fileutil.Quote(spec))
			}
		}
	}
	if user != "" {
		u, ok := r.db.lookup(user)
		if !ok {
			n, err := strconv.Atoi(user)
			if err != nil || n < 0 || n > 1<<31-2 {
				return "invalid user: " + fileutil.Quote(spec)
			}
			u = idUser{uid: n, gid: -1}
		}
		r.uid = u.uid
		if colon && group == "" {
			if u.gid < 0 {
				return "invalid spec: " + fileutil.Quote(spec)
			}
			r.gid = u.gid // "user:": the login group
		}
	}
	if group != "" {
		gid, ok := r.group(group)
		if !ok {
			return "invalid group: " + fileutil.Quote(spec)
		}
		r.gid = gid
	}
	return ""
}

func (r *chownRun) top(name string) {
	abs := r.env.Abs(name)
	fi, err := r.env.FS.Stat(abs)
	if err != nil {
		if !r.quiet {
			r.env.Errorf(r.cmd, "cannot access %s: %s", fileutil.Quote(name), ErrText(filesStatErr(r.env.FS, abs, err)))
		}
		if r.verb {
			fmt.Fprintf(r.env.Stdout, "failed to change %s of %s to %s\n", r.what(), fileutil.Quote(name), r.spec(r.uid, r.gid))
		}
		r.status = 1
		return
	}
	r.change(name, abs, fi)
	if r.recursive && fi.IsDir() {
		r.walk(name, abs)
	}
}

// walk changes everything below a directory; symlinks met on the way are
// not followed (GNU's -P, the default with -R).
func (r *chownRun) walk(name, abs string) {
	if !filesWalkBelow(r.ctx, r.env, r.cmd, name, abs, r.quiet, r.change) {
		r.status = 1
	}
	if r.ctx.Err() != nil {
		r.status = 130
	}
}

func (r *chownRun) change(name, abs string, fi fs.FileInfo) {
	m := vfs.MetaOf(fi)
	uid, gid := r.uid, r.gid
	if uid < 0 {
		uid = m.UID
	}
	if gid < 0 {
		gid = m.GID
	}
	if err := r.env.FS.Chown(abs, r.uid, r.gid); err != nil {
		if !r.quiet {
			msg := ErrText(err)
			if errors.Is(err, syscall.EPERM) {
				msg = "Operation not permitted" // chown(2)'s EPERM, not EACCES
			}
			r.env.Errorf(r.cmd, "changing %s of %s: %s", r.what(), fileutil.Quote(name), msg)
		}
		if r.verb {
			fmt.Fprintf(r.env.Stdout, "failed to change %s of %s to %s\n", r.what(), fileutil.Quote(name), r.spec(uid, gid))
		}
		r.status = 1
		return
	}
	same := uid == m.UID && gid == m.GID
	switch {
	case same && r.verb:
		fmt.Fprintf(r.env.Stdout, "%s of %s retained as %s\n", r.what(), fileutil.Quote(name), r.spec(uid, gid))
	case !same && (r.verb || r.changes):
		fmt.Fprintf(r.env.Stdout, "changed %s of %s from %s to %s\n", r.what(), fileutil.Quote(name), r.spec(m.UID, m.GID), r.spec(uid, gid))
	}
}

func (r *chownRun) what() string {
	if r.cmd == "chgrp" {
		return "group"
	}
	return "ownership"
}

// spec renders an owner the way GNU's messages do: user:group for chown
// (just the user when no group was asked for), the group for chgrp.
func (r *chownRun) spec(uid, gid int) string {
	if r.cmd == "chgrp" {
		return r.db.groupName(gid)
	}
	if r.gid < 0 {
		return r.db.userName(uid)
	}
	return r.db.userName(uid) + ":" + r.db.groupName(gid)
}
