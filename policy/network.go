package policy

import (
	"fmt"
	"net/netip"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Network is the policy's `network:` section: the hosts curl and wget may
// reach, and the bounds on what they fetch. The keys mirror the flags
// (--allow-net, --max-net-requests, --max-net-bytes, --net-timeout), which
// win over the file. Without an allow entry the run has no network.
type Network struct {
	Allow       []NetEntry `yaml:"allow,omitempty" json:"allow,omitempty"`
	MaxRequests *int64     `yaml:"max-requests,omitempty" json:"max-requests,omitempty"`
	MaxBytes    *string    `yaml:"max-bytes,omitempty" json:"max-bytes,omitempty"`
	Timeout     *string    `yaml:"timeout,omitempty" json:"timeout,omitempty"`
	// Deny refuses what it names even where Allow allows it, with its
	// reason in the refusal.
	Deny []NetEntry `yaml:"deny,omitempty" json:"deny,omitempty"`
	// Credentials are headers the gate adds to the requests they cover,
	// after the allow check, in place of any the script sent: the value
	// stays in the parent sandsh.
	Credentials []Credential `yaml:"credentials,omitempty" json:"credentials,omitempty"`
}

// NetEntry is one allow or deny entry: a bare string is the URL (HOST,
// HOST:PORT, scheme://HOST/PATH); a mapping also limits the methods and
// the request body and says why.
type NetEntry struct {
	URL     string   `yaml:"url" json:"url"`
	Methods []string `yaml:"methods,omitempty" json:"methods,omitempty"`
	MaxBody *string  `yaml:"max_body,omitempty" json:"max_body,omitempty"`
	Reason  string   `yaml:"reason,omitempty" json:"reason,omitempty"`
}

// UnmarshalYAML takes a string or a mapping with known keys only.
func (e *NetEntry) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*e = NetEntry{URL: n.Value}
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: want a URL or {url, methods, max_body, reason}", n.Line)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch k := n.Content[i].Value; k {
		case "url", "methods", "max_body", "reason":
		default:
			return fmt.Errorf("line %d: unknown key %s (want url, methods, max_body, reason)", n.Content[i].Line, k)
		}
	}
	type plain NetEntry
	var p plain
	if err := n.Decode(&p); err != nil {
		return err
	}
	*e = NetEntry(p)
	return nil
}

// Parse turns the entry into the gate's form.
func (e NetEntry) Parse() (NetAllow, error) {
	a, err := ParseNetAllow(e.URL)
	if err != nil {
		return a, err
	}
	for _, m := range e.Methods {
		if m == "" || strings.ToUpper(m) != m || strings.ContainsAny(m, " \t/:") {
			return a, fmt.Errorf("%q: method %q: want an upper-case method such as GET", e.URL, m)
		}
		a.Methods = append(a.Methods, m)
	}
	if e.MaxBody != nil {
		n, err := ParseSize(*e.MaxBody)
		if err != nil {
			return a, fmt.Errorf("%q: max_body: %v", e.URL, err)
		}
		a.MaxBody, a.HasMaxBody = n, true
	}
	a.Reason = e.Reason
	return a, nil
}

// NetEntries makes plain entries of URLs (--allow-net).
func NetEntries(urls []string) []NetEntry {
	out := make([]NetEntry, len(urls))
	for i, u := range urls {
		out[i] = NetEntry{URL: u}
	}
	return out
}

// Credential is a header the gate adds to the requests URL covers: its
// value from the parent's environment variable ValueEnv or the host file
// ValueFile, never from the sandbox.
type Credential struct {
	URL       string `yaml:"url" json:"url"`
	Header    string `yaml:"header" json:"header"`
	ValueEnv  string `yaml:"value_env,omitempty" json:"value_env,omitempty"`
	ValueFile string `yaml:"value_file,omitempty" json:"value_file,omitempty"`
}

// NetAllow is one parsed allow entry: `HOST`, `HOST:PORT`, `[V6]:PORT`,
// `*.DOMAIN`, or a URL prefix `https://HOST[:PORT]/PATH`.
type NetAllow struct {
	Entry  string // as the operator wrote it
	Scheme string // "" for any of http and https
	Host   string // lower case, no trailing dot; "*.example.com" for a domain's subdomains
	Port   int    // 0: the scheme's default port (80 and 443 for a bare host)
	Path   string // URL path prefix, "" for any
	// Addr is set when Host is a literal IP address: only such an entry
	// lets a request reach a loopback, private, link-local or other
	// special address, and only that very address.
	Addr netip.Addr
	// Methods, when set, are the only methods the entry allows; MaxBody
	// (HasMaxBody) bounds a request's body; Reason says why (shown in a
	// refusal by a deny entry or by these limits).
	Methods    []string
	MaxBody    int64
	HasMaxBody bool
	Reason     string
}

