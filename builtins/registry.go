package builtins

import (
	"context"
	"fmt"
	"sort"
)

// table is the one registry of in-process commands. Keep it sorted by
// group; each entry's Run lives in a file named after the command.
func table() []Command {
	return []Command{
		// -- files --
		// -- text --
		// -- sed --
		// -- awk --
		// -- data --
		// -- shell helpers --
	}
}

// Registry is a lookup table of in-process commands.
type Registry struct {
	byName map[string]*Command
}

// NewRegistry returns the registry of every in-process command.
func NewRegistry() *Registry {
	r := &Registry{byName: make(map[string]*Command)}
	for _, c := range table() {
		r.byName[c.Name] = &c
	}
	return r
}

// Lookup finds a command by name.
func (r *Registry) Lookup(name string) (*Command, bool) {
	c, ok := r.byName[name]
	return c, ok
}

// Commands returns every command sorted by name.
func (r *Registry) Commands() []*Command {
	out := make([]*Command, 0, len(r.byName))
	for _, c := range r.byName {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Run runs c with args (args[0] is the name it was called by), answering
// --help for commands that take options.
func (c *Command) Call(ctx context.Context, env *Env, args []string) int {
	if !c.RawArgs {
		for _, a := range args[1:] {
			if a == "--" {
				break
			}
			if a == "--help" {
				usage := c.Usage
				if usage == "" {
					usage = fmt.Sprintf("Usage: %s [OPTION]... [FILE]...\n%s.\n", c.Name, c.Summary)
				}
				fmt.Fprint(env.Stdout, usage)
				return 0
			}
		}
	}
	return c.Run(ctx, env, args)
}
