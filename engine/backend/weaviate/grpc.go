package weaviate

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Imports go over Weaviate's gRPC batch API (BatchObjects, served since
// 1.23) when Config.GRPC names the node's gRPC address: one protobuf
// message per batch instead of a JSON document. The call is made by hand
// (grpcwire.go: the messages; grpccall.go: gRPC over HTTP/2 with net/http)
// rather than with grpc-go and Weaviate's generated package, whose package
// inits and 4.7 MB every autorag process paid at start (git log -p docs/BENCHMARKS.md,
// "Process start"). Everything else (schema, aliases, searches, deletes)
// stays on REST.

// grpcMaxMessage bounds a batch's request and reply (Weaviate's own
// default GRPC_MAX_MESSAGE_SIZE is 100 MB).
const grpcMaxMessage = 100 << 20

// batchObjectsMethod is the path of Weaviate's BatchObjects call.
const batchObjectsMethod = "/weaviate.v1.Weaviate/BatchObjects"

// checkGRPCAddr accepts "host:port" with a numeric port.
func checkGRPCAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err == nil {
		_, err = strconv.ParseUint(port, 10, 16)
	}
	if err != nil || host == "" || strings.Contains(addr, "/") {
		return fmt.Errorf("weaviate grpc address %q: want host:port", addr)
	}
	return nil
}

// Close releases the gRPC connection, if one was made.
func (c *Client) Close() error {
	if c.grpc != nil {
		c.grpc.close()
	}
	return nil
}

// importBatchGRPC is importBatch over gRPC: the same objects, the same
// classification of per-object failures.
func (c *Client) importBatchGRPC(ctx context.Context, collection string, batch []Object, level string) error {
	op := "import into " + collection
	req, err := batchRequest(collection, batch, level)
	if err != nil {
		return &apiError{op: op, kind: ErrRefused, msg: err.Error()}
	}
	reply, err := c.grpc.call(ctx, batchObjectsMethod, c.key, req)
	if err != nil {
		return c.grpcError(ctx, op, err)
	}
	msgs, err := batchReplyErrors(reply)
	if err != nil {
		return c.grpcError(ctx, op, &rpcError{code: codeInternal, msg: "batch reply: " + err.Error()})
	}
	if len(msgs) == 0 {
		return nil
	}
	return c.objectErrors(ctx, op, len(batch), msgs)
}

// grpcError maps a failed call to the package's conditions, as do maps an
// HTTP status.
func (c *Client) grpcError(ctx context.Context, op string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", op, ctx.Err())
	}
	st := asRPCError(err)
	msg := redact(short(st.msg), c.key)
	kind := ErrRefused
	switch st.code {
	case codeUnavailable, codeDeadlineExceeded, codeCanceled:
		kind = ErrUnreachable
	case codeNotFound:
		kind = ErrNotFound
	case codeInternal, codeUnknown, codeAborted, codeResourceExhausted:
		if clusterCondition(msg) {
			kind = ErrDegraded
		}
	}
	return &apiError{op: op + " (grpc " + st.codeName() + ")", kind: kind, msg: msg}
}

// grpcTimeout is a deadline as gRPC's grpc-timeout header: at most eight
// digits and a unit, rounded up.
func grpcTimeout(d time.Duration) string {
	units := []struct {
		d    time.Duration
		name string
	}{{time.Nanosecond, "n"}, {time.Microsecond, "u"}, {time.Millisecond, "m"}, {time.Second, "S"}, {time.Minute, "M"}, {time.Hour, "H"}}
	for _, u := range units {
		if n := (d + u.d - 1) / u.d; n <= 99_999_999 {
			return strconv.FormatInt(int64(n), 10) + u.name
		}
	}
	return "99999999H"
}

// grpcConn is the HTTP/2 connection pool of a Client's gRPC calls, made
// at the first call.
type grpcConn struct {
	addr string
	once sync.Once
	tr   grpcTransport
}