// AllowsRequest reports whether the entry, which covers the URL, allows
// the method and a body of n bytes; why says what it refuses.
func (a NetAllow) AllowsRequest(method string, n int64) (why string, ok bool) {
	if len(a.Methods) > 0 && !slices.Contains(a.Methods, method) {
		why = fmt.Sprintf("method %s is not allowed for %s (%s)", method, a.Entry, strings.Join(a.Methods, ", "))
	} else if a.HasMaxBody && n > a.MaxBody {
		why = fmt.Sprintf("a request body of %d bytes is over %s's max_body %d", n, a.Entry, a.MaxBody)
	} else {
		return "", true
	}
	if a.Reason != "" {
		why += ": " + a.Reason
	}
	return why, false
}

// maxNetAllow bounds the allow list: every request is checked against
// each entry.
const maxNetAllow = 10000

// ParseNetAllow parses one --allow-net value or `network: allow:` entry.
func ParseNetAllow(s string) (NetAllow, error) {
	a := NetAllow{Entry: s}
	if s == "" {
		return a, fmt.Errorf("empty entry")
	}
	hostport := s
	if i := strings.Index(s, "://"); i >= 0 {
		u, err := url.Parse(s)
		if err != nil {
			return a, fmt.Errorf("%q: %v", s, err)
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			return a, fmt.Errorf("%q: scheme %q: want http or https", s, u.Scheme)
		}
		if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return a, fmt.Errorf("%q: want scheme://host[:port]/path-prefix, without user, query or fragment", s)
		}
		a.Scheme, hostport = u.Scheme, u.Host
		if a.Path, err = CleanURLPath(u.EscapedPath()); err != nil {
			return a, fmt.Errorf("%q: %v", s, err)
		}
		if a.Path == "/" {
			a.Path = ""
		}
	} else if strings.ContainsAny(s, "/?#@") {
		return a, fmt.Errorf("%q: want HOST[:PORT] or scheme://HOST[:PORT]/PATH", s)
	}
	host, port := hostport, ""
	if strings.HasPrefix(hostport, "[") {
		end := strings.IndexByte(hostport, ']')
		if end < 0 {
			return a, fmt.Errorf("%q: unterminated [", s)
		}
		host, port = hostport[1:end], strings.TrimPrefix(hostport[end+1:], ":")
		if hostport[end+1:] != "" && !strings.HasPrefix(hostport[end+1:], ":") {
			return a, fmt.Errorf("%q: junk after ]", s)
		}
		addr, err := netip.ParseAddr(host)
		if err != nil || !addr.Is6() {
			return a, fmt.Errorf("%q: [%s] is not an IPv6 address", s, host)
		}
	} else if i := strings.LastIndexByte(hostport, ':'); i >= 0 {
		if strings.Count(hostport, ":") > 1 {
			host = hostport // a bare IPv6 address
		} else {
			host, port = hostport[:i], hostport[i+1:]
		}
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return a, fmt.Errorf("%q: port %q: want 1 to 65535", s, port)
		}
		a.Port = n
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if addr, err := netip.ParseAddr(host); err == nil {
		if addr.Zone() != "" {
			return a, fmt.Errorf("%q: an address with a zone cannot be allowed", s)
		}
		a.Addr = addr.Unmap()
		a.Host = a.Addr.String()
		return a, nil
	}
	name := strings.TrimPrefix(host, "*.")
	if name == "" || !validHostName(name) {
		return a, fmt.Errorf("%q: %q is not a host name or IP address", s, host)
	}
	a.Host = host
	return a, nil
}

