package analyze

import (
	"unicode"
	"unicode/utf8"
)

// Letters the word-break tables leave without a class. segment's tables
// are those of Unicode 8.0, where the letters of the scripts written
// without spaces between words (Thai, Lao, Khmer, Myanmar and the Tai
// scripts: line-break class SA, word-break class Other) and of every script
// encoded since (Adlam, Osage, Tangut, ...) are Other: bleve's tokenizer
// makes each of them a segment of type None and drops it, so Thai text
// indexed nothing but its digits and Latin words. The tokenizer hands such
// a letter, and the letters and marks of its script after it, to
// scriptWords, which cuts the run into words:
//
//   - Thai: dictionary maximal matching (thai.go);
//   - the other scripts written without spaces (Lao, Khmer, Myanmar, Tai Le,
//     New Tai Lue, Tai Tham, Tai Viet, Ahom), which have no word list here:
//     overlapping bigrams of character clusters (a letter and the marks
//     after it), as bleve's cjk analyzer does for Han, and the cluster
//     itself when the run has one;
//   - ideographic scripts (Tangut, Nüshu, Khitan Small Script): one token
//     per character, as the tokenizer does for Han;
//   - every other script (alphabets written with spaces): the run is the
//     word.

// scriptRun returns the length in bytes of the run of letters and marks of
// c's script at the start of d, which starts with c, a letter.
func scriptRun(d []byte, script *unicode.RangeTable) int {
	n := 0
	for n < len(d) {
		r, w := utf8.DecodeRune(d[n:])
		if r == utf8.RuneError && w <= 1 {
			break
		}
		if !unicode.Is(script, r) || !(unicode.IsLetter(r) || unicode.IsMark(r)) || isRunBreak(r) {
			break
		}
		n += w
	}
	return n
}

// isRunBreak reports the letters that punctuate rather than spell: Thai's
// and Lao's repetition marks and abbreviation signs.
func isRunBreak(r rune) bool {
	switch r {
	case 'ๆ', 'ฯ', 'ໆ', 'ຯ':
		return true
	}
	return false
}

// scriptKind is how a script's runs are cut into words.
type scriptKind uint8

const (
	spaced     scriptKind = iota // the run is a word
	thaiDict                     // dictionary maximal matching
	bigrams                      // overlapping cluster bigrams
	ideographs                   // one token per letter
)

// unspaced are the scripts written without spaces between words that have
// no dictionary here, and the ideographic scripts.
var unspaced = []struct {
	script *unicode.RangeTable
	kind   scriptKind
}{
	{unicode.Thai, thaiDict},
	{unicode.Lao, bigrams},
	{unicode.Khmer, bigrams},
	{unicode.Myanmar, bigrams},
	{unicode.Tai_Le, bigrams},
	{unicode.New_Tai_Lue, bigrams},
	{unicode.Tai_Tham, bigrams},
	{unicode.Tai_Viet, bigrams},
	{unicode.Ahom, bigrams},
	{unicode.Tangut, ideographs},
	{unicode.Nushu, ideographs},
	{unicode.Khitan_Small_Script, ideographs},
}

// scriptOf returns the script of letter c and how its runs are cut. The
// scripts of unspaced are tried first; the rest, rare, by a search of every
// script. A letter of no script (none in Unicode 15) is a word by itself.
func scriptOf(c rune) (*unicode.RangeTable, scriptKind) {
	for _, s := range unspaced {
		if unicode.Is(s.script, c) {
			return s.script, s.kind
		}
	}
	for _, t := range unicode.Scripts {
		if unicode.Is(t, c) {
			return t, spaced
		}
	}
	return nil, spaced
}

// appendScriptWords appends the words of the run at the start of d, which
// starts with the letter c that the word-break tables give no class, and
// returns them with the run's length, at least one word unless the length
// is 0. Each word's range is relative to d.
func appendScriptWords(words []span, d []byte, c rune) ([]span, int) {
	script, kind := scriptOf(c)
	if script == nil {
		n := utf8.RuneLen(c)
		return append(words, span{0, n}), n
	}
	n := scriptRun(d, script)
	if n == 0 { // a letter that punctuates (isRunBreak)
		return words, 0
	}
	run := d[:n]
	switch kind {
	case thaiDict:
		words = appendThaiWords(words, run)
	case bigrams:
		words = appendClusterBigrams(words, run)
	case ideographs:
		for i := 0; i < n; {
			_, w := utf8.DecodeRune(run[i:])
			end := i + w
			for end < n { // marks stay with their letter
				r, w := utf8.DecodeRune(run[end:])
				if !unicode.IsMark(r) {
					break
				}
				end += w
			}
			words = append(words, span{i, end})
			i = end
		}
	default:
		words = append(words, span{0, n})
	}
	return words, n
}

// clusterEnd returns where the cluster starting at i of run ends: after
// its first rune and the marks that follow.
func clusterEnd(run []byte, i int) int {
	_, w := utf8.DecodeRune(run[i:])
	i += w
	for i < len(run) {
		r, w := utf8.DecodeRune(run[i:])
		if !unicode.IsMark(r) {
			break
		}
		i += w
	}
	return i
}

// appendClusterBigrams appends the overlapping pairs of clusters of run,
// or the one cluster of a run that has only one.
func appendClusterBigrams(words []span, run []byte) []span {
	first := 0
	second := clusterEnd(run, first)
	if second == len(run) {
		return append(words, span{0, second})
	}
	for second < len(run) {
		end := clusterEnd(run, second)
		words = append(words, span{first, end})
		first, second = second, end
	}
	return words
}
