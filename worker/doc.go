// Package worker is sandsh's runtime: every script runs in a supervised,
// confined worker process, and this package is the one place that knows
// how. It owns the run's configuration (Options, which travels to the
// worker), starting the worker (a re-execution of the program's own
// binary: rlimits, no_new_privs, Landlock, seccomp, the heap watchdog,
// the supervisor's memory poll and Go stack guard), the wire protocol
// between the two processes, the worker's main (Main), the serving of
// the worker's requests on the supervisor's side (the jail for
// allowlisted host programs, the network gate, the audit log, the
// policy's questions), and restarting a dead worker from a checkpoint.
//
// # Runs and sessions
//
// Run is one `sandsh run`: one worker, one script. A Session is one
// long-lived worker that holds a live shell and filesystem; each call
// sends a script and gets its result back, and nothing in proportion to
// the workspace is copied, encoded or hashed per call:
//
//	o := worker.DefaultOptions()
//	s, err := worker.StartSession(&o, worker.SessionConfig{})
//	if err != nil { ... }
//	defer s.Close()
//	res, err := s.Run(ctx, worker.Call{Script: "echo hi > f; wc -c f"})
//	// res.Status 0, res.Stdout "3 f\n"
//
// A Call has its own standard input, arguments, starting directory,
// timeout and output cap (the head and the tail are kept, with a
// truncation flag); Call.Stdout and Call.Stderr receive the output chunk
// by chunk while it runs instead. Result says the status, the limit that
// ended the call, the duration, the files changed (Call.Changes) and the
// variables asked for. ReadFile, WriteFile and ReadDir go through the
// worker, under the same filesystem, permissions and policy paths as a
// script; Reset starts the session afresh, Close ends it. A Session is
// safe for concurrent use (calls run one at a time); many sessions in
// one process are independent, each with its own worker.
//
// Recovery: after every call the worker sends what changed (the shell
// state when it changed, the files changed as a vfs.Delta), which the
// session keeps in its own copy of the tree: a checkpoint costs what the
// call changed. A worker killed by a limit it could not stop itself
// (memory, a call past its time, a Go stack overflow) or a crash is
// restarted from that checkpoint, and Result.Restarted holds one line
// saying what was lost. Limits the worker stops itself (max-output,
// max-commands, the runner's timeout, ...) end only the call.
//
// A job started with & in a call runs on after it (interp.KeepJobs):
// later calls see it with jobs, wait for it or kill it; what it writes
// between calls is held and comes first in the next call's output.
// Close and Reset stop the jobs.
//
// A Pool keeps session workers started and confined ahead of need, so a
// new session's first call does not wait for a process to start.
//
// The interactive shell is a Session with SessionConfig.Interactive: its
// worker reads the terminal itself and writes to it directly, and lines
// run with RunLine.
//
// # Embedding
//
// The worker is the program itself, started again: a program that uses
// this package must call Main at the start of its main when IsWorker
// reports true, and exit with its status.
//
// The sandsh command (package cmd) keeps the flags, the terminal and the
// printing.
package worker
