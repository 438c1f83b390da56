package worker

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/sandsh/sandsh/builtins"
	"github.com/sandsh/sandsh/hostfile"
	"github.com/sandsh/sandsh/policy"
	"github.com/sandsh/sandsh/vfs"
)

// configError is a policy that cannot be used: "file:line: message".
type configError struct{ err error }

func (e *configError) Error() string { return e.err.Error() }

// LoadPolicy reads and validates --policy once, in the process that
// parsed the command line: the file's bytes travel to the worker in
// PolicyData (the confined worker reads no host file), and the file's
// limits are copied into the options for every flag not given.
func (o *Options) LoadPolicy() (*policy.Policy, error) { return o.loadPolicy(policy.Parse) }

// LoadPolicyUnchecked is LoadPolicy without running the files' inline
// tests (`sandsh policy test` reports on them instead).
func (o *Options) LoadPolicyUnchecked() (*policy.Policy, error) {
	return o.loadPolicy(policy.ParseUnchecked)
}

func (o *Options) loadPolicy(parse func(string, []byte) (*policy.Policy, error)) (*policy.Policy, error) {
	if len(o.Policy) == 0 {
		return nil, nil
	}
	fresh := o.PolicyData == nil
	if fresh {
		for _, name := range o.Policy {
			data, err := ReadPolicyFile(name)
			if err != nil {
				return nil, &configError{err}
			}
			o.PolicyData = append(o.PolicyData, data)
		}
	}
	if len(o.PolicyData) != len(o.Policy) {
		return nil, &configError{fmt.Errorf("%s: policy files and their contents disagree", strings.Join(o.Policy, ", "))}
	}
	layers := make([]*policy.Policy, len(o.Policy))
	for i, name := range o.Policy {
		l, err := parse(name, o.PolicyData[i])
		if err != nil {
			return nil, &configError{err}
		}
		layers[i] = l
	}
	p := policy.Layer(layers...)
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

// ReadPolicyFile reads a --policy file: a regular file (a FIFO or a
// device is refused at once, never waited on), at most one byte past
// policy.MaxSize.
func ReadPolicyFile(name string) ([]byte, error) {
	data, err := hostfile.ReadFile(name, policy.MaxSize)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: No such file or directory", name)
		}
		return nil, fmt.Errorf("%s: %s", name, hostErr(err))
	}
	return data, nil
}

// hostWriteStatus is sandsh's status when a host file it writes for the
// operator cannot be written: ExitUsage when the path is refused (a
// symlink, a FIFO, a directory there), ExitIOErr for the write itself.
func hostWriteStatus(err error) int {
	var nr *hostfile.NotRegularError
	var te *vfs.ExportTargetError
	if errors.As(err, &nr) || errors.As(err, &te) {
		return ExitUsage
	}
	return ExitIOErr
}

// hostErr is a host file error's text for a message that names the file
// itself.
func hostErr(err error) string {
	var nr *hostfile.NotRegularError
	if errors.As(err, &nr) {
		return hostfile.Describe(err)
	}
	return builtins.ErrText(err)
}

// applyPolicyLimits copies the policy's limits into the options; a flag
// on the command line wins over the file.
func (o *Options) applyPolicyLimits(p *policy.Policy) error {
	l := p.Limits
	set := func(flag string) bool { return o.Changed == nil || !o.Changed(flag) }
	if l.Timeout != nil && set("timeout") {
		d, err := policy.ParseDuration(*l.Timeout)
		if err != nil {
			return &configError{fmt.Errorf("%s: limits: timeout: %v", p.File, err)}
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
