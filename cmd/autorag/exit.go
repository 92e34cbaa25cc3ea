package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/autorag/autorag/envelope"
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

// exitCodes maps each envelope error code to its exit code.
var exitCodes = map[string]int{
	envelope.CodeBusy:        exitBusy,
	envelope.CodeInterrupted: exitInterrupted,
	envelope.CodeUsage:       exitUsage,
	envelope.CodeNoIndex:     exitUsage,
	envelope.CodeLockPath:    exitFailed,
	envelope.CodeFailed:      exitFailed,
	envelope.CodeDamaged:     exitFailed,
}

// classify maps an error to its exit code and envelope code.
func classify(err error) (int, string) {
	if err == nil {
		return exitOK, ""
	}
	var ue *usageError
	if errors.As(err, &ue) {
		return exitUsage, envelope.CodeUsage
	}
	code := envelope.Code(err)
	return exitCodes[code], code
}

// report prints err as an envelope (--json) or a line on stderr with the
// hint hintFor gives its class, and returns the exit code. An interruption
// is said in one line, whatever the cancelled steps reported.
func report(err error, asJSON bool, hintFor func(code string) string, stdout, stderr io.Writer) int {
	code, name := classify(err)
	var se *silentError
	if code == exitOK || errors.As(err, &se) {
		return code
	}
	if name == envelope.CodeInterrupted {
		err = errInterrupted
	}
	hint := hintFor(name)
	if !asJSON {
		fmt.Fprintf(stderr, "autorag: %v\n", err)
		if hint != "" {
			fmt.Fprintf(stderr, "autorag: hint: %s\n", hint)
		}
		return code
	}
	env := envelope.NewErrorCode(err, name)
	env.Error.Hint = hint
	writeJSON(stdout, env)
	return code
}

// errInterrupted is how an interruption is reported.
var errInterrupted = errors.New("interrupted (SIGINT or SIGTERM)")

func writeJSON(w io.Writer, v any) { _ = envelope.Write(w, v) }

// silentError fails a command whose output already said why (exit 3, no
// second envelope).
type silentError struct{ err error }

func (s *silentError) Error() string { return s.err.Error() }
func (s *silentError) Unwrap() error { return s.err }
