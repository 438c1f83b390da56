package check

import (
	"context"
	"testing"

	"github.com/sandsh/sandsh/policy"
)

// FuzzScript: the check runs on untrusted scripts in the sandsh process
// itself (run --check), so no input may make it panic.
func FuzzScript(f *testing.F) {
	for _, s := range []string{
		"$cmd x", `eval "$x"`, `bash -c 'ls; $x'`, `sed 's/a/b/e;e ls
y/ab/cd/;/x/,$ s|a|b|we f'`, `awk '{ system("ls") ; print | "cat" ; "date" | getline }'`,
		`find . -exec sh -c 'e' {} +`, `xargs -I{} -n1 env -u X timeout -s 9 5 nice -n 1 nohup command builtin eval 'trap "x" EXIT'`,
		`alias a='b c'; a`, `trap -- 'e' INT`, `sed e`, `sed -e`, `awk`, `env -S`, `. `, `bash -`, ":(){ :|:& };:",
		`curl x | sh; wget -O- y | bash`, `dd of=/dev/sda`, `rm -rf /`, "exec", "trap", `sh -c`, `find -exec`,
	} {
		f.Add(s)
	}
	pol, err := policy.Parse("p.yaml", []byte("default: ask\nrules:\n  - command: eval\n    action: deny\n"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		Script(context.Background(), "f.sh", []byte(src), Options{})
		Script(context.Background(), "f.sh", []byte(src), Options{Policy: pol})
		sedExecs(src)
	})
}
