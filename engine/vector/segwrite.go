package vector

import (
	"bufio"
	"fmt"
	"hash/crc32"
	"os"

	"github.com/autorag/autorag/fingerprint"
)

//semguard:begin vector-segment-write

func align64(n uint64) uint64 { return (n + 63) &^ 63 }

// layout is where the sections of a segment of count rows of dims lie
// (doc.go, "Files"): the float32 payload at headerSize, the 4-bit codes and
// their scales, the IDs.
type layout struct {
	codesOff, scalesOff, idsOff uint64
}

func segLayout(count uint64, dims int) layout {
	var l layout
	l.codesOff = align64(headerSize + count*uint64(dims)*4)
	l.scalesOff = l.codesOff + count*uint64(codeStride(dims))
	l.idsOff = align8(l.scalesOff + 4*count)
	return l
}

// writeSegment writes rows as segment seq in dir and fsyncs it. IDs must be
// unique among rows.
func writeSegment(dir string, seq uint64, dims int, rows []row) (segMeta, error) {
	path := dir + string(os.PathSeparator) + segName(seq)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fingerprint.FilePerm)
	if err != nil {
		return segMeta{}, fmt.Errorf("create segment: %w", err)
	}
	meta, err := writeSegmentFile(f, seq, dims, rows)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close segment: %w", cerr)
	}
	if err != nil {
		os.Remove(path)
		return segMeta{}, err
	}
	return meta, nil
}

func writeSegmentFile(f *os.File, seq uint64, dims int, rows []row) (segMeta, error) {
	ids := idSection(rows)
	if ids == nil {
		return segMeta{}, fmt.Errorf("segment: IDs exceed %d bytes", uint64(maxIDBytes))
	}
	l := segLayout(uint64(len(rows)), dims)
	h := header{
		dims:     uint32(dims),
		count:    uint64(len(rows)),
		codesOff: l.codesOff,
		idsOff:   l.idsOff,
		idsLen:   uint64(len(ids)),
	}
	pw := &payloadWriter{w: bufio.NewWriterSize(f, 1<<20), off: headerSize}
	if _, err := pw.w.Write(make([]byte, headerSize)); err != nil {
		return segMeta{}, fmt.Errorf("write segment: %w", err)
	}
	for _, r := range rows {
		pw.write(floatBytes(r.vec))
	}
	pw.padTo(l.codesOff)
	writeCodes(pw, dims, rows)
	pw.padTo(l.idsOff)
	if pw.err == nil {
		_, pw.err = pw.w.Write(ids)
	}
	if pw.err == nil {
		pw.err = pw.w.Flush()
	}
	if pw.err != nil {
		return segMeta{}, fmt.Errorf("write segment: %w", pw.err)
	}
	h.payloadCRC = pw.crc
	hb := h.encode()
	h.metaCRC = metaChecksum(hb, ids)
	if _, err := f.WriteAt(h.encode(), 0); err != nil {
		return segMeta{}, fmt.Errorf("write segment header: %w", err)
	}
	if err := f.Sync(); err != nil {
		return segMeta{}, fmt.Errorf("sync segment: %w", err)
	}
	return segMeta{seq: seq, count: h.count, size: h.idsOff + h.idsLen, metaCRC: h.metaCRC}, nil
}

// writeCodes writes the 4-bit codes of every row, then their scales. A
// merged segment's codes are computed again from the float32 vectors, so
// they depend on the vector alone.
func writeCodes(pw *payloadWriter, dims int, rows []row) {
	scales := make([]float32, len(rows))
	code := make([]byte, codeStride(dims))
	for i, r := range rows {
		scales[i] = quantize(r.vec, code)
		pw.write(code)
	}
	pw.write(floatBytes(scales))
}

// payloadWriter writes the bytes between the header and the IDs, keeping
// their checksum and offset and the first error.
type payloadWriter struct {
	w   *bufio.Writer
	crc uint32
	off uint64
	err error
}

func (p *payloadWriter) write(b []byte) {
	if p.err != nil || len(b) == 0 {
		return
	}
	p.crc = crc32.Update(p.crc, crcTable(), b)
	p.off += uint64(len(b))
	_, p.err = p.w.Write(b)
}

func (p *payloadWriter) padTo(off uint64) { p.write(make([]byte, off-p.off)) }

//semguard:end vector-segment-write
