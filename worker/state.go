package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/sandsh/sandsh/statefile"
)

// stateError is a --state file that cannot be used (ExitState).
type stateError struct{ err error }

func (e *stateError) Error() string { return e.err.Error() }
func (e *stateError) Unwrap() error { return e.err }

// sessionState reads the --state file a session starts from: its bytes
// (for the worker) and the parsed file (for the session's copy); nil
// when there is none yet.
func (o *Options) sessionState() ([]byte, *statefile.File, error) {
	if o.State == "" {
		return nil, nil, nil
	}
	data, err := o.readStateBytes()
	if err != nil {
		return nil, nil, &stateError{err}
	}
	if data == nil {
		return nil, nil, nil
	}
	f, err := o.parseState(data)
	if err != nil {
		return nil, nil, err
	}
	return data, f, nil
}

// parseState checks a state file's bytes.
func (o *Options) parseState(data []byte) (*statefile.File, error) {
	lim, err := o.sandboxLimits()
	if err != nil {
		return nil, err
	}
	f, err := statefile.Read(bytes.NewReader(data), StateFileMax(lim))
	if err != nil {
		return nil, &stateError{fmt.Errorf("--state %s: %v", o.State, err)}
	}
	return f, nil
}

// stateInputs are the worker's inputs for a session started from a
// state file.
func stateInputs(data []byte) ([]byte, error) {
	if data == nil {
		return nil, nil
	}
	return json.Marshal(&runInputs{State: data, HasState: true})
}

// SaveState writes the session as of its last finished call to the
// --state file (Options.State): the files of the session's copy and its
// shell state, through package statefile, atomically. Nothing is written
// without Options.State.
func (s *Session) SaveState(ctx context.Context) error {
	s.calls.Lock()
	defer s.calls.Unlock()
	if s.o.State == "" {
		return nil
	}
	var st *statefile.File
	switch {
	case s.local != nil:
		var err error
		if st, err = s.local.sb.State(ctx); err != nil {
			return err
		}
	case s.ckpt != nil && s.ckpt.sb != nil:
		var err error
		if st, err = s.ckpt.sb.State(ctx); err != nil {
			return err
		}
		st.Shell = s.ckpt.shell
	case s.ckpt != nil:
		st = &statefile.File{Shell: s.ckpt.shell}
	default:
		return errors.New("session: no state to save")
	}
	return WriteAtomic(s.o.State, 0o600, func(w io.Writer) error { return statefile.Write(w, st) })
}
