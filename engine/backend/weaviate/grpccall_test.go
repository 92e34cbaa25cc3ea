package weaviate

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// The hand-made gRPC call against grpc-go's server with Weaviate's
// generated service on loopback: the wire format the server speaks, without
// a cluster (the tests in grpc_test.go run the same imports against the
// real server).

type fakeWeaviate struct {
	pb.UnimplementedWeaviateServer
	handle func(context.Context, *pb.BatchObjectsRequest) (*pb.BatchObjectsReply, error)
}

func (f *fakeWeaviate) BatchObjects(ctx context.Context, req *pb.BatchObjectsRequest) (*pb.BatchObjectsReply, error) {
	return f.handle(ctx, req)
}

// countingListener counts the connections it accepts.
type countingListener struct {
	net.Listener
	n atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

// fakeGRPC serves handle on a loopback port and returns a client whose
// imports go there (its REST URL has no server: nothing but the import
// may be called).
func fakeGRPC(t *testing.T, key string, handle func(context.Context, *pb.BatchObjectsRequest) (*pb.BatchObjectsReply, error)) (*Client, *countingListener) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &countingListener{Listener: l}
	s := grpc.NewServer(grpc.MaxRecvMsgSize(grpcMaxMessage))
	pb.RegisterWeaviateServer(s, &fakeWeaviate{handle: handle})
	go s.Serve(cl)
	t.Cleanup(s.Stop)
	c, err := New(Config{URL: "http://127.0.0.1:1", APIKey: key, GRPC: l.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, cl
}

func TestGRPCCallDeliversTheRequest(t *testing.T) {
	objs := wireObjects(25, 9)
	var got *pb.BatchObjectsRequest
	var auth []string
	var deadline bool
	c, _ := fakeGRPC(t, "sekret", func(ctx context.Context, req *pb.BatchObjectsRequest) (*pb.BatchObjectsReply, error) {
		got = req
		md, _ := metadata.FromIncomingContext(ctx)
		auth = md.Get("authorization")
		_, deadline = ctx.Deadline()
		return &pb.BatchObjectsReply{Took: 0.1}, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.importBatchGRPC(ctx, "Autorag_x_e1_b", objs, "QUORUM"); err != nil {
		t.Fatal(err)
	}
	if want := referenceRequest(t, "Autorag_x_e1_b", objs, "QUORUM"); !proto.Equal(got, want) {
		t.Fatalf("server received\n%v\nwant\n%v", got, want)
	}
	if len(auth) != 1 || auth[0] != "Bearer sekret" {
		t.Errorf("authorization %q", auth)
	}
	if !deadline {
		t.Error("the context's deadline did not reach the server (grpc-timeout)")
	}
}

func TestGRPCCallObjectErrors(t *testing.T) {
	c, _ := fakeGRPC(t, "", func(_ context.Context, req *pb.BatchObjectsRequest) (*pb.BatchObjectsReply, error) {
		return &pb.BatchObjectsReply{Errors: []*pb.BatchObjectsReply_BatchError{
			{Index: 1, Error: "vector lengths don't match: 103 vs 100"}, {Index: 4, Error: "vector lengths don't match: 103 vs 100"},
		}}, nil
	})
	err := c.importBatchGRPC(context.Background(), "C", corpus(5, 2), "ONE")
	// The REST side is down, so Health fails and the failure counts as
	// the cluster's (objectErrors), worth a retry.
	if !errors.Is(err, ErrDegraded) || !strings.Contains(err.Error(), "2 of 5 objects failed: vector lengths don't match") {
		t.Fatalf("import with refused objects: %v", err)
	}
}

func TestGRPCCallStatus(t *testing.T) {
	for _, tc := range []struct {
		st   *status.Status
		kind error
		op   string
	}{
		{status.New(codes.Unavailable, "node shutting down"), ErrUnreachable, "(grpc Unavailable)"},
		{status.New(codes.NotFound, "collection C not found"), ErrNotFound, "(grpc NotFound)"},
		{status.New(codes.InvalidArgument, "100% wrong: ünïcode\nsecond line"), ErrRefused, "(grpc InvalidArgument)"},
		{status.New(codes.Internal, "cannot reach enough replicas"), ErrDegraded, "(grpc Internal)"},
		{status.New(codes.Internal, "disk full"), ErrRefused, "(grpc Internal)"},
		{status.New(codes.Unauthenticated, "bad key sekret"), ErrRefused, "(grpc Unauthenticated)"},
	} {
		c, _ := fakeGRPC(t, "sekret", func(context.Context, *pb.BatchObjectsRequest) (*pb.BatchObjectsReply, error) {
			return nil, tc.st.Err()
		})
		err := c.importBatchGRPC(context.Background(), "C", corpus(2, 1), "ONE")
		if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.op) {
			t.Errorf("status %v: %v, want %v and %q", tc.st, err, tc.kind, tc.op)
			continue
		}
		if strings.Contains(err.Error(), "sekret") {
			t.Errorf("status %v: the key is not redacted: %v", tc.st, err)
		}
		if m := short(tc.st.Message()); tc.st.Code() != codes.Unauthenticated && !strings.Contains(err.Error(), m) {
			t.Errorf("status %v: message %q not in %v", tc.st, m, err)
		}
	}
}

// TestGRPCCallCancel: canceling the context ends the call at once and
// the server sees the cancellation.
func TestGRPCCallCancel(t *testing.T) {
	serverDone := make(chan error, 1)
	c, _ := fakeGRPC(t, "", func(ctx context.Context, _ *pb.BatchObjectsRequest) (*pb.BatchObjectsReply, error) {
		select {
		case <-ctx.Done():
			serverDone <- ctx.Err()
		case <-time.After(time.Minute):
			serverDone <- errors.New("not canceled")
		}
		return nil, ctx.Err()
	})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	err := c.importBatchGRPC(ctx, "C", corpus(2, 1), "ONE")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled import: %v", err)
	}
	if err := <-serverDone; !errors.Is(err, context.Canceled) {
		t.Fatalf("server: %v", err)
	}
}

// TestGRPCCallsShareAConnection: concurrent batches are streams of one
// HTTP/2 connection, as with grpc-go's client.
func TestGRPCCallsShareAConnection(t *testing.T) {
	var calls atomic.Int32
	c, l := fakeGRPC(t, "", func(_ context.Context, req *pb.BatchObjectsRequest) (*pb.BatchObjectsReply, error) {
		calls.Add(1)
		time.Sleep(20 * time.Millisecond)
		return &pb.BatchObjectsReply{}, nil
	})
	if err := c.importBatchGRPC(context.Background(), "C", corpus(1, 1), "ONE"); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Go(func() { errs <- c.importBatchGRPC(context.Background(), "C", corpus(50, uint64(i)), "ONE") })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if calls.Load() != 17 || l.n.Load() != 1 {
		t.Fatalf("%d calls over %d connections, want 17 over 1", calls.Load(), l.n.Load())
	}
}
