package analyze

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"
)

// thaiWordsGz is the Thai word list, one word a line, gzip-compressed:
// ICU's Thai word-break dictionary (Unicode licence), modified: reduced to
// the entries made only of Thai letters and marks, in NFC, sorted
// (thaiwords.md says where it comes from, how it was chosen and made).
//
//go:embed thaiwords.txt.gz
var thaiWordsGz []byte

// thaiDictionary is the word list as a set, with the length of its longest
// word.
type thaiDictionary struct {
	words   map[string]struct{}
	longest int // bytes
}

// thaiWords is built on the first Thai run: a process that never sees Thai
// text never decompresses the list.
var thaiWords = sync.OnceValue(func() *thaiDictionary {
	zr, err := gzip.NewReader(bytes.NewReader(thaiWordsGz))
	if err != nil { // compiled-in data: cannot fail unless the file is broken
		panic("analyze: Thai word list: " + err.Error())
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		panic("analyze: Thai word list: " + err.Error())
	}
	d := &thaiDictionary{words: make(map[string]struct{}, bytes.Count(raw, []byte{'\n'}))}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		w := sc.Text()
		if w == "" {
			continue
		}
		d.words[w] = struct{}{}
		d.longest = max(d.longest, len(w))
	}
	return d
})

// thaiScratch is the working memory of appendThaiWords, reused.
type thaiScratch struct {
	bounds, back []int
	best         []thaiCell
}

var thaiScratchPool = sync.Pool{New: func() any { return new(thaiScratch) }}

// thaiBoundary reports whether a word may start at byte i of run (0 < i <
// len(run)): not before a mark or a vowel that follows its consonant (ะ า
// ำ ๅ), nor before a consonant silenced by the thanthakhat (์), which ends
// the syllable before it, nor after a vowel written before its consonant
// (เ แ โ ใ ไ).
func thaiBoundary(run []byte, i int) bool {
	r, w := utf8.DecodeRune(run[i:])
	if unicode.IsMark(r) {
		return false
	}
	switch r {
	case 'ะ', 'า', 'ำ', 'ๅ':
		return false
	}
	if i+w < len(run) {
		if n, _ := utf8.DecodeRune(run[i+w:]); n == '\u0e4c' {
			return false
		}
	}
	p, _ := utf8.DecodeLastRune(run[:i])
	return p < 'เ' || p > 'ไ'
}

// thaiCell is the best segmentation of a run's prefix found so far: the
// fewest bytes outside dictionary words, then the fewest words.
type thaiCell struct {
	unknown, words int
	from           int  // boundary index the last word starts at; -1: unreached
	known          bool // the last word is a dictionary word
}

func (c thaiCell) better(o thaiCell) bool {
	if o.from < 0 {
		return true
	}
	if c.unknown != o.unknown {
		return c.unknown < o.unknown
	}
	return c.words < o.words
}

// appendThaiWords appends the words of a run of Thai letters and marks:
// maximal matching over the word list (the segmentation with the fewest
// bytes outside dictionary words, then the fewest words), cutting only
// between character clusters (thaiBoundary). Consecutive pieces outside
// the dictionary, a name or a loanword, make one word.
func appendThaiWords(words []span, run []byte) []span {
	dict := thaiWords()
	sc := thaiScratchPool.Get().(*thaiScratch)
	defer thaiScratchPool.Put(sc)
	bounds := append(sc.bounds[:0], 0)
	for i := 0; i < len(run); {
		_, w := utf8.DecodeRune(run[i:])
		i += w
		if i == len(run) || thaiBoundary(run, i) {
			bounds = append(bounds, i)
		}
	}
	best := slices.Grow(sc.best[:0], len(bounds))[:len(bounds)]
	for k := range best {
		best[k] = thaiCell{from: -1}
	}
	best[0] = thaiCell{from: 0}
	for k := 0; k < len(bounds)-1; k++ {
		at := best[k]
		if k > 0 && at.from < 0 {
			continue
		}
		// a piece outside the dictionary: one cluster
		next := thaiCell{unknown: at.unknown + bounds[k+1] - bounds[k], words: at.words + 1, from: k}
		if next.better(best[k+1]) {
			best[k+1] = next
		}
		for j := k + 1; j < len(bounds) && bounds[j]-bounds[k] <= dict.longest; j++ {
			if _, ok := dict.words[string(run[bounds[k]:bounds[j]])]; !ok {
				continue
			}
			next := thaiCell{unknown: at.unknown, words: at.words + 1, from: k, known: true}
			if next.better(best[j]) {
				best[j] = next
			}
		}
	}
	// Walk back from the end, then append in order, merging unknown pieces.
	back := sc.back[:0] // boundary indexes of word ends, last first
	for k := len(bounds) - 1; k > 0; k = best[k].from {
		back = append(back, k)
	}
	sc.bounds, sc.best, sc.back = bounds, best, back
	start := 0
	for i := len(back) - 1; i >= 0; i-- {
		k := back[i]
		if !best[k].known && i > 0 && !best[back[i-1]].known {
			continue // the next piece is unknown too: extend this one
		}
		words = append(words, span{bounds[start], bounds[k]})
		start = k
	}
	return words
}
