package mcpserver

import (
	"io"
	"strings"

	"github.com/sandsh/sandsh/hostfile"
	"github.com/sandsh/sandsh/worker"
)

// TokenEnv is the environment variable that may hold the bearer token.
const TokenEnv = "SANDSH_MCP_TOKEN"

// minToken is the shortest token accepted: a guessable one is no wall.
const minToken = 16

// LoadToken reads the bearer token from file (--token-file), else from
// the environment (getenv(TokenEnv)); "" means none. The file is read
// through hostfile (a regular file, never a FIFO), must not be readable
// or writable by others (anyone on the host could read it, or put their
// own token in it; group access is allowed, as Kubernetes' fsGroup gives
// a mounted secret), and holds the token on its first line.
func LoadToken(file string, getenv func(string) string) (string, error) {
	if file == "" {
		if getenv == nil {
			return "", nil
		}
		return strings.TrimSpace(getenv(TokenEnv)), nil
	}
	f, err := hostfile.Open(file)
	if err != nil {
		return "", worker.Usagef("--token-file %s: %s", file, hostfile.Describe(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", worker.Usagef("--token-file %s: %v", file, err)
	}
	if fi.Mode().Perm()&0o006 != 0 {
		return "", worker.Usagef("--token-file %s: others may read or write it (mode %04o); chmod o-rwx it", file, fi.Mode().Perm())
	}
	data, err := io.ReadAll(io.LimitReader(f, 4097))
	if err != nil {
		return "", worker.Usagef("--token-file %s: %v", file, err)
	}
	if len(data) > 4096 {
		return "", worker.Usagef("--token-file %s: bigger than 4 KiB: not a token", file)
	}
	tok, _, _ := strings.Cut(string(data), "\n")
	tok = strings.TrimSpace(tok)
	if tok == "" {
		return "", worker.Usagef("--token-file %s: empty", file)
	}
	if len(tok) < minToken {
		return "", worker.Usagef("--token-file %s: the token is too short: want at least %d characters", file, minToken)
	}
	return tok, nil
}
