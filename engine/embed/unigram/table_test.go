package unigram

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// randomPieces is a vocabulary of n random pieces over a few scripts (the
// word mark, Latin, Cyrillic, Han, an emoji), with duplicates and empty
// pieces among them, as a hash table must take them.
func randomPieces(r *rand.Rand, n int) []string {
	alphabet := []rune("▁abcdeéжщя中文字🍕")
	pieces := make([]string, n)
	for i := range pieces {
		switch {
		case i > 0 && r.IntN(20) == 0:
			pieces[i] = pieces[r.IntN(i)]
		case r.IntN(50) == 0:
			pieces[i] = ""
		default:
			rs := make([]rune, 1+r.IntN(6))
			for j := range rs {
				rs[j] = alphabet[r.IntN(len(alphabet))]
			}
			pieces[i] = string(rs)
		}
	}
	return pieces
}

// TestPieceTableMatchesMap: the table finds every piece at the lowest id
// that has its bytes, as a Go map filled in id order does, and finds
// nothing else; at every size from a few pieces to many thousands.
func TestPieceTableMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 7, 100, 5000, 40000} {
		pieces := randomPieces(r, n)
		want := map[string]int32{}
		for i, p := range pieces {
			if _, dup := want[p]; p != "" && !dup {
				want[p] = int32(i)
			}
		}
		tab := newPieceTable(pieces)
		for p, id := range want {
			if got, ok := tab.lookup([]byte(p)); !ok || got != id {
				t.Fatalf("%d pieces: lookup(%q) = %d, %v; want %d", n, p, got, ok, id)
			}
		}
		for range 2000 {
			q := randomPieces(r, 1)[0] + "x"
			if _, in := want[q]; in {
				continue
			}
			if got, ok := tab.lookup([]byte(q)); ok {
				t.Fatalf("%d pieces: lookup(%q) = %d, want not found", n, q, got)
			}
		}
		if _, ok := tab.lookup(nil); ok {
			t.Fatalf("%d pieces: the empty span was found", n)
		}
	}
}

// TestPairTableMatchesMap: the longest piece per pair of first code
// points, as a Go map keeps it, through many doublings of the table, and
// 0 for a pair no piece starts with.
func TestPairTableMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	tab := newPairTable()
	want := map[[2]rune]int{}
	for range 100000 {
		a, b := rune(r.IntN(0x200000)), rune(r.IntN(400)) // code points up to 21 bits
		if r.IntN(2) == 0 {
			a = rune(r.IntN(300))
		}
		n := 2 + r.IntN(60)
		tab.raise(a, b, n)
		want[[2]rune{a, b}] = max(want[[2]rune{a, b}], n)
	}
	for k, n := range want {
		if got := tab.longest(k[0], k[1]); got != n {
			t.Fatalf("longest(%#x, %#x) = %d, want %d", k[0], k[1], got, n)
		}
	}
	for range 10000 {
		k := [2]rune{rune(r.IntN(0x200000)), rune(400 + r.IntN(400))}
		if got := tab.longest(k[0], k[1]); got != 0 {
			t.Fatalf("longest(%#x, %#x) = %d for a pair no piece starts with", k[0], k[1], got)
		}
	}
	if len(tab.slots) < 2*len(want) {
		t.Fatalf("%d slots for %d pairs: more than half full", len(tab.slots), len(want))
	}
}

// TestDuplicatePieceKeepsLowestID: of two pieces with the same bytes the
// segmentation uses the lower id, as e5.c's lookup does.
func TestDuplicatePieceKeepsLowestID(t *testing.T) {
	pieces := []string{"<unk>", "▁x", "▁", "▁x"}
	tok, err := New(pieces, []float32{0, -1, -1, -0.5}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := tok.Append(nil, "x"); !slices.Equal(got, []int{1}) {
		t.Fatalf("got %v, want [1]", got)
	}
}
