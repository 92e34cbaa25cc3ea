package rank

import "unicode"

// Script is the writing of most of a query's words (ScriptOf): what the
// built-in embedder can read. Its vocabulary is English WordPiece, which
// spells out the words of other alphabets letter by letter but has a row
// for each common Han, kana and Hangul character.
type Script int

// Scripts, as ScriptOf tells them.
const (
	ScriptLatin Script = iota // Latin letters, or no letters at all
	ScriptCJK                 // Han, kana or Hangul
	ScriptOther               // Cyrillic, Greek, Arabic, Devanagari, Thai, ...
)

// ScriptOf is the script of most of text's words: a word is a run of
// letters (and their marks) of one script class, and each Han or kana
// character is a word of its own, so "2010 年 NFL 的 MVP 是谁" is mostly
// CJK. So is each letter of the scripts written without spaces between
// words (Thai, Lao, Khmer, Myanmar), whose one run would otherwise be
// outvoted by two Latin names ("ใครเป็นผู้ร้องเพลงชาติในการแข่งขัน Super Bowl 50":
// 37 of XQuAD th's 578 questions). Without a majority (or without letters)
// it is ScriptLatin.
func ScriptOf(text string) Script {
	var words [3]int
	prev := -1 // class of the previous rune; -1: not a letter
	for _, r := range text {
		class := -1
		switch {
		case unicode.IsMark(r): // a vowel sign or accent goes with its letter
			class = prev
		case !unicode.IsLetter(r):
		case unicode.Is(unicode.Latin, r):
			class = int(ScriptLatin)
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			class = int(ScriptCJK)
		default:
			class = int(ScriptOther)
		}
		ideograph := class == int(ScriptCJK) && !unicode.Is(unicode.Hangul, r)
		spaceless := class == int(ScriptOther) && unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar) && !unicode.IsMark(r)
		if class >= 0 && (class != prev || ideograph || spaceless) {
			words[class]++
		}
		prev = class
	}
	all := words[0] + words[1] + words[2]
	for _, s := range []Script{ScriptCJK, ScriptOther} {
		if 2*words[s] > all {
			return s
		}
	}
	return ScriptLatin
}
