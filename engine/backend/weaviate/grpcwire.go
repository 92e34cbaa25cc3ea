package weaviate

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/autorag/autorag/internal/protowire"
)

// The protobuf messages of the one gRPC call the client makes, encoded and
// decoded by hand. Their definitions are the pinned server's
// (grpc/proto/v1/batch.proto and base.proto of weaviate v1.35, and
// google/protobuf/struct.proto); only the fields autorag sends or reads are
// named. Generated code would register Weaviate's whole protocol and
// protobuf's reflection at the start of every autorag process, import or
// not (git log -p docs/BENCHMARKS.md, "Process start"); grpcwire_test.go decodes these
// bytes with the generated messages to hold the two to the same meaning.

// Field numbers.
const (
	fieldReqObjects      = 1  // BatchObjectsRequest.objects: repeated BatchObject
	fieldReqConsistency  = 2  // BatchObjectsRequest.consistency_level: optional ConsistencyLevel
	fieldObjUUID         = 1  // BatchObject.uuid: string
	fieldObjProperties   = 3  // BatchObject.properties: BatchObject.Properties
	fieldObjCollection   = 4  // BatchObject.collection: string
	fieldObjVectorBytes  = 6  // BatchObject.vector_bytes: little-endian float32s
	fieldPropsNonRef     = 1  // Properties.non_ref_properties: google.protobuf.Struct
	fieldPropsTextArrays = 6  // Properties.text_array_properties: repeated TextArrayProperties
	fieldPropsEmptyLists = 10 // Properties.empty_list_props: repeated string
	fieldTextArrayValues = 1  // TextArrayProperties.values: repeated string
	fieldTextArrayName   = 2  // TextArrayProperties.prop_name: string
	fieldStructFields    = 1  // Struct.fields: map<string, Value>, entries {1: key, 2: value}
	fieldValueString     = 3  // Value.string_value (a oneof member: sent even when empty)
	fieldReplyErrors     = 2  // BatchObjectsReply.errors: repeated BatchError
	fieldBatchErrorText  = 2  // BatchObjectsReply.BatchError.error: string
)

// consistencyLevels are the ConsistencyLevel enum's values by name.
var consistencyLevels = map[string]uint64{"UNSPECIFIED": 0, "ONE": 1, "QUORUM": 2, "ALL": 3}

// errWire reports a reply that is not a well-formed protobuf message.
var errWire = errors.New("malformed protobuf")

func appendBytes(b []byte, field protowire.Number, v []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(b, field, protowire.BytesType), v)
}

func appendString(b []byte, field protowire.Number, v string) []byte {
	return protowire.AppendString(protowire.AppendTag(b, field, protowire.BytesType), v)
}

// batchRequest is the BatchObjectsRequest of batch. An unknown level
// leaves the server's default, as does an absent one.
func batchRequest(collection string, batch []Object, level string) ([]byte, error) {
	var req, obj, props, scratch []byte
	for _, o := range batch {
		var err error
		obj, props, scratch, err = o.appendProto(obj[:0], props[:0], scratch[:0], collection)
		if err != nil {
			return nil, err
		}
		req = appendBytes(req, fieldReqObjects, obj)
	}
	if l, ok := consistencyLevels[level]; ok {
		req = protowire.AppendVarint(protowire.AppendTag(req, fieldReqConsistency, protowire.VarintType), l)
	}
	return req, nil
}

// appendProto appends the object as a BatchObject to obj: the same
// properties and vector as wire's JSON. props and scratch are buffers it
// reuses (returned grown); protobuf strings must be UTF-8, as structpb and
// the server require.
func (o Object) appendProto(obj, props, scratch []byte, collection string) ([]byte, []byte, []byte, error) {
	fields := [...][2]string{
		{propChunkID, o.ChunkID}, {propPath, o.Path}, {propText, o.Text},
		{propTokens, o.Tokens}, {propMeta, o.Meta}, {propLang, o.Lang},
	}
	var nonRef []byte
	for _, f := range fields {
		if !utf8.ValidString(f[1]) {
			return obj, props, scratch, fmt.Errorf("object %s: invalid UTF-8 in property %s", o.ChunkID, f[0])
		}
		scratch = appendString(scratch[:0], 1, f[0])
		scratch = protowire.AppendTag(scratch, 2, protowire.BytesType)
		scratch = protowire.AppendVarint(scratch, uint64(1+protowire.SizeVarint(uint64(len(f[1])))+len(f[1])))
		scratch = appendString(scratch, fieldValueString, f[1])
		nonRef = appendBytes(nonRef, fieldStructFields, scratch)
	}
	props = appendBytes(props, fieldPropsNonRef, nonRef)
	if len(o.Facets) > 0 {
		scratch = scratch[:0]
		for _, v := range o.Facets {
			if !utf8.ValidString(v) {
				return obj, props, scratch, fmt.Errorf("object %s: invalid UTF-8 in a facet", o.ChunkID)
			}
			scratch = appendString(scratch, fieldTextArrayValues, v)
		}
		scratch = appendString(scratch, fieldTextArrayName, propFacets)
		props = appendBytes(props, fieldPropsTextArrays, scratch)
	} else {
		props = appendString(props, fieldPropsEmptyLists, propFacets)
	}
	obj = appendString(obj, fieldObjUUID, ObjectID(o.ChunkID))
	obj = appendBytes(obj, fieldObjProperties, props)
	obj = appendString(obj, fieldObjCollection, collection)
	if len(o.Vector) > 0 {
		obj = protowire.AppendTag(obj, fieldObjVectorBytes, protowire.BytesType)
		obj = protowire.AppendVarint(obj, uint64(4*len(o.Vector)))
		for _, f := range o.Vector {
			obj = binary.LittleEndian.AppendUint32(obj, math.Float32bits(f))
		}
	}
	return obj, props, scratch, nil
}

// batchReplyErrors is the error text of each BatchError of a
// BatchObjectsReply, in order.
func batchReplyErrors(b []byte) ([]string, error) {
	var msgs []string
	err := eachField(b, func(field protowire.Number, wire protowire.Type, v []byte) error {
		if field != fieldReplyErrors || wire != protowire.BytesType {
			return nil
		}
		msg := ""
		err := eachField(v, func(field protowire.Number, wire protowire.Type, v []byte) error {
			if field == fieldBatchErrorText && wire == protowire.BytesType {
				msg = string(v)
			}
			return nil
		})
		msgs = append(msgs, msg)
		return err
	})
	return msgs, err
}

// eachField calls f with every field of message b in order; v is the
// payload of a length-delimited field and nil for the others.
func eachField(b []byte, f func(field protowire.Number, wire protowire.Type, v []byte) error) error {
	for len(b) > 0 {
		field, wire, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("%w: %w", errWire, protowire.ParseError(n))
		}
		b = b[n:]
		var v []byte
		if wire == protowire.BytesType {
			v, n = protowire.ConsumeBytes(b)
		} else {
			n = protowire.ConsumeFieldValue(field, wire, b)
		}
		if n < 0 {
			return fmt.Errorf("%w: field %d: %w", errWire, field, protowire.ParseError(n))
		}
		if err := f(field, wire, v); err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}
