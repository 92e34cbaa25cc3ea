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
	n := len(s)
	switch {
	case porterHasSuffix(s, "sses"):
		return s[:n-2]
	case porterHasSuffix(s, "ies"):
		return s[:n-2]
	case porterHasSuffix(s, "ss"):
		return s
	case porterHasSuffix(s, "s"):
		return s[:n-1]
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
		sub := s[:n-2]
		if porterContainsVowel(sub) {
			// For "at", "bl", "iz" and the short-word case the original
			// keeps s[:n-1], whose last letter is the e of "ed".
			return porterStep1bRest(s, sub, n-1)
		}
	case porterHasSuffix(s, "ing"):
		sub := s[:n-3]
		if porterContainsVowel(sub) {
			return porterStep1bRest(s, sub, n-2)
		}
	}
	return s
}

// porterStep1bRest is the part of step 1b after "ed" or "ing" is found
// after a stem (sub) with a vowel: keep is the length of sub plus one.
func porterStep1bRest(s, sub []byte, keep int) []byte {
	c := sub[len(sub)-1]
	switch {
	case porterHasSuffix(sub, "at"), porterHasSuffix(sub, "bl"), porterHasSuffix(sub, "iz"):
		s = s[:keep]
		s[keep-1] = 'e'
		return s
	case c != 'l' && c != 's' && c != 'z' && porterDoubleConsonantSuffix(sub):
		return sub[:len(sub)-1]
	case porterMeasure(sub) == 1 && porterCVCSuffix(sub) && c != 'w' && c != 'x' && c != 'y':
		s = s[:keep]
		s[keep-1] = 'e'
		return s
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

// Steps 2 to 4 try their suffixes in a fixed order and apply the first
// that s ends with, if its condition holds, and no other. A suffix can only
// match if it ends with s's last letter, so the switches below dispatch on
// that letter and keep the original order within each case.

func porterStep2(s []byte) []byte {
	n := len(s)
	m := func(suffix string) bool { return porterMeasure(s[:n-len(suffix)]) > 0 }
	switch s[n-1] {
	case 'l':
		switch {
		case porterHasSuffix(s, "ational"):
			if m("ational") {
				s[n-5] = 'e'
				return s[:n-4]
			}
		case porterHasSuffix(s, "tional"):
			if m("tional") {
				return s[:n-2]
			}
		}
	case 'i':
		switch {
		case porterHasSuffix(s, "enci"):
			if m("enci") {
				s[n-1] = 'e'
			}
		case porterHasSuffix(s, "anci"):
			if m("anci") {
				s[n-1] = 'e'
			}
		case porterHasSuffix(s, "bli"):
			if m("bli") {
				s[n-1] = 'e'
			}
		case porterHasSuffix(s, "alli"):
			if m("alli") {
				return s[:n-2]
			}
		case porterHasSuffix(s, "entli"):
			if m("entli") {
				return s[:n-2]
			}
		case porterHasSuffix(s, "eli"):
			if m("eli") {
				return s[:n-2]
			}
		case porterHasSuffix(s, "ousli"):
			if m("ousli") {
				return s[:n-2]
			}
		case porterHasSuffix(s, "aliti"):
			if m("aliti") {
				return s[:n-3]
			}
		case porterHasSuffix(s, "iviti"):
			if m("iviti") {
				s[n-3] = 'e'
				return s[:n-2]
			}
		case porterHasSuffix(s, "biliti"):
			if m("biliti") {
				s[n-5] = 'l'
				s[n-4] = 'e'
				return s[:n-3]
			}
		case porterHasSuffix(s, "logi"):
			if m("logi") {
				return s[:n-1]
			}
		}
	case 'r':
		switch {
		case porterHasSuffix(s, "izer"):
			if m("izer") {
				return s[:n-1]
			}
		case porterHasSuffix(s, "ator"):
			if m("ator") {
				s[n-2] = 'e'
				return s[:n-1]
			}
		}
	case 'n':
		switch {
		case porterHasSuffix(s, "ization"):
			if m("ization") {
				s[n-5] = 'e'
				return s[:n-4]
			}
		case porterHasSuffix(s, "ation"):
			if m("ation") {
				s[n-3] = 'e'
				return s[:n-2]
			}
		}
	case 'm':
		if porterHasSuffix(s, "alism") && m("alism") {
			return s[:n-3]
		}
	case 's':
		switch {
		case porterHasSuffix(s, "iveness"):
			if m("iveness") {
				return s[:n-4]
			}
		case porterHasSuffix(s, "fulness"):
			if m("fulness") {
				return s[:n-4]
			}
		case porterHasSuffix(s, "ousness"):
			if m("ousness") {
				return s[:n-4]
			}
		}
	}
	return s
}

func porterStep3(s []byte) []byte {
	n := len(s)
	m := func(suffix string) bool { return porterMeasure(s[:n-len(suffix)]) > 0 }
	switch s[n-1] {
	case 'e':
		switch {
		case porterHasSuffix(s, "icate"):
			if m("icate") {
				return s[:n-3]
			}
		case porterHasSuffix(s, "ative"):
			if m("ative") {
				return s[:n-5]
			}
		case porterHasSuffix(s, "alize"):
			if m("alize") {
				return s[:n-3]
			}
		}
	case 'i':
		if porterHasSuffix(s, "iciti") && m("iciti") {
			return s[:n-3]
		}
	case 'l':
		switch {
		case porterHasSuffix(s, "ical"):
			if m("ical") {
				return s[:n-2]
			}
		case porterHasSuffix(s, "ful"):
			if m("ful") {
				return s[:n-3]
			}
		}
	case 's':
		if porterHasSuffix(s, "ness") && m("ness") {
			return s[:n-4]
		}
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
