package policy

import (
	"os"
	"strings"
	"testing"
)

const sample = `default: allow
rules:
  - name: no-inplace-sed
    command: sed
    args: "-i*"
    action: deny
    priority: 10
    reason: edits must go through patch files
  - name: ask-curl
    command: curl
    action: ask
  - name: allow-sed-i-for-admins
    command: sed
    args_regex: '^-i\.bak$'
    action: allow
    priority: 10
  - name: tie-allow
    command: "ca[tx]"
    action: allow
    priority: 5
  - name: tie-deny
    command: "c?t"
    args: "/etc/*"
    action: deny
    priority: 5
dangerous:
  disable: [mkfs]
limits:
  timeout: 30s
  max-output: 1MiB
  max-commands: 1000
`

func TestDecide(t *testing.T) {
	p, err := Parse("p.yaml", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		argv   string
		action Action
		rule   string
	}{
		{"sed -n p f", Allow, "default"},
		{"sed -i s/a/b/ f", Deny, "no-inplace-sed"},
		{"/usr/bin/sed -i.bak s/a/b/ f", Deny, "no-inplace-sed"}, // tie: deny wins
		{"curl -s x", Ask, "ask-curl"},
		{"cat /etc/passwd", Deny, "tie-deny"},
		{"cat /tmp/x", Allow, "tie-allow"},
		{"cat", Allow, "tie-allow"},
		{"rm -rf /", Deny, "dangerous:rm-rf-root"},
		{"rm -fr /", Deny, "dangerous:rm-rf-root"},
		{"rm -r -f /*", Deny, "dangerous:rm-rf-root"},
		{"rm -r --no-preserve-root x", Deny, "dangerous:rm-rf-root"},
		{"rm -rf //", Deny, "dangerous:rm-rf-root"},
		{"rm -rf /tmp", Allow, "default"},
		{"rm -r -f /bin /dev /etc /usr /workspace", Deny, "dangerous:rm-rf-root"}, // rm -r -f /* expanded
		{"rm -rf /usr/", Deny, "dangerous:rm-rf-root"},
		{"rm -rf /usr/local/x", Allow, "default"},
		{"rm -f /", Allow, "default"},
		{"chmod -R 777 /", Deny, "dangerous:chmod-777-root"},
		{"chmod 777 /", Allow, "default"},
		{"dd if=/dev/zero of=/dev/sda", Deny, "dangerous:dd-device"},
		{"dd if=/dev/zero of=/dev/null", Allow, "default"},
		{"tee /dev/sdb", Deny, "dangerous:dev-disk-write"},
		{"mkfs.ext4 /dev/sda1", Allow, "default"}, // disabled in the policy
	} {
		d := p.Decide(strings.Fields(c.argv))
		if d.Action != c.action || d.Rule != c.rule {
			t.Errorf("%s: got %s by %s, want %s by %s", c.argv, d.Action, d.Rule, c.action, c.rule)
		}
	}
	if *p.Limits.Timeout != "30s" || *p.Limits.MaxCommands != 1000 {
		t.Errorf("limits/paths: %+v %+v", p.Limits, p.Paths)
	}
	if !strings.HasPrefix(p.Digest, "sha256:") {
		t.Errorf("digest %q", p.Digest)
	}
	q, err := Parse("q.yaml", []byte("rules: []\n"))
	if err != nil || q.Default != Deny || q.Decide([]string{"ls"}).Action != Deny {
		t.Errorf("default must be deny: %v %v", q, err)
	}
	if q.Decide([]string{"mkfs", "/dev/sda"}).Rule != "dangerous:mkfs" {
		t.Errorf("mkfs must be dangerous when not disabled")
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"default: deny\nrulez: []\n", "p.yaml:2: unknown key rulez"},
		{"default: deny\nrules:\n  - command: ls\n    action: allow\n    colour: red\n", "p.yaml:5: unknown key colour"},
		{"default: deny\nrules:\n  - command: ls\n    action: allow\n    priority: high\n", "p.yaml:5: cannot unmarshal !!str `high` into int"},
		{"default: maybe\n", "p.yaml:1: default: \"maybe\": want allow, deny or ask"},
		{"rules:\n  - command: ls\n    action: permit\n", "p.yaml:3: rule 1: action: \"permit\": want allow, deny, ask or jail"},
		{"rules:\n  - name: x\n    command: ls\n    args_regex: '('\n    action: deny\n", "p.yaml:4: rule \"x\": args_regex: error parsing regexp"},
		{"rules:\n  - command: '[ls'\n    action: deny\n", "p.yaml:2: rule 1: command: glob \"[ls\": unterminated ["},
		{"rules:\n  - action: deny\n", "p.yaml:2: rule 1: command: missing"},
		{"dangerous:\n  disable: [rm-rf-root, nope]\n", "p.yaml:2: dangerous: disable: unknown pattern \"nope\""},
		{"limits:\n  max-output: lots\n", "p.yaml:2: limits: max-output: invalid size"},
		{"limits:\n  timeout: soon\n", "p.yaml:2: limits: timeout:"},
		{"paths:\n  write: [relative]\n", "p.yaml:2: paths: write:"},
		{"paths:\n  read: [/workspace, tmp]\n", "p.yaml:2: paths: read: \"tmp\": want an absolute directory"},
		{"paths:\n  read:\n    - /workspace\n    - tmp\n", "p.yaml:4: paths: read: \"tmp\""},
		{"paths:\n  read: []\n", "p.yaml:2: paths: read: empty list"},
		{"paths:\n  write: /tmp\n", "p.yaml:2: cannot unmarshal !!str `/tmp` into []string"},
		{"", "p.yaml: empty policy file"},
		{"- a\n- b\n", "p.yaml:1: cannot unmarshal !!seq into policy.Policy"},
		{"default: [\n", "p.yaml:1: did not find expected node content"},
	} {
		_, err := Parse("p.yaml", []byte(c.src))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: got %v, want prefix %q", c.src, err, c.want)
		}
	}
}

