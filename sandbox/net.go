package sandbox

import (
	"context"
	"net/url"

	"github.com/sandsh/sandsh/builtins"
)

// auditedNet writes a `net` event for every request curl or wget makes:
// each hop of a redirect chain, and every refusal with its reason.
type auditedNet struct {
	net   builtins.Net // nil: the run has no network; everything is refused
	audit *Audit
	cmd   int64 // the seq of the command_start of the command using it
}

// forCmd is the network as the command whose command_start is seq uses
// it: its events carry cmd_seq.
func (a *auditedNet) forCmd(seq int64) *auditedNet {
	c := *a
	c.cmd = seq
	return &c
}

func (a *auditedNet) emit1(f map[string]any) {
	if a.cmd != 0 {
		f["cmd_seq"] = a.cmd
	}
	a.audit.Emit("net", f)
}

func (a *auditedNet) Do(ctx context.Context, req *builtins.NetRequest) (*builtins.NetResponse, error) {
	if a.net == nil {
		ne := builtins.ErrNoNet(req.URL)
		a.emit(req, nil, ne)
		return nil, ne
	}
	resp, err := a.net.Do(ctx, req)
	var ne *builtins.NetError
	if err != nil {
		ne = builtins.AsNetError(err)
	}
	a.emit(req, resp, ne)
	return resp, err
}

func (a *auditedNet) emit(req *builtins.NetRequest, resp *builtins.NetResponse, ne *builtins.NetError) {
	var hops []builtins.NetHop
	if resp != nil {
		hops = resp.Hops
	} else if ne != nil {
		hops = ne.Hops
	}
	for i, h := range hops {
		f := map[string]any{"method": h.Method, "url": h.URL, "status": h.Status, "bytes": h.Bytes, "decision": "allow"}
		if ne != nil && i == len(hops)-1 && h.Status == 0 {
			f["decision"], f["reason"], f["kind"] = decisionOf(ne), ne.Msg, string(ne.Kind)
		}
		f["url"] = a.url(h.URL)
		a.emit1(f)
	}
	if ne != nil && (len(hops) == 0 || hops[len(hops)-1].Status != 0) {
		// Refused before any socket (the allow list, a refused
		// redirect, a limit), or failed after the last response.
		u := req.URL
		if ne.URL != "" {
			u = ne.URL // a redirect's target
		}
		u = a.url(u)
		a.emit1(map[string]any{"method": req.Method, "url": u, "host": ne.Host, "status": 0, "bytes": 0,
			"decision": decisionOf(ne), "reason": ne.Msg, "kind": string(ne.Kind)})
	}
}

func decisionOf(ne *builtins.NetError) string {
	if ne.Kind == builtins.NetRestricted || ne.Kind == builtins.NetTooMany || ne.Kind == builtins.NetTooBig {
		return "deny"
	}
	return "error"
}

// url is a URL as the log shows it: no password, --audit-redact applied.
func (a *auditedNet) url(s string) string {
	if u, err := url.Parse(s); err == nil {
		s = u.Redacted()
	}
	return a.audit.Argv([]string{s})[0]
}

func hostOf(s string) string {
	if u, err := url.Parse(s); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return s
}
