package syntax

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/autorag/autorag/fingerprint"
)

// moduleBytes returns the module unzipped, for loading it whole
// (loadModule): the copy a previous process
// left in the cache directory when it is whole (the length and CRC-32
// that the gzip trailer records), else the embedded module unzipped, and
// the copy written for the next process. The copy is mapped where the
// system can (readCopy): its pages come from the page cache, neither
// zeroed nor copied. Reading it costs a few ms where unzipping costs about
// 50 (BenchmarkModuleBytes, BenchmarkUnzip). The caller calls release
// once done with the bytes: wazero's decoded module copies what it needs,
// so nothing keeps the 28 MB once compiled.
func moduleBytes() (b []byte, release func(), err error) {
	return moduleBytesAt(moduleCopyPath())
}

// moduleBytesAt is moduleBytes with the copy at path ("" for none).
func moduleBytesAt(path string) ([]byte, func(), error) {
	size, sum, err := gzTrailer(moduleGz)
	if err != nil {
		return nil, nil, err
	}
	if path != "" {
		if b, release, err := readCopy(path); err == nil {
			if uint32(len(b)) == size && crc32.ChecksumIEEE(b) == sum {
				return b, release, nil
			}
			release()
		}
	}
	b, err := unzipModule(size)
	if err != nil {
		return nil, nil, err
	}
	if path != "" {
		writeCopy(path, b)
	}
	return b, func() {}, nil
}

// gzTrailer is the CRC-32 and length mod 2³² of the data of a gzip
// stream, from its last 8 bytes.
func gzTrailer(gz []byte) (size, sum uint32, err error) {
	if len(gz) < 18 {
		return 0, 0, errors.New("tree-sitter module: gzip stream too short")
	}
	t := gz[len(gz)-8:]
	return binary.LittleEndian.Uint32(t[4:]), binary.LittleEndian.Uint32(t), nil
}

// unzipModule unzips the embedded module into a buffer of its size (read
// to the end, so that gzip checks its CRC-32).
func unzipModule(size uint32) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(moduleGz))
	if err != nil {
		return nil, fmt.Errorf("unzip tree-sitter module: %w", err)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(zr, b); err != nil {
		return nil, fmt.Errorf("unzip tree-sitter module: %w", err)
	}
	if n, err := zr.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		return nil, fmt.Errorf("unzip tree-sitter module: longer than its trailer says (%v)", err)
	}
	return b, nil
}

// moduleCopyPath is where the unzipped module is kept: the cache
// directory, under a name of the module's sha256, or "" without one.
func moduleCopyPath() string {
	dir := cacheDirectory()
	digest, _, _ := strings.Cut(moduleSHA256, " ")
	if dir == "" || digest == "" {
		return ""
	}
	return filepath.Join(dir, "treesitter-"+digest+".wasm")
}

// writeCopy writes b to path through a temporary file and a rename, so a
// reader never sees half of it; it is a cache, so a failure only costs
// the next process an unzip.
func writeCopy(path string, b []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	_ = fingerprint.ReplaceFile(path, b, 0o644) // a copy is checked when read: no fsync
}
