package interp

import "io"

// NextRun prepares a runner that has already run for another run in the
// same session, like the next script a shell session runs: the state
// (variables, functions, options, directory, files) stays; the standard
// streams, $0 and the positional parameters are replaced, a pending
// `exit` is forgotten, and every limit counter starts again from zero.
// Call it between runs, never during one.
func (r *Runner) NextRun(stdin io.Reader, stdout, stderr io.Writer, arg0 string, params []string) {
	r.Reset()
	r.s.fatalMu.Lock()
	r.s.fatal = nil
	r.s.hasFatal.Store(false)
	r.s.fatalMu.Unlock()
	r.s.commands.Store(0)
	r.s.outBytes.Store(0)
	r.fds.closeAll()
	r.fds = newFDTable(stdin, stdout, stderr, &r.s.outBytes, r.s.limits.MaxOutput, r.s)
	if arg0 == "" {
		arg0 = "sandsh"
	}
	r.arg0, r.params = arg0, append([]string(nil), params...)
	r.exitCode, r.lastStatus = 0, 0
}

// SetStdio replaces the standard streams of a runner between runs.
func (r *Runner) SetStdio(stdin io.Reader, stdout, stderr io.Writer) {
	r.fds.closeAll()
	r.fds = newFDTable(stdin, stdout, stderr, &r.s.outBytes, r.s.limits.MaxOutput, r.s)
}

// SetScriptFile says whether the next run is a script file (as opposed
// to -c text or stdin), which bash shows in ${FUNCNAME[@]} as "main".
func (r *Runner) SetScriptFile(on bool) { r.scriptFile = on }

// SetCommandString says whether the next run is -c text, where bash ends
// with status 127 (not 1) on an unset variable under set -u.
func (r *Runner) SetCommandString(on bool) { r.cmdString = on }

// StopJobs stops the background jobs started at an interactive prompt,
// which outlive their line, when the session ends without Finish.
func (r *Runner) StopJobs() { r.s.jobCancel() }
