package analyze

// stemASCII is go-porterstemmer's StemWithoutLowerCasing (v1.0.3, the
// stemmer behind bleve's stemmer_porter) for ASCII terms, transliterated
// from []rune to []byte: the same steps, suffix tests in the same order,
// the same edits. Like the original it edits s in place and returns a
// prefix of it. The original spends most of its time converting each
// suffix literal to []rune; porter_test.go checks the two agree on every
// short word, on every rule's suffix after many stems, and under fuzzing.
func stemASCII(s []byte) []byte {
	if len(s) <= 2 {
		return s
	}
	s = porterStep1a(s)
	s = porterStep1b(s)
	s = porterStep1c(s)
	s = porterStep2(s)
	s = porterStep3(s)
	s = porterStep4(s)
	s = porterStep5a(s)
	s = porterStep5b(s)
	return s
}

func porterIsConsonant(s []byte, i int) bool {
	switch s[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		if i == 0 {
			return true
		}
		return !porterIsConsonant(s, i-1)
	}
	return true
}

func porterMeasure(s []byte) int {
	n := len(s)
	m := 0
	i := 0
	if n == 0 {
		return 0
	}
	for porterIsConsonant(s, i) {
		i++
		if i >= n {
			return m
		}
	}
outer:
	for i < n {
		for !porterIsConsonant(s, i) {
			i++
			if i >= n {
				break outer
			}
		}
		for porterIsConsonant(s, i) {
			i++
			if i >= n {
				m++
				break outer
			}
		}
		m++
	}
	return m
}

// porterHasSuffix is the original's hasSuffix: s must be longer than
// suffix.
func porterHasSuffix(s []byte, suffix string) bool {
	n, k := len(s), len(suffix)
	if n <= k {
		return false
	}
	for i := 1; i <= k; i++ { // from the end: most words fail at once
		if s[n-i] != suffix[k-i] {
			return false
		}
	}
	return true
}

func porterContainsVowel(s []byte) bool {
	for i := range s {
		if !porterIsConsonant(s, i) {
			return true
		}
	}
	return false
}

func porterDoubleConsonantSuffix(s []byte) bool {
	n := len(s)
	return n >= 2 && s[n-1] == s[n-2] && porterIsConsonant(s, n-1)
}

func porterCVCSuffix(s []byte) bool {
	n := len(s)
	return n >= 3 && porterIsConsonant(s, n-3) && !porterIsConsonant(s, n-2) && porterIsConsonant(s, n-1)
}

func porterStep1a(s []byte) []byte {
	switch {
	case porterHasSuffix(s, "sses"), porterHasSuffix(s, "ies"):
		return s[:len(s)-2]
	case porterHasSuffix(s, "ss"):
		return s
	case porterHasSuffix(s, "s"):
		return s[:len(s)-1]
	}
	return s
}

func porterStep1b(s []byte) []byte {
	n := len(s)
	switch {
	case porterHasSuffix(s, "eed"):
		if porterMeasure(s[:n-3]) > 0 {
			return s[:n-1]
		}
	case porterHasSuffix(s, "ed"):
		if sub := s[:n-2]; porterContainsVowel(sub) {
			return porterStep1bRest(sub)
		}
	case porterHasSuffix(s, "ing"):
		if sub := s[:n-3]; porterContainsVowel(sub) {
			return porterStep1bRest(sub)
		}
	}
	return s
}

// porterStep1bRest is the part of step 1b after "ed" or "ing" is removed
// from a stem (sub) with a vowel. Adding an e writes it over the first
// letter of the removed suffix, as the original does.
func porterStep1bRest(sub []byte) []byte {
	c := sub[len(sub)-1]
	switch {
	case porterHasSuffix(sub, "at"), porterHasSuffix(sub, "bl"), porterHasSuffix(sub, "iz"):
		return append(sub, 'e')
	case c != 'l' && c != 's' && c != 'z' && porterDoubleConsonantSuffix(sub):
		return sub[:len(sub)-1]
	case porterMeasure(sub) == 1 && porterCVCSuffix(sub) && c != 'w' && c != 'x' && c != 'y':
		return append(sub, 'e')
	}
	return sub
}

