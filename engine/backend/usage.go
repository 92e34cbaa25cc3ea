package backend

import (
	"errors"
	"fmt"
)

// ErrUsage marks errors of what the caller asked for (a mode the index
// cannot serve, a mismatched embedder): the CLI exits 2 for them.
var ErrUsage = errors.New("usage error")

type usageErr struct{ msg string }

func (u usageErr) Error() string        { return u.msg }
func (u usageErr) Is(target error) bool { return target == ErrUsage }

// Usagef is an error of what the caller asked for (errors.Is ErrUsage).
func Usagef(format string, args ...any) error { return usageErr{msg: fmt.Sprintf(format, args...)} }
