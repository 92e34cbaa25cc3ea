package mirror

import (
	"errors"
	"strings"
	"testing"
)

// FuzzPackIndex decodes arbitrary pack indexes: entries it accepts lie
// between the header and the index and are sorted.
func FuzzPackIndex(f *testing.F) {
	f.Add(encodePackIndex([]packEntry{{hash: Hash{1}, off: int64(packHeaderLen), size: 4}, {hash: Hash{2}, off: 100, size: 1}}), int64(200))
	f.Add([]byte{}, int64(0))
	f.Fuzz(func(t *testing.T, data []byte, indexStart int64) {
		if indexStart < 0 {
			return
		}
		entries, err := decodePackIndex(data, indexStart)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("undocumented error: %v", err)
			}
			return
		}
		for i, e := range entries {
			if e.off < int64(packHeaderLen) || e.off+e.recordLen() > indexStart || e.size < 0 {
				t.Fatalf("entry %d out of range: %+v (index at %d)", i, e, indexStart)
			}
		}
	})
}

// FuzzIgnoreRules parses arbitrary ignore files and matches paths against
// them: never a panic.
func FuzzIgnoreRules(f *testing.F) {
	f.Add([]byte("*.log\n!keep.log\n/build/\n**/tmp/**\n[a-z]?.txt\n\\#x\n"), "build/a.log")
	f.Fuzz(func(t *testing.T, rules []byte, path string) {
		rs := parseRules(rules)
		base := path
		if i := strings.LastIndexByte(path, '/'); i >= 0 {
			base = path[i+1:]
		}
		rs.match(path, base, false)
		rs.match(path, base, true)
	})
}
