package vector

import (
	"encoding/binary"
	"hash/crc32"
	"reflect"
	"testing"
)

// FuzzManifest decodes arbitrary vector manifests, as given and with their
// checksum repaired (to reach the body): never a panic, and what decodes
// re-encodes to a manifest that decodes equal.
func FuzzManifest(f *testing.F) {
	m := &manifest{dims: 4, nextSeq: 3, segs: []segMeta{{seq: 1, count: 2, size: 100, metaCRC: 9, tombs: []uint32{0}}, {seq: 2, count: 1, size: 50}}}
	f.Add(m.encode(), 4)
	f.Add([]byte("ARAGVMAN"), 4)
	f.Fuzz(func(t *testing.T, b []byte, dims int) {
		_, _ = decodeManifest(b, dims)
		if len(b) < 4 {
			return
		}
		body := append([]byte{}, b[:len(b)-4]...)
		fixed := binary.LittleEndian.AppendUint32(body, crc32.Checksum(body, crcTable()))
		got, err := decodeManifest(fixed, dims)
		if err != nil {
			return
		}
		again, err := decodeManifest(got.encode(), dims)
		if err != nil || !reflect.DeepEqual(got, again) {
			t.Fatalf("round trip: %v\n%+v\n%+v", err, got, again)
		}
	})
}

// FuzzSegment parses arbitrary segment files against arbitrary manifest
// metadata: never a panic.
func FuzzSegment(f *testing.F) {
	f.Add([]byte("ARAGVSEG"), uint64(1), uint32(0), 4)
	f.Fuzz(func(t *testing.T, data []byte, count uint64, metaCRC uint32, dims int) {
		if dims <= 0 || dims > 4096 {
			return
		}
		_, _ = parseSegment(data, segMeta{count: count, metaCRC: metaCRC, size: uint64(len(data))}, dims)
	})
}
