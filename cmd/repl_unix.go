//go:build unix

package cmd

import (
	"os"
	"os/signal"
	"syscall"
)

// handleSignals routes the signals an interactive shell cares about until
// the returned function is called: SIGINT interrupts the running line,
// SIGWINCH resizes the line editor, SIGTERM and SIGHUP end the session
// (restoring the terminal), and SIGQUIT is ignored, as in bash.
func (rp *repl) handleSignals() (stop func()) {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, os.Interrupt, syscall.SIGWINCH, syscall.SIGTERM, syscall.SIGHUP)
	signal.Ignore(syscall.SIGQUIT)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case s := <-sigs:
				switch s {
				case os.Interrupt:
					rp.onInterrupt()
				case syscall.SIGWINCH:
					rp.resize()
				case syscall.SIGTERM, syscall.SIGHUP:
					rp.onTerminate(int(s.(syscall.Signal)))
				}
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		signal.Reset(syscall.SIGQUIT)
		close(done)
	}
}
