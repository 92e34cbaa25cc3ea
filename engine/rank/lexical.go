package rank

import "fmt"

// NoLexicalFloor is the similarity a vector-only hit needs in hybrid mode
// when the lexical list is empty: no word of the query is in the index
// (or, with filters, in what they keep), so nothing vouches for the
// vector's hits but their similarity. With the built-in embedder such a
// query's similarities do not tell a made-up word from a real one the
// corpus lacks: on the OpenTelemetry docs ten nonsense queries
// ("qwzxplorbnick", "asdfgh jkl") had best similarities of 0.31-0.49,
// and on NFCorpus dev 3 of the 17 queries BM25 finds nothing for have
// relevant vector hits at 0.379 ("apigen"), 0.431 ("limonin") and 0.477
// ("Broccomax"). 0.5 empties every nonsense answer but costs NFCorpus dev
// 0.0036 nDCG@10; 0.37 is the highest that costs none of the dev sets
// (nfcorpus, scifact-train, cosqa-dev: autorag eval, hybrid).
const NoLexicalFloor = 0.37

// LexicalFloor is the floor of a hybrid query given its lexical list:
// floor, raised to NoLexicalFloor when bm25 found nothing. noLexical says
// whether it did.
func LexicalFloor(mode string, floor float64, bm25 []Hit) (_ float64, noLexical bool) {
	if mode != ModeHybrid || len(bm25) > 0 {
		return floor, false
	}
	return max(floor, NoLexicalFloor), true
}

// NoLexicalHint says that a hybrid query matched no word of the index and
// what the floor left out: what a user is told beside the answer.
func NoLexicalHint(floor float64, dropped int) string {
	return fmt.Sprintf("no lexical match: no word of the query is in the index; shown are only vector results with a similarity of at least %.2g (%d below it left out)", floor, dropped)
}
