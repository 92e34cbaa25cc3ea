package backend

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUsage marks errors of what the caller asked for (a mode the index
// cannot serve, a mismatched embedder): the CLI exits 2 for them.
var ErrUsage = errors.New("usage error")

type usageErr struct{ msg string }

func (u usageErr) Error() string        { return u.msg }
func (u usageErr) Is(target error) bool { return target == ErrUsage }

// Usagef is an error of what the caller asked for (errors.Is ErrUsage).
func Usagef(format string, args ...any) error { return usageErr{msg: fmt.Sprintf(format, args...)} }

// MaxQueryBytes bounds a query's text on every surface (CLI, HTTP, MCP):
// past it a query is a mistake (a file pasted whole), and its text would
// key the caches of answers and snippets.
const MaxQueryBytes = 8 << 10

// CheckText refuses an empty query text and one past MaxQueryBytes.
func CheckText(text string) error {
	if strings.TrimSpace(text) == "" {
		return Usagef("empty query: give the words to search for")
	}
	if len(text) > MaxQueryBytes {
		return Usagef("query of %d bytes: at most %d (give the words to search for, not a document)", len(text), MaxQueryBytes)
	}
	return nil
}
