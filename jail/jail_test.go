package jail

import (
	"strings"
	"testing"
)

// TestCheckWork: the working tree is shown at its own path only where it
// hides nothing the jail needs; a worker cannot pick a system directory.
func TestCheckWork(t *testing.T) {
	c := &Config{ReadOnly: []string{"/opt/tools"}}
	for _, tc := range []struct {
		work, dir string
		ok        bool
	}{
		{"/workspace", "/workspace", true},
		{"/workspace", "/workspace/sub/dir", true},
		{"/home/sandbox/src", "/home/sandbox/src", true},
		{"/workspace", "/workspacex", false},
		{"/workspace", "/tmp", false},
		{"/", "/", false},
		{"/usr", "/usr", false},
		{"/usr/local/src", "/usr/local/src", false},
		{"/etc/ssh", "/etc/ssh", false},
		{"/opt", "/opt", false},
		{"/opt/tools/x", "/opt/tools/x", false},
		{"/tmp/w", "/tmp/w", false},
		{"/proc/1", "/proc/1", false},
		{"/dev", "/dev", false},
		{"workspace", "workspace", false},
		{"/workspace/../usr", "/usr", false},
	} {
		err := c.checkWork(tc.work, tc.dir)
		if (err == nil) != tc.ok {
			t.Errorf("checkWork(%q, %q) = %v, want ok=%v", tc.work, tc.dir, err, tc.ok)
		}
	}
}

func TestCheckReadOnly(t *testing.T) {
	for p, ok := range map[string]bool{"/opt/tools": true, "/srv/data/x.conf": true, "/": false, "opt": false,
		"/opt/../tmp": false, "/tmp/x": false, "/tmp": false, "/proc/self": false, "/dev/sda": false} {
		if err := CheckReadOnly([]string{p}); (err == nil) != ok {
			t.Errorf("CheckReadOnly(%q) = %v, want ok=%v", p, err, ok)
		}
	}
}

// TestHome: an empty private $HOME only where it hides nothing.
func TestHome(t *testing.T) {
	c := &Config{}
	for h, want := range map[string]string{"/home/sandbox": "/home/sandbox", "/": "", "/usr/home": "",
		"/workspace/h": "", "/tmp/h": "", "rel": "", "/home/../etc": ""} {
		if got := c.home([]string{"HOME=" + h}, "/workspace"); got != want {
			t.Errorf("home(%q) = %q, want %q", h, got, want)
		}
	}
}

// TestBwrapArgs: the bwrap jail unshares everything, hides the secrets
// and leaves its init the mount points to mount bounded (mountBounded;
// bwrap's --tmpfs bounds no file count).
func TestBwrapArgs(t *testing.T) {
	ic := &initConfig{RO: []string{"/usr", "/etc"}, Links: map[string]string{"/bin": "usr/bin"},
		Masked: []string{"/etc/shadow"}, Work: "/workspace", Home: "/home/sandbox", Limits: Limits{MaxFSBytes: 1 << 20}}
	a := strings.Join(bwrapArgs("/usr/local/bin/sandsh", ic), " ")
	for _, want := range []string{"--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
		"--die-with-parent", "--new-session", "--cap-drop ALL", "--ro-bind /usr /usr", "--ro-bind /etc /etc",
		"--symlink usr/bin /bin", "--ro-bind /dev/null /etc/shadow", "--dir /tmp", "--dir /workspace",
		"--cap-drop ALL --cap-add CAP_SYS_ADMIN", "--dir /home/sandbox", "--ro-bind /usr/local/bin/sandsh " + initInBwrap} {
		if !strings.Contains(a, want) {
			t.Errorf("bwrap args lack %q: %s", want, a)
		}
	}
	if strings.Contains(a, "--tmpfs") || strings.Contains(a, "--size") {
		t.Errorf("bwrap mounts a tmpfs the init does not bound: %s", a)
	}
	if a := strings.Join(bwrapArgs("", ic), " "); !strings.Contains(a, "--perms 0555 --ro-bind-data 5 "+initInBwrap) {
		t.Errorf("without a reachable sandsh, bwrap must copy it in: %s", a)
	}
}
