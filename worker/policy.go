package worker

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/policy"
)

// configError is a policy that cannot be used: "file:line: message".
type configError struct{ err error }

func (e *configError) Error() string { return e.err.Error() }

// LoadPolicy reads and validates --policy once, in the process that
// parsed the command line: the file's bytes travel to the worker in
// PolicyData (the confined worker reads no host file), and the file's
// limits are copied into the options for every flag not given.
func (o *Options) LoadPolicy() (*policy.Policy, error) {
	if o.Policy == "" {
		return nil, nil
	}
	fresh := o.PolicyData == nil
	if fresh {
		data, err := ReadPolicyFile(o.Policy)
		if err != nil {
			return nil, &configError{err}
		}
		o.PolicyData = data
	}
	p, err := policy.Parse(o.Policy, o.PolicyData)
	if err != nil {
		return nil, &configError{err}
	}
	if fresh {
		if err := o.applyPolicyLimits(p); err != nil {
			return nil, err
		}
		if err := o.applyPolicyNetwork(p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func ReadPolicyFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: No such file or directory", name)
		}
		return nil, fmt.Errorf("%s: %s", name, builtins.ErrText(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, policy.MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %s", name, builtins.ErrText(err))
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

// applyPolicyLimits copies the policy's limits into the options; a flag
// on the command line wins over the file.
func (o *Options) applyPolicyLimits(p *policy.Policy) error {
	l := p.Limits
	set := func(flag string) bool { return o.Changed == nil || !o.Changed(flag) }
	if l.Timeout != nil && set("timeout") {
		d, err := time.ParseDuration(*l.Timeout)
		if err != nil {
			return &configError{fmt.Errorf("%s: limits: timeout: %v", o.Policy, err)}
		}
		o.Timeout = d
	}
	for _, n := range []struct {
		flag string
		v    *int64
		dst  *int64
	}{{"max-commands", l.MaxCommands, &o.MaxCommands}, {"max-loop-iterations", l.MaxLoopIters, &o.MaxLoopIters}} {
		if n.v != nil && set(n.flag) {
			*n.dst = *n.v
		}
	}
	for _, n := range []struct {
		flag string
		v    *int
		dst  *int
	}{{"max-call-depth", l.MaxCallDepth, &o.MaxCallDepth}, {"max-files", l.MaxFiles, &o.MaxFiles},
		{"max-jobs", l.MaxJobs, &o.MaxJobs}, {"max-fields", l.MaxFields, &o.MaxFields}} {
		if n.v != nil && set(n.flag) {
			*n.dst = *n.v
		}
	}
	for _, s := range []struct {
		flag string
		v    *string
		dst  *string
	}{{"max-output", l.MaxOutput, &o.MaxOutput}, {"max-fs-bytes", l.MaxFSBytes, &o.MaxFSBytes},
		{"max-file-size", l.MaxFileSize, &o.MaxFileSize}, {"max-memory", l.MaxMemory, &o.MaxMemory},
		{"max-var-bytes", l.MaxVarBytes, &o.MaxVarBytes}, {"max-capture", l.MaxCapture, &o.MaxCapture},
		{"max-script-bytes", l.MaxScript, &o.MaxScript}} {
		if s.v != nil && set(s.flag) {
			*s.dst = *s.v
		}
	}
	return nil
}
