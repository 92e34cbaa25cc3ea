package mirror

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/autorag/autorag/internal/sortedfile"
)

// refPackEntries is a pack as the previous version opened it: tail and
// index read and checked at once, or the pack ignored.
func refPackEntries(t *testing.T, path string) ([]packEntry, bool) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := loadPack(f, filepath.Base(path))
	if err != nil {
		return nil, false
	}
	es, err := readPackIndex(f, p.size, p.tail)
	return es, err == nil
}

// damagePack flips bytes of, cuts or extends one pack's index and tail
// (mostly) or anywhere in it.
func damagePack(t *testing.T, r *rand.Rand, path string, count int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	from := max(0, len(b)-packTailLen-count*packEntryLen)
	if r.IntN(4) == 0 {
		from = 0
	}
	switch r.IntN(5) {
	case 0:
		b = b[:from+r.IntN(len(b)-from)]
	case 1:
		b = append(b, make([]byte, 1+r.IntN(60))...)
	default:
		for range 1 + r.IntN(4) {
			b[from+r.IntN(len(b)-from)] ^= byte(1 + r.IntN(255))
		}
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPackFindMatchesFullDecode builds stores of random packs, damages some,
// and checks that every pack's find (before and after lazyLookups, hits and
// misses) and the store's Has and Get agree with the packs opened the
// previous way, and that Collect then removes every damaged pack.
func TestPackFindMatchesFullDecode(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 25))
	for round := range 40 {
		dir := t.TempDir()
		var all []Hash
		for range 1 + r.IntN(3) {
			docs := make([]*Doc, 1+r.IntN(300))
			for i := range docs {
				docs[i] = testDoc(r.IntN(1<<20), 1+r.IntN(40))
			}
			hs, _ := makePack(t, dir, docs...)
			all = append(all, hs...)
		}
		names := packNames(t, dir)
		if round%4 != 0 {
			damagePack(t, r, filepath.Join(dir, names[r.IntN(len(names))]), len(all))
		}
		ref := map[string][]packEntry{}
		for _, n := range names {
			if es, ok := refPackEntries(t, filepath.Join(dir, n)); ok {
				ref[n] = es
			}
		}
		probes := slices.Clone(all)
		for range 100 {
			probes = append(probes, HashBytes([]byte{byte(r.IntN(256)), byte(r.IntN(256)), 1}))
		}
		r.Shuffle(len(probes), func(i, j int) { probes[i], probes[j] = probes[j], probes[i] })
		s := OpenStore(dir)
		for k, h := range probes {
			want := false
			for _, es := range ref {
				_, ok := searchEntries(es, h)
				want = want || ok
			}
			s.rlockPacks()
			for _, p := range s.packs {
				es, inRef := ref[p.name]
				we, wok := searchEntries(es, h)
				ge, gok := p.find(h)
				if gok != wok || ge != we || !inRef && gok {
					t.Fatalf("round %d probe %d, pack %s: find = %v %v, want %v %v", round, k, p.name, ge, gok, we, wok)
				}
			}
			s.mu.RUnlock()
			if got := s.Has(h); got != want {
				t.Fatalf("round %d probe %d: Has = %v, want %v", round, k, got, want)
			}
			if _, err := s.Get(h); !want && !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("round %d probe %d: Get of an object no intact pack holds = %v", round, k, err)
			}
		}
		keep := map[Hash]bool{}
		for _, h := range all {
			keep[h] = true
		}
		if _, err := s.Collect(keep); err != nil {
			t.Fatalf("round %d: Collect: %v", round, err)
		}
		for _, n := range names {
			if _, ok := ref[n]; !ok {
				if _, err := os.Stat(filepath.Join(dir, n)); !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("round %d: damaged pack %s kept by Collect", round, n)
				}
			}
		}
		s.Close()
	}
}

// TestPackInFile checks the search of the index in the file against
// slices.BinarySearchFunc over the same entries, sorted or shuffled (a
// damaged index), for sizes around the window.
func TestPackInFile(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 25))
	for _, n := range []int{1, 2, sortedfile.Window - 1, sortedfile.Window, sortedfile.Window + 1, 2*sortedfile.Window + 3, 700} {
		src := t.TempDir()
		docs := make([]*Doc, n)
		for i := range docs {
			docs[i] = testDoc(i, 5)
		}
		hs, name := makePack(t, src, docs...)
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		start := len(b) - packTailLen - n*packEntryLen
		for _, shuffle := range []bool{false, true} {
			if shuffle {
				idx := b[start : start+n*packEntryLen]
				r.Shuffle(n, func(i, j int) {
					var tmp [packEntryLen]byte
					copy(tmp[:], idx[i*packEntryLen:])
					copy(idx[i*packEntryLen:(i+1)*packEntryLen], idx[j*packEntryLen:(j+1)*packEntryLen])
					copy(idx[j*packEntryLen:], tmp[:])
				})
			}
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := openPack(path, name)
			if err != nil {
				t.Fatal(err)
			}
			raw := make([]Hash, n)
			for i := range raw {
				raw[i] = Hash(b[start+i*packEntryLen:])
			}
			probes := slices.Clone(hs)
			for i := range 2 * n {
				probes = append(probes, HashBytes([]byte{byte(i), byte(i >> 8), 9}))
			}
			for k, h := range probes {
				_, want := slices.BinarySearchFunc(raw, h, func(e, h Hash) int { return slices.Compare(e[:], h[:]) })
				if got := p.inFile(h); got != want {
					t.Fatalf("n=%d shuffled=%v probe %d: inFile = %v, want %v", n, shuffle, k, got, want)
				}
			}
			if p.entries.Load() != nil {
				t.Fatal("inFile read the index whole")
			}
			p.f.Close()
		}
	}
}