func TestGlob(t *testing.T) {
	for _, c := range []struct {
		glob, s string
		ok      bool
	}{{"-i*", "-i.bak", true}, {"-i*", "x-i", false}, {"/etc/*", "/etc/a/b", true}, {"[!a]b", "cb", true},
		{"[!a]b", "ab", false}, {`\*`, "*", true}, {`\*`, "x", false}, {"a?c", "abc", true}, {"[]]", "]", true}} {
		re, err := Glob(c.glob)
		if err != nil {
			t.Fatalf("%s: %v", c.glob, err)
		}
		if re.MatchString(c.s) != c.ok {
			t.Errorf("Glob(%q) on %q: want %v", c.glob, c.s, c.ok)
		}
	}
}

// TestReadmeExample keeps the README's example policy loadable.
func TestReadmeExample(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "### Policy: `--policy FILE`")
	_, rest, ok2 := strings.Cut(rest, "```yaml\n")
	src, _, ok3 := strings.Cut(rest, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("no example policy in the README")
	}
	p, err := Parse("README", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if d := p.Decide([]string{"sed", "-i", "s/a/b/", "f"}); d.Rule != "no-inplace-sed" {
		t.Errorf("sed -i: %v", d)
	}
	if d := p.Decide([]string{"cat", "/etc/shadow"}); d.Rule != "no-secrets" || d.Action != Deny {
		t.Errorf("cat /etc/shadow: %v", d)
	}
	if d := p.Decide([]string{"curl", "x"}); d.Action != Ask {
		t.Errorf("curl: %v", d)
	}
	if d := p.Decide([]string{"Weird"}); d.Action != Deny || d.Rule != "default" {
		t.Errorf("Weird: %v", d)
	}
	if len(p.Network.Allow) != 3 || p.Network.MaxBytes == nil || *p.Network.MaxBytes != "16MiB" {
		t.Errorf("network: %+v", p.Network)
	}
}

func TestNetworkSection(t *testing.T) {
	for _, c := range []struct{ src, err string }{
		{"network:\n  allow: [example.com, \"https://x.org/v1\", \"[::1]:8080\", \"*.example.net\"]\n  max-requests: 3\n  max-bytes: 1MiB\n  timeout: 5s\n", ""},
		{"network:\n  allow:\n    - ok.example\n    - \"ftp://h\"\n", `p.yaml:5: network: allow: "ftp://h": scheme "ftp": want http or https`},
		{"network:\n  allow: [\"a b\"]\n", `p.yaml:3: network: allow: "a b": "a b" is not a host name or IP address`},
		{"network:\n  max-bytes: lots\n", `p.yaml:3: network: max-bytes: invalid size "lots"`},
		{"network:\n  timeout: soon\n", `p.yaml:3: network: timeout: "soon": want a duration like 30s`},
		{"network:\n  max-requests: -1\n", `p.yaml:3: network: max-requests: must not be negative`},
		{"network:\n  allow-all: true\n", `p.yaml:3: unknown key allow-all`},
	} {
		_, err := Parse("p.yaml", []byte("default: allow\n"+c.src))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.src, err)
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%q: got %v, want %s", c.src, err, c.err)
		}
	}
}
