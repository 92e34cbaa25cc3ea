package syntax

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/autorag/autorag/fingerprint"
)

// The split module in the cache directory, treesitter-<sha256>.split: a
// page of header, the memory image (whole pages, so it maps at a page
// boundary of the file) and the module without its data. The header is
// imageMagic, the image's and the code's lengths (uint64) and their
// CRC-32s (uint32), little-endian.
const imageMagic = "atsimg1\n"

// image is the memory image of the module's data, in an open file at
// offset pageSize: every instance maps it (memory_linux.go).
type image struct {
	f    *os.File
	size int // bytes, a whole number of pages
}

// imagePath is where the split module is kept: the cache directory, under
// a name of the module's sha256, or "" without one.
func imagePath() string {
	dir := cacheDirectory()
	digest, _, _ := strings.Cut(moduleSHA256, " ")
	if dir == "" || digest == "" {
		return ""
	}
	return filepath.Join(dir, "treesitter-"+digest+".split")
}

// writeSplit writes the split module to path through a temporary file and
// a rename, never in place: instances map the file, and a mapping keeps
// the file it was made of. It is a cache, checked when read (openSplit).
func writeSplit(path string, code, img []byte) error {
	b := make([]byte, pageSize, pageSize+len(img)+len(code))
	copy(b, imageMagic)
	binary.LittleEndian.PutUint64(b[8:], uint64(len(img)))
	binary.LittleEndian.PutUint64(b[16:], uint64(len(code)))
	binary.LittleEndian.PutUint32(b[24:], crc32.ChecksumIEEE(img))
	binary.LittleEndian.PutUint32(b[28:], crc32.ChecksumIEEE(code))
	b = append(append(b, img...), code...)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return fingerprint.ReplaceFile(path, b, 0o644)
}

// openSplit opens the split module at path and checks it whole: its
// header, lengths and both CRC-32s. The image is read through a small
// buffer, not mapped, so checking it costs no memory; it is mapped by
// each instance. The caller owns the image's file.
func openSplit(path string) (code []byte, img *image, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	head := make([]byte, 32)
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, nil, err
	}
	imgLen, codeLen := binary.LittleEndian.Uint64(head[8:]), binary.LittleEndian.Uint64(head[16:])
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !bytes.Equal(head[:8], []byte(imageMagic)) || imgLen%pageSize != 0 || imgLen > 1<<30 || codeLen > 1<<30 ||
		uint64(st.Size()) != pageSize+imgLen+codeLen {
		return nil, nil, errors.New("tree-sitter split module: bad header or size")
	}
	sum, err := crcAt(f, pageSize, int64(imgLen))
	if err != nil || sum != binary.LittleEndian.Uint32(head[24:]) {
		return nil, nil, errors.New("tree-sitter split module: image damaged")
	}
	code = make([]byte, codeLen)
	if _, err := f.ReadAt(code, int64(pageSize+imgLen)); err != nil {
		return nil, nil, err
	}
	if crc32.ChecksumIEEE(code) != binary.LittleEndian.Uint32(head[28:]) {
		return nil, nil, errors.New("tree-sitter split module: code damaged")
	}
	return code, &image{f: f, size: int(imgLen)}, nil
}

// crcAt is the CRC-32 of n bytes of f at off.
func crcAt(f *os.File, off, n int64) (uint32, error) {
	h := crc32.NewIEEE()
	if _, err := io.CopyBuffer(h, io.NewSectionReader(f, off, n), make([]byte, 1<<20)); err != nil {
		return 0, err
	}
	return h.Sum32(), nil
}

// readInto reads the image into b (len(b) >= img.size): an instance's
// memory where it cannot be mapped.
func (img *image) readInto(b []byte) error {
	_, err := img.f.ReadAt(b[:img.size], pageSize)
	return err
}
