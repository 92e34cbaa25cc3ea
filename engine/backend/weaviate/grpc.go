package weaviate

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"net"
	"strconv"
	"strings"
	"sync"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"
)

// Imports go over Weaviate's gRPC batch API (BatchObjects, served since
// 1.23) when Config.GRPC names the node's gRPC address: one protobuf
// message per batch instead of a JSON document, which the server decodes
// several times faster (docs/BENCHMARKS.md, "Weaviate bulk import"). The
// messages are the ones the server itself is built from
// (github.com/weaviate/weaviate/grpc/generated/protocol/v1), so the wire
// format cannot drift from the pinned server's. Everything else (schema,
// aliases, searches, deletes) stays on REST.

// grpcMaxMessage bounds a batch's request and reply (Weaviate's own
// default GRPC_MAX_MESSAGE_SIZE is 100 MB).
const grpcMaxMessage = 100 << 20

// grpcConn is the lazily dialed gRPC connection of a Client.
type grpcConn struct {
	addr string
	once sync.Once
	cc   *grpc.ClientConn
	wc   pb.WeaviateClient
	err  error
}

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

// client dials once (gRPC connects in the background and reconnects on
// its own) and returns the service's stub.
func (g *grpcConn) client() (pb.WeaviateClient, error) {
	g.once.Do(func() {
		g.cc, g.err = grpc.NewClient(g.addr,
			grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(grpcMaxMessage), grpc.MaxCallSendMsgSize(grpcMaxMessage)))
		if g.err == nil {
			g.wc = pb.NewWeaviateClient(g.cc)
		}
	})
	return g.wc, g.err
}

// Close releases the gRPC connection, if one was dialed.
func (c *Client) Close() error {
	if c.grpc == nil || c.grpc.cc == nil {
		return nil
	}
	return c.grpc.cc.Close()
}

// importBatchGRPC is importBatch over gRPC: the same objects, the same
// classification of per-object failures.
func (c *Client) importBatchGRPC(ctx context.Context, collection string, batch []Object, level string) error {
	op := "import into " + collection
	wc, err := c.grpc.client()
	if err != nil {
		return &apiError{op: op, kind: ErrUnreachable, msg: redact(err.Error(), c.key)}
	}
	req := &pb.BatchObjectsRequest{Objects: make([]*pb.BatchObject, len(batch))}
	if cl, ok := pb.ConsistencyLevel_value["CONSISTENCY_LEVEL_"+level]; ok {
		l := pb.ConsistencyLevel(cl)
		req.ConsistencyLevel = &l
	}
	for i, o := range batch {
		if req.Objects[i], err = o.proto(collection); err != nil {
			return &apiError{op: op, kind: ErrRefused, msg: err.Error()}
		}
	}
	if c.key != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+c.key)
	}
	reply, err := wc.BatchObjects(ctx, req)
	if err != nil {
		return c.grpcError(ctx, op, err)
	}
	if len(reply.GetErrors()) == 0 {
		return nil
	}
	msgs := make([]string, len(reply.GetErrors()))
	for i, e := range reply.GetErrors() {
		msgs[i] = e.GetError()
	}
	return c.objectErrors(ctx, op, len(batch), msgs)
}

// grpcError maps a failed call to the package's conditions, as do maps an
// HTTP status.
func (c *Client) grpcError(ctx context.Context, op string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", op, ctx.Err())
	}
	st := status.Convert(err)
	msg := redact(short(st.Message()), c.key)
	kind := ErrRefused
	switch st.Code() {
	case codes.Unavailable, codes.DeadlineExceeded, codes.Canceled:
		kind = ErrUnreachable
	case codes.NotFound:
		kind = ErrNotFound
	case codes.Internal, codes.Unknown, codes.Aborted, codes.ResourceExhausted:
		if clusterCondition(msg) {
			kind = ErrDegraded
		}
	}
	return &apiError{op: op + " (grpc " + st.Code().String() + ")", kind: kind, msg: msg}
}

// proto is the object as a gRPC batch object: the same properties and
// vector as wire's JSON.
func (o Object) proto(collection string) (*pb.BatchObject, error) {
	props, err := structpb.NewStruct(map[string]any{
		propChunkID: o.ChunkID, propPath: o.Path, propText: o.Text,
		propTokens: o.Tokens, propMeta: o.Meta, propLang: o.Lang,
	})
	if err != nil {
		return nil, fmt.Errorf("object %s: %w", o.ChunkID, err)
	}
	bo := &pb.BatchObject{
		Uuid:       ObjectID(o.ChunkID),
		Collection: collection,
		Properties: &pb.BatchObject_Properties{NonRefProperties: props},
	}
	if len(o.Facets) > 0 {
		bo.Properties.TextArrayProperties = []*pb.TextArrayProperties{{PropName: propFacets, Values: o.Facets}}
	} else {
		bo.Properties.EmptyListProps = []string{propFacets}
	}
	if len(o.Vector) > 0 {
		bo.VectorBytes = vectorBytes(o.Vector)
	}
	return bo, nil
}

// vectorBytes is a vector as gRPC's vector_bytes: little-endian float32s.
func vectorBytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}
