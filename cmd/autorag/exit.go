package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/lock"
)

// Exit codes (DESIGN.md): every command maps its error here and nowhere else.
const (
	exitOK          = 0
	exitBusy        = 1
	exitUsage       = 2
	exitFailed      = 3
	exitInterrupted = 130
)

// usageError marks errors of the command line or the configuration.
type usageError struct{ err error }

func (u *usageError) Error() string { return u.err.Error() }
func (u *usageError) Unwrap() error { return u.err }

func usagef(format string, args ...any) error {
	return &usageError{err: fmt.Errorf(format, args...)}
}

// classify maps an error to its exit code and envelope code.
func classify(err error) (int, string) {
	var ue *usageError
	switch {
	case err == nil:
		return exitOK, ""
	case errors.Is(err, lock.ErrBusy):
		return exitBusy, "busy"
	case errors.Is(err, context.Canceled):
		return exitInterrupted, "interrupted"
	case errors.As(err, &ue), errors.Is(err, engine.ErrUsage):
		return exitUsage, "usage"
	case errors.Is(err, engine.ErrNoIndex):
		return exitUsage, "no_index"
	case errors.Is(err, lock.ErrNotRegular):
		return exitFailed, "lock_path"
	default:
		return exitFailed, "failed"
	}
}

// errorEnvelope is the JSON form of a failure.
type errorEnvelope struct {
	OK      bool         `json:"ok"`
	Outcome string       `json:"outcome"`
	Holder  *lock.Holder `json:"holder,omitempty"`
	Error   errorBody    `json:"error"`
}

type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// report prints err as an envelope (--json) or a line on stderr, and
// returns the exit code.
func report(err error, asJSON bool, stdout, stderr io.Writer) int {
	code, name := classify(err)
	var se *silentError
	if code == exitOK || errors.As(err, &se) {
		return code
	}
	if !asJSON {
		fmt.Fprintf(stderr, "autorag: %v\n", err)
		return code
	}
	env := errorEnvelope{Outcome: "error", Error: errorBody{Code: name, Message: err.Error()}}
	var be *lock.BusyError
	if errors.As(err, &be) {
		env.Outcome, env.Holder = "busy", be.Holder
	}
	writeJSON(stdout, env)
	return code
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// silentError fails a command whose output already said why (exit 3, no
// second envelope).
type silentError struct{ err error }

func (s *silentError) Error() string { return s.err.Error() }
func (s *silentError) Unwrap() error { return s.err }
