// Command sandsh runs untrusted bash scripts in a sandbox.
package main

import (
	"os"

	"github.com/sandsh/sandsh/cmd"
)

func main() {
	os.Exit(cmd.Main(os.Args[1:]))
}