// validHostName accepts ASCII DNS names: letters, digits, '-', '_' in
// dot-separated labels. Non-ASCII names would need IDNA mapping, whose
// spelling differences are not worth an allow-list ambiguity.
func validHostName(h string) bool {
	if len(h) > 253 {
		return false
	}
	for label := range strings.SplitSeq(h, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// DefaultPort is the port a URL of scheme reaches when it names none.
func DefaultPort(scheme string) int {
	if scheme == "https" {
		return 443
	}
	return 80
}

// Allows reports whether the entry covers a request to scheme://host:port
// with the given escaped path, which CleanURLPath has cleaned. host is
// lower case without a trailing dot (an IP address in its canonical
// form).
func (a NetAllow) Allows(scheme, host string, port int, path string) bool {
	if a.Scheme != "" && a.Scheme != scheme {
		return false
	}
	switch {
	case a.Port != 0:
		if port != a.Port {
			return false
		}
	case a.Scheme != "":
		if port != DefaultPort(a.Scheme) {
			return false
		}
	default:
		if port != 80 && port != 443 {
			return false
		}
	}
	if suffix, ok := strings.CutPrefix(a.Host, "*."); ok {
		if !strings.HasSuffix(host, "."+suffix) {
			return false
		}
	} else if host != a.Host {
		return false
	}
	if a.Path == "" {
		return true
	}
	if path == "" {
		path = "/"
	}
	// A prefix is a path, not a string: /v1 covers /v1 and /v1/x but
	// not /v10.
	return path == a.Path || strings.HasPrefix(path, strings.TrimSuffix(a.Path, "/")+"/")
}

func (n *Network) validate(line func(string) int, itemLine func(key string, i int) int, fail func(int, string, ...any) error) error {
	if len(n.Allow)+len(n.Deny) > maxNetAllow {
		return fail(line("allow"), "network: allow: more than %d entries", maxNetAllow)
	}
	for _, l := range []struct {
		key     string
		entries []NetEntry
	}{{"allow", n.Allow}, {"deny", n.Deny}} {
		for i, e := range l.entries {
			if _, err := e.Parse(); err != nil {
				return fail(itemLine(l.key, i), "network: %s: %v", l.key, err)
			}
			if l.key == "deny" && (e.Methods != nil || e.MaxBody != nil) {
				return fail(itemLine(l.key, i), "network: deny: %q: a deny entry takes url and reason only", e.URL)
			}
		}
	}
	for i, c := range n.Credentials {
		at := itemLine("credentials", i)
		if _, err := ParseNetAllow(c.URL); err != nil {
			return fail(at, "network: credentials: %v", err)
		}
		if c.Header == "" || strings.ContainsAny(c.Header, " \t:\r\n") || strings.EqualFold(c.Header, "Host") {
			return fail(at, "network: credentials: header %q: want a header name such as Authorization", c.Header)
		}
		if (c.ValueEnv == "") == (c.ValueFile == "") {
			return fail(at, "network: credentials: %s: give value_env or value_file (one of them)", c.Header)
		}
	}
	if n.MaxRequests != nil && *n.MaxRequests < 0 {
		return fail(line("max-requests"), "network: max-requests: must not be negative")
	}
	if n.MaxBytes != nil {
		if _, err := ParseSize(*n.MaxBytes); err != nil {
			return fail(line("max-bytes"), "network: max-bytes: %v", err)
		}
	}
	if n.Timeout != nil {
		if d, err := ParseDuration(*n.Timeout); err != nil || d < 0 {
			return fail(line("timeout"), "network: timeout: %q: want a duration like 30s", *n.Timeout)
		}
	}
	return nil
}

// CleanURLPath is the one form of a URL path the allow list compares and
// the gate sends. Servers normalise paths (dot segments, doubled
// slashes, percent-decoding) before they route, so a path compared as
// written could name one resource to the check and another to the
// server: /v1/../secret is inside the prefix /v1/ as a string and is
// /secret to the server. So the path is brought to the form no server
// normalises further, and the forms whose meaning differs from server to
// server are refused:
//
//   - an encoded slash or backslash (%2F, %5C) or a literal backslash,
//     which some servers take for a separator and others do not;
//   - a dot segment spelled with an encoded dot (%2e%2e, .%2E), which
//     some servers decode before they resolve dot segments;
//   - a dot segment carrying a path parameter (..;x), which some servers
//     resolve as a dot segment;
//   - an encoded NUL.
//
// What remains is normalised as RFC 3986 says (an encoded unreserved
// character is decoded, the hex digits of the others are upper case),
// its dot segments are resolved and its empty segments dropped, as
// path.Clean does; a trailing slash stays. escaped is the path as
// url.URL.EscapedPath gives it; "" stays "".
func CleanURLPath(escaped string) (string, error) {
	if escaped == "" {
		return "", nil
	}
	segs := strings.Split(escaped, "/")
	for i, raw := range segs {
		seg, err := normSegment(raw)
		if err != nil {
			return "", err
		}
		name, _, param := strings.Cut(seg, ";")
		if plain := strings.ReplaceAll(name, "%2E", "."); plain == "." || plain == ".." {
			if name != plain {
				return "", fmt.Errorf("a dot segment spelled with an encoded dot (%s) in a URL path is refused", raw)
			}
			if param {
				return "", fmt.Errorf("a dot segment with a parameter (%s) in a URL path is refused", raw)
			}
		}
		segs[i] = strings.ReplaceAll(seg, "%2E", ".")
	}
	clean := path.Clean("/" + strings.Join(segs, "/"))
	if last := segs[len(segs)-1]; clean != "/" && (last == "" || last == "." || last == "..") {
		clean += "/"
	}
	return clean, nil
}

// normSegment normalises one path segment's percent-encoding: an encoded
// unreserved character is decoded, the others' hex digits are upper
// case. An encoded dot stays encoded (as %2E) for the dot-segment check.
func normSegment(raw string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '\\':
			return "", fmt.Errorf("a backslash in a URL path is refused (servers differ on whether it separates segments)")
		case c != '%':
			b.WriteByte(c)
			continue
		case i+2 >= len(raw) || !isHex(raw[i+1]) || !isHex(raw[i+2]):
			return "", fmt.Errorf("malformed percent-encoding in the URL path (%s)", raw)
		}
		v := unhex(raw[i+1])<<4 | unhex(raw[i+2])
		switch {
		case v == '/' || v == '\\':
			return "", fmt.Errorf("an encoded slash or backslash (%s) in a URL path is refused (servers differ on whether it separates segments)", raw[i:i+3])
		case v == 0:
			return "", fmt.Errorf("an encoded NUL (%%00) in a URL path is refused")
		case v == '.':
			b.WriteString("%2E")
		case isUnreserved(v):
			b.WriteByte(v)
		default:
			fmt.Fprintf(&b, "%%%02X", v)
		}
		i += 2
	}
	return b.String(), nil
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// isUnreserved is RFC 3986's unreserved set: its encoded and plain forms
// are the same URL.
func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}
