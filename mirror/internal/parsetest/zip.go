package parsetest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"testing"
)

// Part is an archive member: Prefix, then Unit repeated N times, then
// Suffix.
type Part struct {
	Prefix, Unit, Suffix []byte
	N                    int
}

// Zip builds an archive of parts with honest sizes and checksums. A
// repeated unit is deflated once and its compressed block repeated (a
// flushed deflate segment does not refer to earlier data), so a member of
// gigabytes costs its compressed size to build: zip bombs and huge sheets
// take no time to make, even under the race detector.
func Zip(t testing.TB, parts map[string]Part) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, p := range parts {
		raw := segment(t, p.Prefix, false)
		unit := segment(t, p.Unit, false)
		crc := crc32.Update(0, crc32.IEEETable, p.Prefix)
		for range p.N {
			raw = append(raw, unit...)
			crc = crc32.Update(crc, crc32.IEEETable, p.Unit)
		}
		raw = append(raw, segment(t, p.Suffix, true)...)
		crc = crc32.Update(crc, crc32.IEEETable, p.Suffix)
		size := uint64(len(p.Prefix) + p.N*len(p.Unit) + len(p.Suffix))
		w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc,
			CompressedSize64: uint64(len(raw)), UncompressedSize64: size})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(raw); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// segment deflates data on its own; a final segment ends the stream.
func segment(t testing.TB, data []byte, final bool) []byte {
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if final {
		err = w.Close()
	} else {
		err = w.Flush()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
