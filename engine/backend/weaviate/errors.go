package weaviate

import (
	"errors"
	"fmt"
	"strings"
)

// Conditions a caller tests with errors.Is.
var (
	// ErrUnreachable: no answer from the cluster (connection refused, timeout).
	ErrUnreachable = errors.New("weaviate unreachable")
	// ErrDegraded: the cluster answers but cannot serve the request because
	// nodes are down or not ready (writes that cannot reach their replicas).
	ErrDegraded = errors.New("weaviate cluster degraded")
	// ErrRefused: the cluster refused the request (bad schema or object,
	// unauthorized, conflict); retrying the same request will not help.
	ErrRefused = errors.New("weaviate refused the request")
	// ErrNotFound: the alias, collection or object does not exist.
	ErrNotFound = errors.New("weaviate: not found")
	// ErrUnfinished: an update committed (the alias names the new state)
	// but a step after the swap failed (not every member confirmed it, or
	// the journal was not cleared); the next update finishes it.
	ErrUnfinished = errors.New("update committed; finishing it is left to the next update")
)

// apiError carries what the cluster said about a failed request. It unwraps
// to one of the sentinels above.
type apiError struct {
	op     string
	status int
	msg    string
	kind   error
}

func (e *apiError) Error() string {
	if e.status != 0 {
		return fmt.Sprintf("%s: %s (http %d): %s", e.op, e.kind, e.status, e.msg)
	}
	return fmt.Sprintf("%s: %s: %s", e.op, e.kind, e.msg)
}

func (e *apiError) Unwrap() error { return e.kind }

// kindOf maps an HTTP status and the server's message to the condition a
// caller tests.
func kindOf(status int, msg string) error {
	switch {
	case status == 404:
		return ErrNotFound
	case status >= 500 || clusterCondition(msg):
		return ErrDegraded
	default:
		return ErrRefused
	}
}

// clusterCondition says whether a message reports the cluster's own state
// rather than a fault of the request, so that trying again may succeed:
//   - a call between the nodes failed: Weaviate answers a schema change with
//     400 when its forward to the leader fails ("rpc error: code = Canceled
//     desc = grpc: the client connection is closing", for a few seconds
//     after a node restarted), and fails a batch's objects when one node's
//     replication call to another does not answer (`Post
//     "http://…/replicas/indices/…": net/http: timeout awaiting response
//     headers`, seen in CI);
//   - a replica does not know a just-created collection yet ("request not
//     found", "could not find index", or on the node coordinating the
//     write: "not present in schema");
//   - a replica did not answer the first phase of a replicated write in time
//     ("cannot reach enough replicas", aborted on every replica).
func clusterCondition(msg string) bool {
	for _, m := range []string{
		"rpc error: code = Canceled", "rpc error: code = Unavailable", "rpc error: code = DeadlineExceeded",
		"the client connection is closing", "leader not found", "/replicas/indices/",
		"request not found", "could not find index", "not present in schema", "cannot reach enough replicas",
	} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// redact removes the API key from s, whatever the server echoed back.
func redact(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "[redacted]")
}

// retryable reports whether trying the same request again may succeed.
func retryable(err error) bool {
	return errors.Is(err, ErrUnreachable) || errors.Is(err, ErrDegraded)
}
