// Package tab is the in-binary format of a static embedding model: a
// WordPiece vocabulary and one int8 row per token, read in place.
//
// The table is one little-endian byte string (the //go:embed data of
// package static): opening it checks the header and the bounds of its
// sections, and nothing is decoded, copied or indexed. Layout:
//
//	header (HeaderSize bytes)
//	  [0:8]   magic "AGSTTAB1"
//	  [8:12]  dims
//	  [12:16] rows (= tokens of the vocabulary)
//	  [16:20] offset of the vocabulary (wordpiece.BuildVocab's format)
//	  [20:24] offset of the scales: rows × float32
//	  [24:28] offset of the rows: rows × dims int8
//	  [28:32] total length of the table
//	  [32:36] CRC-32 (IEEE) of everything after the header
//	vocabulary, scales, rows
//
// Row i's vector is scales[i] × int8 row i: the model's float32 row
// quantized with the scale max|v|/127, which keeps the row's length (in a
// model2vec model the length is the token's weight).
package tab

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
)

// HeaderSize is the length of the header.
const HeaderSize = 36

const magic = "AGSTTAB1"

// Table is an opened table.
type Table struct {
	data   string
	dims   int
	rows   int
	vocab  string
	scales string
	vecs   string
}

// Build lays out a table from a vocabulary (wordpiece.BuildVocab's bytes)
// and one float32 row of dims values per token.
func Build(vocab []byte, rows [][]float32, dims int) ([]byte, error) {
	if dims < 1 || len(rows) == 0 {
		return nil, fmt.Errorf("table of %d rows of %d dims", len(rows), dims)
	}
	vocabOff := HeaderSize
	scalesOff := vocabOff + len(vocab)
	vecsOff := scalesOff + 4*len(rows)
	buf := make([]byte, vecsOff+dims*len(rows))
	copy(buf[vocabOff:], vocab)
	le := binary.LittleEndian
	for i, r := range rows {
		if len(r) != dims {
			return nil, fmt.Errorf("row %d has %d values, want %d", i, len(r), dims)
		}
		scale := quantize(buf[vecsOff+i*dims:vecsOff+(i+1)*dims], r)
		le.PutUint32(buf[scalesOff+4*i:], math.Float32bits(scale))
	}
	copy(buf, magic)
	for i, v := range []int{dims, len(rows), vocabOff, scalesOff, vecsOff, len(buf)} {
		le.PutUint32(buf[8+4*i:], uint32(v))
	}
	le.PutUint32(buf[32:], crc32.ChecksumIEEE(buf[HeaderSize:]))
	return buf, nil
}

// quantize writes r as int8 into q and returns the scale.
func quantize(q []byte, r []float32) float32 {
	var m float64
	for _, v := range r {
		m = max(m, math.Abs(float64(v)))
	}
	if m == 0 {
		return 0
	}
	scale := m / 127
	for d, v := range r {
		q[d] = byte(int8(math.Round(float64(v) / scale)))
	}
	return float32(scale)
}

// Open reads a table in place.
func Open(data string) (*Table, error) {
	if len(data) < HeaderSize || data[:8] != magic {
		return nil, errors.New("not a static embedding table")
	}
	t := &Table{data: data, dims: int(u32(data, 8)), rows: int(u32(data, 12))}
	vocabOff, scalesOff, vecsOff, total := int(u32(data, 16)), int(u32(data, 20)), int(u32(data, 24)), int(u32(data, 28))
	if total != len(data) || t.dims < 1 || t.rows < 1 || vocabOff != HeaderSize ||
		scalesOff < vocabOff || vecsOff != scalesOff+4*t.rows || vecsOff+t.rows*t.dims != total {
		return nil, errors.New("static embedding table: corrupt header")
	}
	t.vocab, t.scales, t.vecs = data[vocabOff:scalesOff], data[scalesOff:vecsOff], data[vecsOff:]
	return t, nil
}

// Verify checks the checksum of the whole table (reading all of it).
func (t *Table) Verify() error {
	if crc32.ChecksumIEEE([]byte(t.data[HeaderSize:])) != u32(t.data, 32) {
		return errors.New("static embedding table: checksum mismatch")
	}
	return nil
}

// Dims is the length of every row.
func (t *Table) Dims() int { return t.dims }

// Rows is the number of rows.
func (t *Table) Rows() int { return t.rows }

// Vocab is the vocabulary's bytes, for wordpiece.OpenVocab.
func (t *Table) Vocab() string { return t.vocab }

// Row returns row i's scale and its int8 values as bytes (value d is
// int8(q[d])).
func (t *Table) Row(i int) (scale float32, q string) {
	return math.Float32frombits(u32(t.scales, 4*i)), t.vecs[i*t.dims : (i+1)*t.dims]
}

func u32(s string, i int) uint32 {
	_ = s[i+3]
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}