func porterStep1c(s []byte) []byte {
	n := len(s)
	if n < 2 {
		return s
	}
	if s[n-1] == 'y' && porterContainsVowel(s[:n-1]) {
		s[n-1] = 'i'
	} else if s[n-1] == 'Y' && porterContainsVowel(s[:n-1]) {
		s[n-1] = 'I'
	}
	return s
}

// porterRule replaces suffix with repl, which is never longer.
type porterRule struct{ suffix, repl string }

// Steps 2 to 4 try their suffixes in a fixed order and apply the first
// that s ends with, if its condition holds, and no other. A suffix can only
// match if it ends with s's last letter, so the tables below are indexed by
// that letter and keep the original order within each entry.

var porterStep2Rules = [256][]porterRule{
	'l': {{"ational", "ate"}, {"tional", "tion"}},
	'i': {{"enci", "ence"}, {"anci", "ance"}, {"bli", "ble"}, {"alli", "al"}, {"entli", "ent"},
		{"eli", "e"}, {"ousli", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"}, {"logi", "log"}},
	'r': {{"izer", "ize"}, {"ator", "ate"}},
	'n': {{"ization", "ize"}, {"ation", "ate"}},
	'm': {{"alism", "al"}},
	's': {{"iveness", "ive"}, {"fulness", "ful"}, {"ousness", "ous"}},
}

var porterStep3Rules = [256][]porterRule{
	'e': {{"icate", "ic"}, {"ative", ""}, {"alize", "al"}},
	'i': {{"iciti", "ic"}},
	'l': {{"ical", "ic"}, {"ful", ""}},
	's': {{"ness", ""}},
}

func porterStep2(s []byte) []byte { return porterReplace(s, porterStep2Rules[s[len(s)-1]]) }

func porterStep3(s []byte) []byte { return porterReplace(s, porterStep3Rules[s[len(s)-1]]) }

// porterReplace applies the first of rules whose suffix s ends with, if the
// stem before it has a measure above 0, writing the replacement in place.
func porterReplace(s []byte, rules []porterRule) []byte {
	for _, r := range rules {
		if !porterHasSuffix(s, r.suffix) {
			continue
		}
		stem := s[:len(s)-len(r.suffix)]
		if porterMeasure(stem) > 0 {
			return append(stem, r.repl...)
		}
		return s // only the first suffix found counts
	}
	return s
}

// porterStep4Suffixes are step 4's suffixes, by last letter, each list in
// the original's order. A suffix is removed when the measure of what is
// left is above 1 ("ion" only after s or t).
var porterStep4Suffixes = [256][]string{
	'l': {"al"},
	'e': {"ance", "ence", "able", "ible", "ate", "ive", "ize"},
	'r': {"er"},
	'c': {"ic"},
	't': {"ant", "ement", "ment", "ent"},
	'n': {"ion"},
	'u': {"ou"},
	'm': {"ism"},
	'i': {"iti"},
	's': {"ous"},
}

func porterStep4(s []byte) []byte {
	for _, suffix := range porterStep4Suffixes[s[len(s)-1]] {
		if !porterHasSuffix(s, suffix) {
			continue
		}
		sub := s[:len(s)-len(suffix)]
		if porterMeasure(sub) > 1 {
			if suffix != "ion" {
				return sub
			}
			if c := sub[len(sub)-1]; c == 's' || c == 't' {
				return sub
			}
		}
		return s // only the first suffix found counts
	}
	return s
}

func porterStep5a(s []byte) []byte {
	n := len(s)
	if s[n-1] == 'e' {
		sub := s[:n-1]
		m := porterMeasure(sub)
		if m > 1 {
			return sub
		}
		if m == 1 {
			if c := sub[len(sub)-1]; !(porterCVCSuffix(sub) && c != 'w' && c != 'x' && c != 'y') {
				return sub
			}
		}
	}
	return s
}

func porterStep5b(s []byte) []byte {
	n := len(s)
	if n > 2 && s[n-2] == 'l' && s[n-1] == 'l' {
		if sub := s[:n-1]; porterMeasure(sub) > 1 {
			return sub
		}
	}
	return s
}
