package weaviate

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// A unary gRPC call is an HTTP/2 POST to /package.Service/Method whose
// body is one message behind a 5-byte prefix (a compression flag and a
// big-endian length), answered by one prefixed message and the call's
// status in the trailers grpc-status and grpc-message (or in the headers
// alone when the call failed before any reply). net/http speaks HTTP/2
// without TLS by prior knowledge (Protocols.SetUnencryptedHTTP2), which
// is what a plain gRPC port expects.

// gRPC status codes (google.golang.org/grpc/codes), by value.
const (
	codeOK                = 0
	codeCanceled          = 1
	codeUnknown           = 2
	codeDeadlineExceeded  = 4
	codeNotFound          = 5
	codePermissionDenied  = 7
	codeResourceExhausted = 8
	codeAborted           = 10
	codeUnimplemented     = 12
	codeInternal          = 13
	codeUnavailable       = 14
	codeUnauthenticated   = 16
)

var codeNames = [...]string{"OK", "Canceled", "Unknown", "InvalidArgument", "DeadlineExceeded",
	"NotFound", "AlreadyExists", "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
	"Aborted", "OutOfRange", "Unimplemented", "Internal", "Unavailable", "DataLoss", "Unauthenticated"}

// rpcError is a call's non-OK status.
type rpcError struct {
	code int
	msg  string
}

func (e *rpcError) Error() string {
	return fmt.Sprintf("rpc error: code = %s desc = %s", e.codeName(), e.msg)
}

func (e *rpcError) codeName() string {
	if e.code >= 0 && e.code < len(codeNames) {
		return codeNames[e.code]
	}
	return "Code(" + strconv.Itoa(e.code) + ")"
}

// asRPCError is err's status; an error that is not one is Unknown.
func asRPCError(err error) *rpcError {
	var e *rpcError
	if errors.As(err, &e) {
		return e
	}
	return &rpcError{code: codeUnknown, msg: err.Error()}
}

// grpcTransport is what a call needs of net/http (a field, so that a
// test can count connections).
type grpcTransport interface {
	RoundTrip(*http.Request) (*http.Response, error)
	CloseIdleConnections()
}

func newGRPCTransport() *http.Transport {
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	return &http.Transport{
		Protocols:          &p,
		DisableCompression: true,
		DialContext:        (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		IdleConnTimeout:    90 * time.Second,
	}
}

func (g *grpcConn) transport() grpcTransport {
	g.once.Do(func() {
		if g.tr == nil {
			g.tr = newGRPCTransport()
		}
	})
	return g.tr
}

func (g *grpcConn) close() {
	g.transport().CloseIdleConnections()
}

// call makes the unary call method with request message msg and returns
// the reply message. key, when set, is sent as a bearer token. A failure
// is an *rpcError: transport failures are Unavailable, as grpc-go reports
// them.
func (g *grpcConn) call(ctx context.Context, method, key string, msg []byte) ([]byte, error) {
	if len(msg) > grpcMaxMessage {
		return nil, &rpcError{code: codeResourceExhausted, msg: fmt.Sprintf("request of %d bytes exceeds %d", len(msg), grpcMaxMessage)}
	}
	body := make([]byte, 5, 5+len(msg))
	binary.BigEndian.PutUint32(body[1:], uint32(len(msg)))
	body = append(body, msg...)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+g.addr+method, bytes.NewReader(body))
	if err != nil {
		return nil, &rpcError{code: codeInternal, msg: err.Error()}
	}
	req.Header.Set("Content-Type", "application/grpc")
	req.Header.Set("Te", "trailers")
	req.Header.Set("User-Agent", "autorag")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if dl, ok := ctx.Deadline(); ok {
		d := time.Until(dl)
		if d <= 0 {
			return nil, &rpcError{code: codeDeadlineExceeded, msg: context.DeadlineExceeded.Error()}
		}
		req.Header.Set("Grpc-Timeout", grpcTimeout(d))
	}
	resp, err := g.transport().RoundTrip(req)
	if err != nil {
		return nil, &rpcError{code: codeUnavailable, msg: err.Error()}
	}
	defer resp.Body.Close()
	return readReply(resp)
}

// readReply reads a call's reply message and status.
func readReply(resp *http.Response) ([]byte, error) {
	if resp.StatusCode != http.StatusOK {
		return nil, &rpcError{code: httpStatusCode(resp.StatusCode), msg: "unexpected HTTP status " + resp.Status}
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/grpc") {
		return nil, &rpcError{code: codeUnknown, msg: fmt.Sprintf("unexpected content-type %q", ct)}
	}
	if st := callStatus(resp.Header); st != nil { // trailers-only: no message follows
		return nil, st
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, 5+grpcMaxMessage+1))
	if err != nil {
		return nil, &rpcError{code: codeUnavailable, msg: "read reply: " + err.Error()}
	}
	if st := callStatus(resp.Trailer); st != nil {
		return nil, st
	}
	if resp.Trailer.Get("Grpc-Status") == "" {
		return nil, &rpcError{code: codeInternal, msg: "reply without grpc-status"}
	}
	if len(data) < 5 || data[0] != 0 || uint64(binary.BigEndian.Uint32(data[1:])) != uint64(len(data)-5) {
		return nil, &rpcError{code: codeInternal, msg: fmt.Sprintf("reply is not one uncompressed message (%d bytes)", len(data))}
	}
	return data[5:], nil
}

// callStatus is the non-OK status carried by h; nil when h has none or OK.
func callStatus(h http.Header) *rpcError {
	s := h.Get("Grpc-Status")
	if s == "" {
		return nil
	}
	code, err := strconv.Atoi(s)
	if err != nil {
		return &rpcError{code: codeUnknown, msg: "bad grpc-status " + strconv.Quote(s)}
	}
	if code == codeOK {
		return nil
	}
	msg := h.Get("Grpc-Message")
	if m, err := url.PathUnescape(msg); err == nil {
		msg = m
	}
	return &rpcError{code: code, msg: msg}
}

// httpStatusCode is the status gRPC gives a call answered with a non-200
// HTTP status (a proxy, or no gRPC server behind the port).
func httpStatusCode(status int) int {
	switch status {
	case http.StatusBadRequest:
		return codeInternal
	case http.StatusUnauthorized:
		return codeUnauthenticated
	case http.StatusForbidden:
		return codePermissionDenied
	case http.StatusNotFound:
		return codeUnimplemented
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return codeUnavailable
	}
	return codeUnknown
}
