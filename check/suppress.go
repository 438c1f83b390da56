package check

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
	"mvdan.cc/sh/v3/syntax"
)

// Config is a repository's check configuration (.sandsh-check.yaml):
// finding codes turned off everywhere, each with a reason, severities
// changed by code, and the default of --severity.
type Config struct {
	Disable  []Disable         `yaml:"disable"`
	Severity map[string]string `yaml:"severity"`
	FailOn   string            `yaml:"fail-on"`

	severity map[string]Severity
}

// Disable turns one finding code off, for a reason a reviewer can read.
type Disable struct {
	ID     string `yaml:"id"`
	Reason string `yaml:"reason"`
}

// ConfigFile is the name `sandsh check` looks for in the working
// directory.
const ConfigFile = ".sandsh-check.yaml"

// ParseConfig reads a configuration; name is used in errors
// ("name:line: message").
func ParseConfig(name string, data []byte) (*Config, error) {
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && err.Error() != "EOF" {
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	for _, d := range c.Disable {
		if !knownCode(d.ID) {
			return nil, fmt.Errorf("%s: disable: unknown finding code %q", name, d.ID)
		}
		if strings.TrimSpace(d.Reason) == "" {
			return nil, fmt.Errorf("%s: disable: %s: a reason is required", name, d.ID)
		}
	}
	c.severity = map[string]Severity{}
	for id, s := range c.Severity {
		if !knownCode(id) {
			return nil, fmt.Errorf("%s: severity: unknown finding code %q", name, id)
		}
		sev, err := ParseSeverity(s)
		if err != nil {
			return nil, fmt.Errorf("%s: severity: %s: %v", name, id, err)
		}
		c.severity[id] = sev
	}
	if c.FailOn != "" {
		if _, err := ParseSeverity(c.FailOn); err != nil {
			return nil, fmt.Errorf("%s: fail-on: %v", name, err)
		}
	}
	return &c, nil
}

func knownCode(id string) bool {
	_, ok := rules[id]
	return ok || strings.HasPrefix(id, "dangerous:")
}

// suppressRE is an inline suppression: `# sandsh-check disable=ID[,ID…]
// -- reason`. On a line of its own it covers the next line; after a
// command, its own line.
var suppressRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*sandsh-check\s+disable=([A-Za-z0-9:,_-]+)\s*(?:--\s*(.*))?$`)
})

type suppression struct {
	line int
	ids  []string
}

// suppressions reads a file's inline suppressions; one without a reason
// suppresses nothing and is a finding itself.
func (c *checker) suppressions(f *syntax.File, src []byte) []suppression {
	var out []suppression
	lines := bytes.Split(src, []byte("\n"))
	syntax.Walk(f, func(n syntax.Node) bool {
		cm, ok := n.(*syntax.Comment)
		if !ok {
			return true
		}
		m := suppressRE().FindStringSubmatch(cm.Text)
		if m == nil {
			return true
		}
		if strings.TrimSpace(m[2]) == "" {
			c.add(frame{}, cm, Warning, "suppress-no-reason", "sandsh-check disable=%s needs a reason (-- why): it suppresses nothing", m[1])
			return true
		}
		line := int(cm.Pos().Line())
		if l := line - 1; l < len(lines) && strings.TrimSpace(string(lines[l][:min(int(cm.Pos().Col())-1, len(lines[l]))])) == "" {
			line++ // a comment on a line of its own covers the next
		}
		out = append(out, suppression{line: line, ids: strings.Split(m[1], ",")})
		return true
	})
	return out
}

// filter applies the configuration and the inline suppressions.
func (c *checker) filter(sup []suppression) {
	cfg := c.opts.Config
	kept := c.res.Findings[:0]
	for _, fd := range c.res.Findings {
		if cfg != nil {
			if slices.ContainsFunc(cfg.Disable, func(d Disable) bool { return d.ID == fd.Code }) {
				continue
			}
			if s, ok := cfg.severity[fd.Code]; ok {
				fd.Severity = s
			}
		}
		if slices.ContainsFunc(sup, func(s suppression) bool { return s.line == fd.Pos.Line && slices.Contains(s.ids, fd.Code) }) {
			continue
		}
		kept = append(kept, fd)
	}
	c.res.Findings = kept
}
