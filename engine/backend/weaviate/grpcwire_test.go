package weaviate

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// referenceRequest is the request as the server's generated messages build
// it: the construction the client used before it encoded by hand.
func referenceRequest(t *testing.T, collection string, batch []Object, level string) *pb.BatchObjectsRequest {
	t.Helper()
	req := &pb.BatchObjectsRequest{Objects: make([]*pb.BatchObject, len(batch))}
	if cl, ok := pb.ConsistencyLevel_value["CONSISTENCY_LEVEL_"+level]; ok {
		l := pb.ConsistencyLevel(cl)
		req.ConsistencyLevel = &l
	}
	for i, o := range batch {
		props, err := structpb.NewStruct(map[string]any{
			propChunkID: o.ChunkID, propPath: o.Path, propText: o.Text,
			propTokens: o.Tokens, propMeta: o.Meta, propLang: o.Lang,
		})
		if err != nil {
			t.Fatal(err)
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
		req.Objects[i] = bo
	}
	return req
}

// wireObjects are objects with every shape the encoder distinguishes:
// facets or none, a language or none, a vector or none, long and
// non-ASCII texts, empty strings.
func wireObjects(n int, seed uint64) []Object {
	r := rand.New(rand.NewPCG(seed, 1))
	objs := corpus(n, seed)
	for i := range objs {
		switch i % 4 {
		case 0:
			objs[i].Facets = []string{"type=md", "lang=en", "author=Zoë"}
		case 1:
			objs[i].Vector = nil
		case 2:
			objs[i].Text = strings.Repeat("Grüße, 世界 ", 1+r.IntN(400))
			objs[i].Meta = ""
		}
		objs[i].Lang = []string{"", "de", "ja"}[i%3]
	}
	return objs
}

func TestBatchRequestMatchesGeneratedMessages(t *testing.T) {
	for _, level := range []string{"ONE", "QUORUM", "ALL", "", "SOMETIMES"} {
		objs := wireObjects(40, 3)
		b, err := batchRequest("Autorag_x_e1_a", objs, level)
		if err != nil {
			t.Fatal(err)
		}
		var got pb.BatchObjectsRequest
		if err := proto.Unmarshal(b, &got); err != nil {
			t.Fatalf("level %q: generated messages do not decode the request: %v", level, err)
		}
		if want := referenceRequest(t, "Autorag_x_e1_a", objs, level); !proto.Equal(&got, want) {
			t.Fatalf("level %q: request decodes to\n%v\nwant\n%v", level, &got, want)
		}
	}
	b, err := batchRequest("C", nil, "ONE")
	if err != nil {
		t.Fatal(err)
	}
	var got pb.BatchObjectsRequest
	if err := proto.Unmarshal(b, &got); err != nil || len(got.Objects) != 0 || got.GetConsistencyLevel() != pb.ConsistencyLevel_CONSISTENCY_LEVEL_ONE {
		t.Fatalf("empty batch: %v %v", &got, err)
	}
}

func TestBatchRequestRefusesInvalidUTF8(t *testing.T) {
	for _, mut := range []func(*Object){
		func(o *Object) { o.Text = "bad \xff text" },
		func(o *Object) { o.Path = "p\xc3" },
		func(o *Object) { o.Facets = []string{"type=\xfe"} },
	} {
		o := corpus(1, 1)[0]
		mut(&o)
		if _, err := batchRequest("C", []Object{o}, "ONE"); err == nil || !strings.Contains(err.Error(), "invalid UTF-8") {
			t.Errorf("object %+v: %v, want an invalid UTF-8 error", o, err)
		}
	}
}

func TestBatchReplyErrors(t *testing.T) {
	reply := &pb.BatchObjectsReply{Took: 0.25, Errors: []*pb.BatchObjectsReply_BatchError{
		{Index: 3, Error: "vector lengths don't match: 103 vs 100"},
		{Index: 0, Error: ""},
		{Index: 12, Error: "ünïcode"},
	}}
	b, err := proto.Marshal(reply)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := batchReplyErrors(b)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"vector lengths don't match: 103 vs 100", "", "ünïcode"}; strings.Join(msgs, "|") != strings.Join(want, "|") || len(msgs) != 3 {
		t.Fatalf("errors %q, want %q", msgs, want)
	}
	if b, _ = proto.Marshal(&pb.BatchObjectsReply{Took: 1}); len(b) == 0 {
		t.Fatal("empty reply")
	}
	if msgs, err = batchReplyErrors(b); err != nil || len(msgs) != 0 {
		t.Fatalf("reply without errors: %q %v", msgs, err)
	}
	if msgs, err = batchReplyErrors(nil); err != nil || len(msgs) != 0 {
		t.Fatalf("empty reply: %q %v", msgs, err)
	}
}

// TestBatchReplyMalformed: every truncation of a reply and a group field
// fail cleanly (an error or fewer fields), never a panic or a read past
// the end.
func TestBatchReplyMalformed(t *testing.T) {
	b, _ := proto.Marshal(&pb.BatchObjectsReply{Took: 2, Errors: []*pb.BatchObjectsReply_BatchError{{Index: 1, Error: "refused"}}})
	for i := range len(b) {
		if msgs, err := batchReplyErrors(b[:i]); err == nil && len(msgs) > 1 {
			t.Fatalf("truncated to %d bytes: %q", i, msgs)
		}
	}
	if _, err := batchReplyErrors([]byte{0x13}); err == nil { // field 2, start group
		t.Fatal("group field accepted")
	}
	if _, err := batchReplyErrors([]byte{0x12, 0xff, 0xff, 0xff, 0xff, 0x0f}); err == nil {
		t.Fatal("length beyond the message accepted")
	}
}

func FuzzBatchReplyErrors(f *testing.F) {
	b, _ := proto.Marshal(&pb.BatchObjectsReply{Took: 2, Errors: []*pb.BatchObjectsReply_BatchError{{Index: 1, Error: "refused"}}})
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		msgs, err := batchReplyErrors(b)
		var ref pb.BatchObjectsReply
		if proto.Unmarshal(b, &ref) != nil {
			return // protobuf refuses it too; batchReplyErrors may decode a prefix
		}
		if err != nil {
			t.Fatalf("%x: protobuf decodes it, batchReplyErrors says %v", b, err)
		}
		if len(msgs) != len(ref.Errors) {
			t.Fatalf("%x: %d errors, protobuf %d", b, len(msgs), len(ref.Errors))
		}
		for i, e := range ref.Errors {
			if msgs[i] != e.Error {
				t.Fatalf("%x: error %d %q, protobuf %q", b, i, msgs[i], e.Error)
			}
		}
	})
}

func BenchmarkBatchRequest(b *testing.B) {
	objs := corpus(500, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := batchRequest("C", objs, "QUORUM"); err != nil {
			b.Fatal(err)
		}
	}
}

// vectorBytes is a vector as gRPC's vector_bytes: little-endian float32s.
func vectorBytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}
