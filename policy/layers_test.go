package policy

import (
	"slices"
	"strings"
	"testing"
)

func mustParse(t *testing.T, name, text string) *Policy {
	t.Helper()
	p, err := Parse(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLayerNarrows: a later file narrows and never widens, whatever its
// priorities, in either order.
func TestLayerNarrows(t *testing.T) {
	org := mustParse(t, "org.yaml", "default: deny\nrules:\n  - {name: tools, command: \"*\", action: allow}\n  - {name: no-rm, command: rm, action: deny}\n  - {name: ask-curl, command: curl, action: ask}\n  - {name: py, command: python3, action: jail, priority: 1}\n")
	proj := mustParse(t, "proj.yaml", "default: allow\nrules:\n  - {name: all, command: \"*\", action: allow, priority: 1000}\n  - {name: no-tr, command: tr, action: deny, priority: 2000}\ndangerous:\n  disable: [mkfs]\n")
	for _, l := range [][]*Policy{{org, proj}, {proj, org}} {
		p := Layer(l...)
		for argv, want := range map[string]string{
			"rm x": "deny no-rm", "tr a b": "deny no-tr", "curl u": "ask ask-curl",
			"mkfs.ext4 /dev/sda": "deny dangerous:mkfs", "python3 x": "jail py",
		} {
			d := p.Decide(strings.Fields(argv))
			if got := string(d.Action) + " " + d.Rule; got != want {
				t.Errorf("%s: %s, want %s", argv, got, want)
			}
		}
		if p.Disabled("mkfs") {
			t.Error("one file turned mkfs off for both")
		}
	}
}

func TestLayerValues(t *testing.T) {
	a := mustParse(t, "a", "limits: {timeout: 10s, max-output: 1MiB}\npaths: {read: [/workspace, /etc]}\nnetwork:\n  allow: [api.example.com, \"*.pypi.org\", \"h:8080\"]\n  max-requests: 10\n")
	b := mustParse(t, "b", "limits: {timeout: 0s, max-output: 2KiB, max-jobs: 3}\npaths: {read: [/workspace/src, /tmp], write: [/tmp]}\nnetwork:\n  allow: [\"https://api.example.com/v1/\", files.pypi.org, \"http://h:8080/x\", other.org]\n")
	p := Layer(a, b)
	if *p.Limits.Timeout != "10s" || *p.Limits.MaxOutput != "2KiB" || *p.Limits.MaxJobs != 3 {
		t.Errorf("limits: %v %v %v", *p.Limits.Timeout, *p.Limits.MaxOutput, *p.Limits.MaxJobs)
	}
	if !slices.Equal(p.Paths.Read, []string{"/workspace/src"}) || !slices.Equal(p.Paths.Write, []string{"/tmp"}) {
		t.Errorf("paths: %v %v", p.Paths.Read, p.Paths.Write)
	}
	var urls []string
	for _, e := range p.Network.Allow {
		urls = append(urls, e.URL)
	}
	if want := []string{"https://api.example.com/v1/", "files.pypi.org", "http://h:8080/x"}; !slices.Equal(urls, want) {
		t.Errorf("network: %q, want %q", urls, want)
	}
	if *p.Network.MaxRequests != 10 {
		t.Errorf("max-requests %d", *p.Network.MaxRequests)
	}
	// Nothing in common is nothing, not everything.
	c := mustParse(t, "c", "network:\n  allow: [\"https://x.org/\"]\npaths: {read: [/srv]}\n")
	if q := Layer(a, c); q.Network.Allow == nil || len(q.Network.Allow) != 0 || q.Paths.Read == nil || len(q.Paths.Read) != 0 {
		t.Errorf("disjoint: allow %v, read %q", q.Network.Allow, q.Paths.Read)
	}
	for _, c := range []struct {
		a, b string
		in   bool
	}{
		{"https://h/", "h", true}, {"h", "https://h/", false}, {"h:443", "h", true}, {"h:8443", "h", false},
		{"a.b.c", "*.b.c", true}, {"*.b.c", "a.b.c", false}, {"*.a.b.c", "*.b.c", true},
		{"https://h/v1/x", "https://h/v1", true}, {"https://h/v10", "https://h/v1", false}, {"http://h/", "https://h/", false},
	} {
		x, _ := ParseNetAllow(c.a)
		y, _ := ParseNetAllow(c.b)
		if x.within(y) != c.in {
			t.Errorf("%s within %s: %v, want %v", c.a, c.b, !c.in, c.in)
		}
	}
}

// TestLayerNetEntries: methods intersect, max_body the smaller, deny lists
// add up.
func TestLayerNetEntries(t *testing.T) {
	a := mustParse(t, "a", "network:\n  allow:\n    - {url: \"https://api.example.com/\", methods: [GET, POST], max_body: 1MiB}\n  deny: [{url: \"https://api.example.com/admin/\", reason: no admin}]\n")
	b := mustParse(t, "b", "network:\n  allow:\n    - {url: \"https://api.example.com/v1/\", methods: [GET, HEAD], max_body: 1KiB}\n")
	p := Layer(a, b)
	if len(p.Network.Allow) != 1 {
		t.Fatalf("allow: %+v", p.Network.Allow)
	}
	e := p.Network.Allow[0]
	if e.URL != "https://api.example.com/v1/" || !slices.Equal(e.Methods, []string{"GET"}) || *e.MaxBody != "1KiB" {
		t.Errorf("entry: %+v", e)
	}
	if len(p.Network.Deny) != 1 {
		t.Errorf("deny: %+v", p.Network.Deny)
	}
}
