package analyze

import (
	"math/bits"
	"slices"
	"unicode"
	"unicode/utf8"
)

// stopMask is the set of languages listing word as a stop word (bit 0:
// English, bit i+1: others[i]), from the table of stoptable.go, which is
// compiled in: the detector builds nothing at run time. The table is open
// addressing over stopHash with linear probing; comparing a string with
// string(word) does not allocate.
func stopMask(word []byte) uint16 {
	if stopLengths[word[0]]&(1<<min(len(word), 63)) == 0 {
		return 0
	}
	for h := stopHash(word); ; h++ {
		i := stopSlots[h%uint32(len(stopSlots))]
		if i == 0 {
			return 0
		}
		if stopTableWords[i-1] == string(word) {
			return stopTableMasks[i-1]
		}
	}
}

// stopHash is 32-bit FNV-1a.
func stopHash(word []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range word {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// detectWords is how many words of a text Detect looks at.
const detectWords = 120

// minShare is the least score, per word read, a detected language needs:
// prose has a stop word in every three words or so, while a Chinese page
// with a few Latin words, or a list of names, has few.
const minShare = 0.05

// minScore is the least score a detected language needs in a document: a
// Go function naming a variable "mu" twice scores 2 for Turkish.
const minScore = 3

// Detect guesses the language of text from its stop words: each word that
// is a stop word of some languages adds 1/n to each of those n languages
// (so words shared by many languages, such as "de", weigh little), and the
// language with the highest score wins if it scores at least minScore and
// minShare per word read (ties go to English, then to the order of
// Languages); otherwise, and for text with few stop words (code, tables,
// identifiers), the answer is English. Ukrainian (і, ї, є, ґ) is not taken for Russian: it has no
// chain of its own and goes to the English chain, which leaves Cyrillic
// words unstemmed. One-letter words are not counted (in code and lists
// they are names and markers). Only the first detectWords words are read.
func Detect(text string) string { return detect(text, English, minScore) }

// DetectQuery is Detect for a query, which is short: one stop word that
// only one language lists is evidence enough. It returns "" when there is
// none.
func DetectQuery(text string) string { return detect(text, "", 1) }

// DetectOr is Detect with another answer when the evidence is too weak (no
// language scores minScore): a short chunk of a German file, a heading and
// a code block, is analyzed as the file was.
func DetectOr(text, fallback string) string { return detect(text, fallback, minScore) }

// Guess is Detect that also says whether the evidence was strong enough;
// when it was not, code is English.
func Guess(text string) (code string, sure bool) {
	code = detect(text, "", minScore)
	if code == "" {
		return English, false
	}
	return code, true
}

func detect(text, fallback string, least float64) string {
	var score, withNames [len(others) + 1]float64
	var scripts scriptCounts
	var buf [32]byte
	words, ukrainian, sentence := 0, false, true
	for i := 0; i < len(text) && words < detectWords; {
		// skip to the next letter
		c, w := rune(text[i]), 1
		if c >= utf8.RuneSelf {
			c, w = utf8.DecodeRuneInString(text[i:])
		} else if !isASCIILetter(byte(c)) {
			sentence = sentence || endsSentence(c)
			i++
			continue
		}
		if !isLetter(c) {
			sentence = sentence || endsSentence(c)
			i += w
			continue
		}
		// A capitalized word inside a sentence is a name or part of one
		// ("Los Angeles", "San Diego", "De Niro"): its stop words vote
		// only when the other words do not decide.
		name := !sentence && isUpper(c)
		sentence = false
		next, n, long, viet, ukr := readWord(text, i, &buf, &scripts)
		i, ukrainian = next, ukrainian || ukr
		words++
		if viet {
			scripts.viet++
		}
		if long || n == 1 {
			// One-letter stop words ("a", "e", "y", "o", "c") are more
			// often variables, list markers and initials than words.
			continue
		}
		if m := stopMask(buf[:n]); m != 0 {
			share := 1 / float64(bits.OnesCount16(m))
			for ; m != 0; m &= m - 1 {
				l := bits.TrailingZeros16(m)
				withNames[l] += share
				if !name {
					score[l] += share
				}
			}
		}
	}
	if code := scripts.language(words); code != "" {
		return code
	}
	if ukrainian {
		ru := slices.IndexFunc(others[:], func(l language) bool { return l.code == "ru" }) + 1
		score[ru], withNames[ru] = 0, 0
	}
	// The words of names vote only when the others say too little: the
	// Romanian paragraph about the Los Angeles teams has three Romanian
	// stop words, the English one five English ones.
	if code, ok := vote(&score, least, words); ok {
		return code
	}
	if code, ok := vote(&withNames, least, words); ok {
		return code
	}
	return fallback
}

// readWord reads the word at text[i:] (letters and apostrophes), counts
// its letters' scripts in s and writes it lower-cased to buf (long when it
// does not fit). It returns the index after the word, the bytes written,
// and whether the word has a letter only Vietnamese or only Ukrainian
// writes. ASCII letters take a quick path: they are not of any script
// counted, nor Vietnamese or Ukrainian, and lower-case to one byte.
func readWord(text string, i int, buf *[32]byte, s *scriptCounts) (next, n int, long, viet, ukrainian bool) {
	for i < len(text) {
		if b := text[i]; b < utf8.RuneSelf {
			if !isASCIILetter(b) && b != '\'' {
				break
			}
			s.letters++
			i++
			if n >= len(buf) {
				long = true
				continue
			}
			if 'A' <= b && b <= 'Z' {
				b += 'a' - 'A'
			}
			buf[n] = b
			n++
			continue
		}
		c, w := utf8.DecodeRuneInString(text[i:])
		if !isLetter(c) {
			break
		}
		s.letters += w
		s.add(c, w)
		viet = viet || isVietnamese(c)
		switch c {
		case 'і', 'ї', 'є', 'ґ', 'І', 'Ї', 'Є', 'Ґ':
			ukrainian = true
		}
		i += w
		c = unicode.ToLower(c)
		if n+utf8.RuneLen(c) > len(buf) {
			long = true
			continue
		}
		n += utf8.EncodeRune(buf[n:], c)
	}
	return i, n, long, viet, ukrainian
}

func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// vote returns the language with the highest score if it has enough (ties
// go to English, then to the order of others).
func vote(score *[len(others) + 1]float64, least float64, words int) (string, bool) {
	best := 0
	for l := 1; l < len(score); l++ {
		if score[l] > score[best] {
			best = l
		}
	}
	switch {
	case score[best] < least || score[best] < minShare*float64(words):
		return "", false
	case best == 0:
		return English, true
	}
	return others[best-1].code, true
}

// endsSentence reports a character after which a capitalized word starts
// a sentence (or a line, a heading, a list item) rather than a name.
func endsSentence(c rune) bool {
	switch c {
	case '.', '!', '?', ':', '\n', '¿', '¡', '。', '؟', ';', '"', '“', '«', '„':
		return true
	}
	return false
}

func isUpper(c rune) bool {
	if c < utf8.RuneSelf {
		return 'A' <= c && c <= 'Z'
	}
	return unicode.IsUpper(c)
}

func isLetter(c rune) bool {
	if c < utf8.RuneSelf {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	return unicode.IsLetter(c)
}

// scriptCounts counts the letters of the scripts that name a language of
// scripted by themselves (UTF-8 bytes of them: every letter of these
// scripts takes two or three), out of all the letters read.
type scriptCounts struct {
	letters             int // bytes of letters, of every script
	arabic, greek, deva int
	thai, cjk           int
	persian, arabicOnly int // letters only Persian, or only Arabic, writes
	viet                int // words with a letter only Vietnamese writes
}

// isVietnamese reports the letters of Vietnamese no other language with a
// chain writes: đ, ơ, ư and the vowels with a tone mark below or a hook
// (Latin Extended Additional, U+1EA0 to U+1EF9). Not ă, which Romanian
// writes too.
func isVietnamese(c rune) bool {
	switch c {
	case 'đ', 'Đ', 'ơ', 'Ơ', 'ư', 'Ư':
		return true
	}
	return c >= 0x1EA0 && c <= 0x1EF9
}

func (s *scriptCounts) add(c rune, n int) {
	switch {
	case c >= 0x0370 && c <= 0x03FF || c >= 0x1F00 && c <= 0x1FFF:
		s.greek += n
	case c >= 0x0600 && c <= 0x06FF || c >= 0x0750 && c <= 0x077F || c >= 0x08A0 && c <= 0x08FF ||
		c >= 0xFB50 && c <= 0xFDFF || c >= 0xFE70 && c <= 0xFEFF:
		s.arabic += n
		switch c {
		case 'پ', 'چ', 'ژ', 'گ', 'ک', 'ی':
			s.persian++
		case 'ك', 'ي', 'ة':
			s.arabicOnly++
		}
	case c >= 0x0900 && c <= 0x097F:
		s.deva += n
	case c >= 0x0E00 && c <= 0x0E7F:
		s.thai += n
	case c >= 0x3040 && c <= 0x30FF || c >= 0x3400 && c <= 0x4DBF || c >= 0x4E00 && c <= 0x9FFF ||
		c >= 0xAC00 && c <= 0xD7AF || c >= 0x1100 && c <= 0x11FF || c >= 0xF900 && c <= 0xFAFF:
		s.cjk += n
	}
}

// vietShare is the least share of words with a letter of isVietnamese that
// makes a text Vietnamese: in Vietnamese prose they are two in five or
// more; a French or German text quoting a Vietnamese name has one or two.
const vietShare = 0.15

// language is the language a script names when more than half the
// letters read are of it: Greek el, Devanagari hi (the script of Marathi
// and Nepali too, whose words the Hindi chain at least keeps), Thai th,
// Arabic ar or, when Persian's own letters (پ چ ژ گ and its forms of kaf
// and yeh) outnumber Arabic's (ك ي ة), fa; Han, kana and Hangul English,
// whose chain they get (the Latin words of a Japanese page are code and
// names, not Portuguese); Vietnamese by its letters (isVietnamese). ""
// otherwise.
func (s *scriptCounts) language(words int) string {
	half := s.letters / 2
	switch {
	case s.viet >= 2 && float64(s.viet) >= vietShare*float64(words):
		return "vi"
	case s.arabic > half:
		if s.persian > s.arabicOnly {
			return "fa"
		}
		return "ar"
	case s.greek > half:
		return "el"
	case s.deva > half:
		return "hi"
	case s.thai > half:
		return "th"
	case s.cjk > half:
		return English
	}
	return ""
}
