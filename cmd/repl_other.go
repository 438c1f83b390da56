//go:build !unix

package cmd

import (
	"os"
	"os/signal"
)

// handleSignals routes SIGINT to the running line until the returned
// function is called.
func (rp *repl) handleSignals() (stop func()) {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, os.Interrupt)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-sigs:
				rp.onInterrupt()
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}
