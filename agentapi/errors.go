package agentapi

import (
	"errors"

	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/mirror"
)

// Error codes of the API beyond the CLI's (envelope.Code).
const (
	CodeNotFound = "not_found" // read: no such file
	CodeRefused  = "refused"   // read: a path indexing would not read
)

// Code names the class of an error an API method returned.
func Code(err error) string {
	switch {
	case errors.Is(err, ErrNotFound):
		return CodeNotFound
	case errors.Is(err, mirror.ErrNotSource):
		return CodeRefused
	default:
		return envelope.Code(err)
	}
}

// ErrorEnvelope is the envelope of an error an API method returned.
func ErrorEnvelope(err error) *envelope.Error { return envelope.NewErrorCode(err, Code(err)) }
