package mirror

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Packs are written compressed (version 0x02: issue 37 item 5, the mirror
// was as large as the source), and the version 0x01 packs older binaries
// wrote, of plain objects, are still read.
func TestPackCompressedAndPlainRead(t *testing.T) {
	dir := t.TempDir()
	s := OpenStore(dir)
	docs := []*Doc{testDoc(1, 2000), testDoc(2, 2000)}
	hs := putAll(t, s, docs)
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	names := packNames(t, dir)
	if len(names) != 1 {
		t.Fatalf("packs %v", names)
	}
	path := filepath.Join(dir, names[0])
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	plain := 0
	for _, d := range docs {
		plain += len(d.Encode())
	}
	if !bytes.HasPrefix(b, []byte(packMagic)) || len(b) >= plain {
		t.Errorf("pack of %d bytes for %d bytes of objects, header %q: not compressed", len(b), plain, b[:packHeaderLen])
	}

	// The same objects in a version 0x01 pack, as an older binary wrote it.
	var v1 bytes.Buffer
	v1.WriteString(packMagicV1)
	var entries []packEntry
	for i, d := range docs {
		obj := d.Encode()
		e := packEntry{hash: hs[i], off: int64(v1.Len()), size: int64(len(obj))}
		v1.Write(hs[i][:])
		v1.Write(binary.AppendUvarint(nil, uint64(len(obj))))
		v1.Write(obj)
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b packEntry) int { return bytes.Compare(a.hash[:], b.hash[:]) })
	v1.Write(encodePackIndex(entries))
	if err := os.WriteFile(path, v1.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	r := OpenStoreReadOnly(dir)
	defer r.Close()
	for i, h := range hs {
		d, err := r.Get(h)
		if err != nil || d.Text != docs[i].Text {
			t.Errorf("Get %d from a version 0x01 pack: %v", i, err)
		}
	}
}
