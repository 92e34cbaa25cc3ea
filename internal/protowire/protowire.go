// Package protowire reads and writes the protobuf wire format: tags,
// varints, fixed-width and length-delimited fields. It is the subset of
// google.golang.org/protobuf/encoding/protowire that autorag uses (the ONNX
// reader, the Weaviate gRPC batch call), with the same names and the same
// results (protowire_test.go holds the two to each other). The upstream
// package is not linked because it pulls in the protobuf module's
// internal/detrand, whose init reads samples of the running executable at
// the start of every autorag process.
//
// It must never import anything but the standard library.
package protowire

import (
	"encoding/binary"
	"errors"
	"math"
)

// Number is a field number.
type Number int32

// Type is a wire type.
type Type int8

// Wire types.
const (
	VarintType     Type = 0
	Fixed64Type    Type = 1
	BytesType      Type = 2
	StartGroupType Type = 3
	EndGroupType   Type = 4
	Fixed32Type    Type = 5
)

// The range of valid field numbers.
const (
	MinValidNumber Number = 1
	MaxValidNumber Number = 1<<29 - 1
)

// Negative lengths the Consume functions return, as upstream.
const (
	errCodeTruncated      = -1
	errCodeFieldNumber    = -2
	errCodeOverflow       = -3
	errCodeReserved       = -4
	errCodeEndGroup       = -5
	errCodeRecursionDepth = -6
)

// recursionLimit bounds nested groups, as upstream's default.
const recursionLimit = 10000

var (
	errTruncated      = errors.New("unexpected EOF")
	errFieldNumber    = errors.New("invalid field number")
	errOverflow       = errors.New("variable length integer overflow")
	errReserved       = errors.New("cannot parse reserved wire type")
	errEndGroup       = errors.New("mismatching end group marker")
	errRecursionDepth = errors.New("exceeded maximum recursion depth")
	errParse          = errors.New("parse error")
)

// ParseError is the error a negative length returned by a Consume function
// stands for, or nil.
func ParseError(n int) error {
	if n >= 0 {
		return nil
	}
	switch n {
	case errCodeTruncated:
		return errTruncated
	case errCodeFieldNumber:
		return errFieldNumber
	case errCodeOverflow:
		return errOverflow
	case errCodeReserved:
		return errReserved
	case errCodeEndGroup:
		return errEndGroup
	case errCodeRecursionDepth:
		return errRecursionDepth
	}
	return errParse
}

// ConsumeVarint parses a varint and returns it with its length, or a
// negative length.
func ConsumeVarint(b []byte) (uint64, int) {
	v, n := binary.Uvarint(b)
	switch {
	case n == 0 && len(b) >= binary.MaxVarintLen64: // ten bytes, all continued
		return 0, errCodeOverflow
	case n == 0:
		return 0, errCodeTruncated
	case n < 0:
		return 0, errCodeOverflow
	}
	return v, n
}

// ConsumeTag parses a field tag.
func ConsumeTag(b []byte) (Number, Type, int) {
	v, n := ConsumeVarint(b)
	if n < 0 {
		return 0, 0, n
	}
	if v>>3 > math.MaxInt32 || Number(v>>3) < MinValidNumber {
		return 0, 0, errCodeFieldNumber
	}
	return Number(v >> 3), Type(v & 7), n
}

// ConsumeFixed32 parses a little-endian 32-bit value.
func ConsumeFixed32(b []byte) (uint32, int) {
	if len(b) < 4 {
		return 0, errCodeTruncated
	}
	return binary.LittleEndian.Uint32(b), 4
}

// ConsumeFixed64 parses a little-endian 64-bit value.
func ConsumeFixed64(b []byte) (uint64, int) {
	if len(b) < 8 {
		return 0, errCodeTruncated
	}
	return binary.LittleEndian.Uint64(b), 8
}

// ConsumeBytes parses a length-delimited value; the bytes alias b.
func ConsumeBytes(b []byte) ([]byte, int) {
	m, n := ConsumeVarint(b)
	if n < 0 {
		return nil, n
	}
	if m > uint64(len(b[n:])) {
		return nil, errCodeTruncated
	}
	return b[n:][:m], n + int(m)
}

// ConsumeFieldValue is the length of the value of field num of type typ
// at the start of b (a whole group, for a group), or a negative length.
func ConsumeFieldValue(num Number, typ Type, b []byte) int {
	return consumeFieldValue(num, typ, b, recursionLimit)
}

func consumeFieldValue(num Number, typ Type, b []byte, depth int) int {
	switch typ {
	case VarintType:
		_, n := ConsumeVarint(b)
		return n
	case Fixed32Type:
		_, n := ConsumeFixed32(b)
		return n
	case Fixed64Type:
		_, n := ConsumeFixed64(b)
		return n
	case BytesType:
		_, n := ConsumeBytes(b)
		return n
	case StartGroupType:
		if depth < 0 {
			return errCodeRecursionDepth
		}
		n0 := len(b)
		for {
			num2, typ2, n := ConsumeTag(b)
			if n < 0 {
				return n
			}
			b = b[n:]
			if typ2 == EndGroupType {
				if num != num2 {
					return errCodeEndGroup
				}
				return n0 - len(b)
			}
			n = consumeFieldValue(num2, typ2, b, depth-1)
			if n < 0 {
				return n
			}
			b = b[n:]
		}
	case EndGroupType:
		return errCodeEndGroup
	}
	return errCodeReserved
}

// AppendVarint appends v as a varint.
func AppendVarint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

// AppendTag appends the tag of field num of type typ.
func AppendTag(b []byte, num Number, typ Type) []byte {
	return AppendVarint(b, uint64(num)<<3|uint64(typ&7))
}

// AppendBytes appends v with its length.
func AppendBytes(b []byte, v []byte) []byte {
	return append(AppendVarint(b, uint64(len(v))), v...)
}

// AppendString appends v with its length.
func AppendString(b []byte, v string) []byte {
	return append(AppendVarint(b, uint64(len(v))), v...)
}

// SizeVarint is the length of v as a varint.
func SizeVarint(v uint64) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}
