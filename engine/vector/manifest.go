package vector

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"

	"github.com/autorag/autorag/fingerprint"
)

//semguard:begin vector-manifest

const (
	manifestName    = "manifest"
	manifestMagic   = "ARAGVMAN"
	manifestVersion = 1
)

// manifest lists the segments of one generation and their tombstones.
type manifest struct {
	dims    int
	nextSeq uint64
	segs    []segMeta
}

func (m *manifest) encode() []byte {
	le := binary.LittleEndian
	b := make([]byte, 0, 28+len(m.segs)*32)
	b = append(b, manifestMagic...)
	b = le.AppendUint32(b, manifestVersion)
	b = le.AppendUint32(b, uint32(m.dims))
	b = le.AppendUint64(b, m.nextSeq)
	b = le.AppendUint32(b, uint32(len(m.segs)))
	for _, s := range m.segs {
		b = le.AppendUint64(b, s.seq)
		b = le.AppendUint64(b, s.count)
		b = le.AppendUint64(b, s.size)
		b = le.AppendUint32(b, s.metaCRC)
		b = le.AppendUint32(b, uint32(len(s.tombs)))
		for _, t := range s.tombs {
			b = le.AppendUint32(b, t)
		}
	}
	return le.AppendUint32(b, crc32.Checksum(b, crcTable()))
}

// decodeManifest parses and checks a manifest; dims is what the caller expects.
func decodeManifest(b []byte, dims int) (*manifest, error) {
	le := binary.LittleEndian
	if len(b) < 32 || string(b[:8]) != manifestMagic {
		return nil, fmt.Errorf("manifest: bad magic: %w", errCorrupt)
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, crcTable()) != le.Uint32(b[len(b)-4:]) {
		return nil, fmt.Errorf("manifest: checksum mismatch: %w", errCorrupt)
	}
	if v := le.Uint32(b[8:]); v != manifestVersion {
		return nil, fmt.Errorf("manifest: unsupported version %d: %w", v, errCorrupt)
	}
	m := &manifest{dims: int(le.Uint32(b[12:])), nextSeq: le.Uint64(b[16:])}
	if m.dims != dims {
		return nil, fmt.Errorf("vector index has %d dims, want %d", m.dims, dims)
	}
	nseg := int(le.Uint32(b[24:]))
	p := body[28:]
	for i := 0; i < nseg; i++ {
		if len(p) < 32 {
			return nil, fmt.Errorf("manifest: truncated: %w", errCorrupt)
		}
		s := segMeta{seq: le.Uint64(p), count: le.Uint64(p[8:]), size: le.Uint64(p[16:]), metaCRC: le.Uint32(p[24:])}
		nt := uint64(le.Uint32(p[28:]))
		p = p[32:]
		if uint64(len(p)) < 4*nt || nt > s.count || s.seq >= m.nextSeq ||
			(len(m.segs) > 0 && s.seq <= m.segs[len(m.segs)-1].seq) {
			return nil, fmt.Errorf("manifest: bad segment entry: %w", errCorrupt)
		}
		s.tombs = make([]uint32, nt)
		for j := range s.tombs {
			s.tombs[j] = le.Uint32(p[4*j:])
			if j > 0 && s.tombs[j] <= s.tombs[j-1] {
				return nil, fmt.Errorf("manifest: unsorted tombstones: %w", errCorrupt)
			}
		}
		p = p[4*nt:]
		m.segs = append(m.segs, s)
	}
	if len(p) != 0 {
		return nil, fmt.Errorf("manifest: trailing bytes: %w", errCorrupt)
	}
	return m, nil
}

//semguard:end vector-manifest

func readManifest(dir string, dims int) (*manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return nil, err
	}
	return decodeManifest(b, dims)
}

// writeFileSync creates path (which must not exist), writes b and fsyncs it.
func writeFileSync(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fingerprint.FilePerm)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// stats describes the generation m lists: its live vectors, its segments
// and the bytes of its files (segments and the manifest itself).
func (m *manifest) stats() Stats {
	st := Stats{Segments: len(m.segs), Bytes: int64(len(m.encode()))}
	for _, s := range m.segs {
		st.Vectors += s.live()
		st.Tombstones += len(s.tombs)
		st.Bytes += int64(s.size)
	}
	return st
}

// live returns the number of live rows of a segment entry.
func (s *segMeta) live() int { return int(s.count) - len(s.tombs) }
