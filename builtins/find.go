package builtins

import (
	"context"
	"io/fs"

	"github.com/sandsh/sandsh/builtins/internal/find"
)

// findUsage is find --help; the registry does not answer it because
// find's arguments are an expression (RawArgs), so find.Run does.
const findUsage = find.Usage

func runFind(ctx context.Context, env *Env, args []string) int {
	sys := env.System()
	fenv := &find.Env{
		FS:     env.FS,
		Dir:    env.Dir,
		Stdout: env.Stdout,
		Stderr: env.Stderr,
		Now:    sys.Now(),
		Loc:    filesLocation(env),
		Exec: func(ctx context.Context, dir string, argv []string) int {
			sub := env.Sub()
			sub.Dir = dir
			return env.Exec(ctx, env.Child(sub, "find", "find -exec"), argv)
		},
		UID:         sys.UID,
		GID:         sys.GID,
		UserName:    func(uid int) string { return filesUserName(env, uid) },
		GroupName:   func(gid int) string { return filesGroupName(env, gid) },
		LookupUser:  func(name string) (int, bool) { return filesLookupUser(env, name) },
		LookupGroup: func(name string) (int, bool) { return filesLookupUser(env, name) },
		Nlink:       func(abs string, fi fs.FileInfo) uint64 { return filesNlink(env.FS, abs, fi) },
	}
	return find.Run(ctx, fenv, args[1:])
}
