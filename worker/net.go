package worker

// Network access for curl and wget: off unless --allow-net or the
// policy's `network:` section names hosts. The gate (package netgate)
// runs in the parent sandsh; the confined worker, which never holds a
// socket (seccomp and Landlock stay as strict as without a network),
// sends it whole requests over a pair of pipes. With --no-worker the
// gate runs in-process.

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/netgate"
	"github.com/sandsh/sandsh/policy"
)

// applyPolicyNetwork copies the policy's network section into the
// options; a flag on the command line wins over the file (--allow-net
// replaces the file's list rather than adding to it).
func (o *Options) applyPolicyNetwork(p *policy.Policy) error {
	n := p.Network
	set := func(flag string) bool { return o.Changed == nil || !o.Changed(flag) }
	pn := n
	if len(n.Allow) > 0 && set("allow-net") {
		o.AllowNet = o.AllowNet[:0]
		for _, e := range n.Allow {
			o.AllowNet = append(o.AllowNet, e.URL)
		}
	} else {
		pn.Allow = nil // --allow-net replaces the file's entries
	}
	o.netPolicy = &pn
	if n.MaxRequests != nil && set("max-net-requests") {
		o.MaxNetRequests = *n.MaxRequests
	}
	if n.MaxBytes != nil && set("max-net-bytes") {
		o.MaxNetBytes = *n.MaxBytes
	}
	if n.Timeout != nil && set("net-timeout") {
		d, err := policy.ParseDuration(*n.Timeout)
		if err != nil {
			return &configError{fmt.Errorf("%s: network: timeout: %v", p.File, err)}
		}
		o.NetTimeout = d
	}
	return nil
}

// netConfig is the gate's configuration; ok is false when nothing is
// allowed (then no gate is built and every request is refused).
func (o *Options) netConfig() (cfg netgate.Config, ok bool, err error) {
	if o.MaxNetRequests < 0 || o.NetTimeout < 0 {
		return cfg, false, usagef("limits must not be negative")
	}
	maxBytes, err := ParseBytes(o.MaxNetBytes)
	if err != nil {
		return cfg, false, usagef("--max-net-bytes: %v", err)
	}
	cfg = netgate.Config{MaxRequests: o.MaxNetRequests, MaxBytes: maxBytes, Timeout: o.NetTimeout}
	entries := policy.NetEntries(o.AllowNet)
	if o.netPolicy != nil && o.netPolicy.Allow != nil {
		entries = o.netPolicy.Allow
	}
	for _, e := range entries {
		a, err := e.Parse()
		if err != nil {
			return cfg, false, usagef("--allow-net: %v", err)
		}
		cfg.Allow = append(cfg.Allow, a)
	}
	if o.netPolicy != nil {
		for _, e := range o.netPolicy.Deny {
			a, err := e.Parse()
			if err != nil {
				return cfg, false, &configError{fmt.Errorf("network: deny: %v", err)}
			}
			cfg.Deny = append(cfg.Deny, a)
		}
		if len(cfg.Allow) > 0 {
			if cfg.Credentials, err = o.credentials(o.netPolicy.Credentials); err != nil {
				return cfg, false, err
			}
		}
	}
	return cfg, len(cfg.Allow) > 0, nil
}

// credentials reads the credentials' values, in the parent: from its
// environment (which the sandbox never sees) or a host file. A value
// that cannot be read stops the run (78) rather than send requests
// without it.
func (o *Options) credentials(cs []policy.Credential) ([]netgate.Credential, error) {
	var out []netgate.Credential
	for _, c := range cs {
		cover, err := policy.ParseNetAllow(c.URL)
		if err != nil {
			return nil, &configError{fmt.Errorf("network: credentials: %v", err)}
		}
		var value string
		if c.ValueEnv != "" {
			v := os.Getenv(c.ValueEnv)
			if v == "" {
				return nil, &configError{fmt.Errorf("network: credentials: %s: the variable %s is not set (or empty)", c.Header, c.ValueEnv)}
			}
			value = v
		} else {
			data, err := os.ReadFile(c.ValueFile)
			if err != nil {
				return nil, &configError{fmt.Errorf("network: credentials: %s: %s: %s", c.Header, c.ValueFile, builtins.ErrText(err))}
			}
			value = strings.TrimRight(string(data), "\r\n")
		}
		if strings.ContainsAny(value, "\r\n\x00") {
			return nil, &configError{fmt.Errorf("network: credentials: %s: the value holds a line break or NUL", c.Header)}
		}
		out = append(out, netgate.Credential{Cover: cover, Header: c.Header, Value: value})
	}
	return out, nil
}

// sandboxNet is the sandbox's network: the worker's broker, or (in
// --no-worker runs) a gate in this process; nil when nothing is allowed.
func (o *Options) sandboxNet() (builtins.Net, error) {
	cfg, ok, err := o.netConfig()
	if err != nil || !ok {
		return nil, err
	}
	if o.worker != nil {
		if o.worker.net == nil {
			return nil, fmt.Errorf("internal error: worker: --allow-net without a network broker")
		}
		return o.worker.net, nil
	}
	if o.gate == nil {
		if o.gate, err = netgate.New(cfg); err != nil {
			return nil, err
		}
	}
	return o.gate, nil
}

// startNetBroker adds the broker's pipes to the worker's descriptors and
// records them in the payload; it returns nil when nothing is allowed.
// The gate is built once per sandsh (o.gate), so the request limit holds
// across the interactive shell's worker restarts.
func (o *Options) startNetBroker(extra *[]*os.File, p *workerPayload) (*broker, error) {
	cfg, ok, err := o.netConfig()
	if err != nil || !ok {
		return nil, err
	}
	if o.gate == nil {
		if o.gate, err = netgate.New(cfg); err != nil {
			return nil, err
		}
	}
	gate := o.gate
	b, fds, err := startBroker(extra, func(ctx context.Context, req io.Reader, resp io.Writer) {
		netgate.Serve(ctx, gate, req, resp)
	})
	if err != nil {
		return nil, err
	}
	p.NetFDs = fds
	p.NetMaxBytes = cfg.MaxBytes
	return b, nil
}

// workerNet is the worker's end of the broker.
func workerNet(p *workerPayload) builtins.Net {
	w, r := workerPipes(p.NetFDs, "net")
	if w == nil {
		return nil
	}
	return netgate.NewRemote(r, w, p.NetMaxBytes)
}

// ResetNet drops the network gate built so far, so the next run gets its
// own (and its own request count).
func (o *Options) ResetNet() { o.gate = nil }
