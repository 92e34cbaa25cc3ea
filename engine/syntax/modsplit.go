package syntax

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// pageSize is the unit of the memory image: the host's page, so that the
// image maps into a linear memory at its start (imagefile.go).
const pageSize = 4096

// wasm section ids (the binary format's).
const (
	secMemory    = 5
	secData      = 11
	secDataCount = 12
)

// splitModule splits a module whose data are active segments of memory 0
// at constant offsets (what wasm-ld writes) into the module without its
// data (code) and the image of its memory's first bytes holding the data
// (img: zeros but for the segments, a whole number of pages, within the
// memory's initial size). An instance of code whose memory starts as img
// is an instance of wasm: wazero copies the data into every instance's
// memory, where img is mapped from a file, its pages shared by every
// instance and process and made only as touched (memory_linux.go). A
// module of any other shape is an error: it is then loaded whole.
func splitModule(wasm []byte) (code, img []byte, err error) {
	if len(wasm) < 8 || !bytes.Equal(wasm[:4], []byte("\x00asm")) {
		return nil, nil, errors.New("not a wasm module")
	}
	code = append(code, wasm[:8]...)
	var data []byte
	minPages := uint64(0)
	for r := wasm[8:]; len(r) > 0; {
		id := r[0]
		size, n, ok := uleb(r[1:])
		if !ok || uint64(len(r)-1-n) < size {
			return nil, nil, errors.New("truncated section")
		}
		sec := r[:1+n+int(size)]
		body := sec[1+n:]
		r = r[len(sec):]
		switch id {
		case secData:
			data = body
			continue
		case secDataCount:
			continue
		case secMemory:
			if minPages, ok = memoryMin(body); !ok {
				return nil, nil, errors.New("memory section: not one memory")
			}
		}
		code = append(code, sec...)
	}
	img, err = imageOf(data, minPages<<16)
	if err != nil {
		return nil, nil, err
	}
	return code, img, nil
}

// memoryMin is the initial pages of the memory section's one memory.
func memoryMin(body []byte) (uint64, bool) {
	count, n, ok := uleb(body)
	if !ok || count != 1 || len(body) < n+2 || body[n] > 1 {
		return 0, false
	}
	pages, _, ok := uleb(body[n+1:])
	return pages, ok
}

// imageOf lays the data section's segments out at their offsets, in
// whole pages and at most limit bytes.
func imageOf(data []byte, limit uint64) ([]byte, error) {
	type seg struct {
		at    uint64
		bytes []byte
	}
	count, n, ok := uleb(data)
	if !ok || count == 0 {
		return nil, errors.New("no data")
	}
	r := data[n:]
	var segs []seg
	end := uint64(0)
	for range count {
		// flags 0, i32.const OFFSET, end: an active segment of memory 0.
		if len(r) < 2 || r[0] != 0 || r[1] != 0x41 {
			return nil, errors.New("a data segment other than active at a constant")
		}
		at, n, ok := sleb32(r[2:])
		if !ok || len(r) < 3+n || r[2+n] != 0x0b || at < 0 {
			return nil, errors.New("bad data segment offset")
		}
		r = r[3+n:]
		size, n, ok := uleb(r)
		if !ok || uint64(len(r)-n) < size {
			return nil, errors.New("truncated data segment")
		}
		segs = append(segs, seg{uint64(at), r[n : n+int(size)]})
		end = max(end, uint64(at)+size)
		r = r[n+int(size):]
	}
	end = (end + pageSize - 1) &^ (pageSize - 1)
	if end > limit || len(r) != 0 {
		return nil, errors.New("data past the initial memory, or trailing bytes")
	}
	img := make([]byte, end)
	for _, s := range segs {
		copy(img[s.at:], s.bytes)
	}
	return img, nil
}

// uleb reads an unsigned LEB128 of at most 64 bits: value, bytes read.
func uleb(b []byte) (uint64, int, bool) {
	v, n := binary.Uvarint(b)
	return v, n, n > 0
}

// sleb32 reads a signed LEB128 of at most 32 bits.
func sleb32(b []byte) (int64, int, bool) {
	var v int64
	var shift uint
	for i, c := range b {
		if i >= 5 {
			return 0, 0, false
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if c&0x40 != 0 {
				v |= -1 << shift
			}
			return v, i + 1, true
		}
	}
	return 0, 0, false
}
