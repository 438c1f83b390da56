// Package worker is sandsh's runtime: every script runs in a supervised,
// confined worker process, and this package is the one place that knows
// how. It owns the run's configuration (Options, which travels to the
// worker), starting the worker (a re-execution of the program's own
// binary: rlimits, no_new_privs, Landlock, seccomp, the heap watchdog,
// the supervisor's memory poll and Go stack guard), the wire protocol
// between the two processes, the worker's main (Main), and the serving
// of the worker's requests on the supervisor's side: the jail for
// allowlisted host programs, the network gate, the audit log and the
// policy's questions.
//
// The sandsh command (package cmd) keeps the flags, the terminal and
// the printing; it hands a run to Run and an interactive line to
// RemoteShell.
//
// A program that uses this package must call Main at the start of its
// main when IsWorker reports true, and exit with its status: the worker
// is that same program, started again.
package worker
