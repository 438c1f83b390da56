package builtins

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"strings"
)

const idUsage = `Usage: id [OPTION]... [USER]...
Print user and group information for each specified USER,
or (when USER omitted) for the current process.

  -a             ignore, for compatibility with other versions
  -g, --group    print only the effective group ID
  -G, --groups   print all group IDs
  -n, --name     print a name instead of a number, for -ugG
  -r, --real     print the real ID instead of the effective ID, with -ugG
  -u, --user     print only the effective user ID
  -z, --zero     delimit entries with NUL characters, not whitespace;
                   not permitted in default format
`

// idUser is one account of the virtual system.
type idUser struct {
	name     string
	uid, gid int
}

// idDB is the sandbox's account database: /etc/passwd and /etc/group on
// the sandbox filesystem when present, plus root and the sandbox user.
type idDB struct {
	users  []idUser
	groups map[int]string
	member map[string][]int // supplementary groups by user name
}

func idLoad(env *Env) *idDB {
	sys := env.System()
	db := &idDB{groups: map[int]string{0: "root"}, member: map[string][]int{}}
	idReadLines(env, "/etc/passwd", func(f []string) {
		if len(f) >= 4 {
			uid, err1 := strconv.Atoi(f[2])
			gid, err2 := strconv.Atoi(f[3])
			if err1 == nil && err2 == nil {
				db.users = append(db.users, idUser{f[0], uid, gid})
			}
		}
	})
	idReadLines(env, "/etc/group", func(f []string) {
		if len(f) >= 3 {
			if gid, err := strconv.Atoi(f[2]); err == nil {
				if _, ok := db.groups[gid]; !ok || gid != 0 {
					db.groups[gid] = f[0]
				}
				if len(f) >= 4 && f[3] != "" {
					for _, m := range strings.Split(f[3], ",") {
						db.member[m] = append(db.member[m], gid)
					}
				}
			}
		}
	})
	if _, ok := db.byUID(0); !ok {
		db.users = append(db.users, idUser{"root", 0, 0})
	}
	if _, ok := db.byUID(sys.UID); !ok {
		db.users = append(db.users, idUser{sys.User, sys.UID, sys.GID})
	}
	if _, ok := db.groups[sys.GID]; !ok {
		db.groups[sys.GID] = sys.User
	}
	return db
}

// idReadLines calls fn with the colon-separated fields of each line.
func idReadLines(env *Env, name string, fn func([]string)) {
	f, err := env.FS.Open(name)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			fn(strings.Split(line, ":"))
		}
	}
}

func (db *idDB) byUID(uid int) (idUser, bool) {
	for _, u := range db.users {
		if u.uid == uid {
			return u, true
		}
	}
	return idUser{}, false
}

// lookup finds a user by name, or by number as coreutils does for +N/N.
func (db *idDB) lookup(s string) (idUser, bool) {
	for _, u := range db.users {
		if u.name == s {
			return u, true
		}
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(s, "+")); err == nil {
		return db.byUID(n)
	}
	return idUser{}, false
}

func (db *idDB) groupsOf(u idUser) []int {
	gids := []int{u.gid}
	for _, g := range db.member[u.name] {
		if g != u.gid {
			gids = append(gids, g)
		}
	}
	return gids
}

func (db *idDB) groupName(gid int) string {
	if n, ok := db.groups[gid]; ok {
		return n
	}
	return strconv.Itoa(gid)
}

func (db *idDB) userName(uid int) string {
	if u, ok := db.byUID(uid); ok {
		return u.name
	}
	return strconv.Itoa(uid)
}

var idGetopt = Getopt{Short: "agGnruzZ", Long: []string{"group", "groups", "name", "real", "user", "zero", "context"},
	LongAlias: map[string]string{"group": "g", "groups": "G", "name": "n", "real": "r", "user": "u", "zero": "z", "context": "Z"}}

func runID(ctx context.Context, env *Env, args []string) int {
	name := args[0]
	opts, ops, err := idGetopt.Parse(args[1:])
	if err != nil {
		return env.UsageError(name, err, 1)
	}
	var only string
	nameFlag, realFlag, zero, choices := false, false, false, 0
	for _, o := range opts {
		switch o.Name {
		case "g", "G", "u":
			if only != o.Name {
				choices++
			}
			only = o.Name
		case "n":
			nameFlag = true
		case "r":
			realFlag = true
		case "z":
			zero = true
		case "Z":
			env.Errorf(name, "--context (-Z) works only on an SELinux-enabled kernel")
			return 1
		}
	}
	switch {
	case choices > 1:
		env.Errorf(name, "cannot print \"only\" of more than one choice")
		return 1
	case only == "" && (nameFlag || realFlag):
		env.Errorf(name, "cannot print only names or real IDs in default format")
		return 1
	case only == "" && zero:
		env.Errorf(name, "option --zero not permitted in default format")
		return 1
	}
	db := idLoad(env)
	sys := env.System()
	users := []idUser{{sys.User, sys.UID, sys.GID}}
	if len(ops) > 0 {
		users = users[:0]
	}
	status := 0
	var b strings.Builder
	for _, op := range ops {
		u, ok := db.lookup(op)
		if !ok {
			env.Errorf(name, "%s: no such user", shellQuoteGNU(op))
			status = 1
			continue
		}
		users = append(users, u)
	}
	for _, u := range users {
		if only == "" {
			idDefault(&b, db, u)
			continue
		}
		idOnly(&b, db, u, only, nameFlag, zero)
	}
	if _, err := fmt.Fprint(env.Stdout, b.String()); err != nil {
		return env.WriteError(name, err)
	}
	return status
}

// idDefault writes "uid=1000(sandbox) gid=1000(sandbox) groups=...".
func idDefault(b *strings.Builder, db *idDB, u idUser) {
	fmt.Fprintf(b, "uid=%d(%s) gid=%d(%s) groups=", u.uid, db.userName(u.uid), u.gid, db.groupName(u.gid))
	for i, g := range db.groupsOf(u) {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(b, "%d(%s)", g, db.groupName(g))
	}
	b.WriteByte('\n')
}

// idOnly writes the -u, -g or -G form.
func idOnly(b *strings.Builder, db *idDB, u idUser, only string, names, zero bool) {
	sep, end := " ", "\n"
	if zero {
		sep, end = "\x00", "\x00"
	}
	var vals []int
	switch only {
	case "u":
		vals = []int{u.uid}
	case "g":
		vals = []int{u.gid}
	default:
		vals = db.groupsOf(u)
	}
	for i, v := range vals {
		if i > 0 {
			b.WriteString(sep)
		}
		switch {
		case !names:
			b.WriteString(strconv.Itoa(v))
		case only == "u":
			b.WriteString(db.userName(v))
		default:
			b.WriteString(db.groupName(v))
		}
	}
	b.WriteString(end)
}
