package rank

import "strings"

// DerivedCredit is what a word of a file's name counts in PathMatch when
// it is an agent noun of a query word or the query word is one of it
// (derivedStems; a word the query has counts 1), chosen on
// codesearch-dev (docs/QUALITY.md).
const DerivedCredit = 0.8

// minDerivedBase is the fewest letters an agent noun keeps without its
// -er or -or (and a stem has) for the two to be joined: user (us) is not
// joined to use and using.
const minDerivedBase = 3

// derivedStems are the stems, each with the query term it comes from, of
// the agent nouns of the query's words and of the verbs of its agent
// nouns, where the stemmer leaves them apart. English Porter removes -er
// only from a long enough stem and -or never: encoder and encoding
// share encod, but logger (log, logging), router (route, routing),
// parser, handler, builder, writer, reader, runner, formatter (its stem
// is formatt) and executor (execut) keep their own. A query's "logging"
// gives logger, its "router" gives rout (route, routing) and its
// "formatter" format. A word that only looks like an agent noun is
// joined as well (worker to "work", header to "head"), which is why such
// a word counts DerivedCredit. Computed once per query: PathMatch then
// looks a name's word up as it looks up the terms.
func derivedStems(q *PathQuery, stem func(string) string) map[string]string {
	out := map[string]string{}
	add := func(word, term string) {
		if s := stemWord(word, stem); s != "" && !q.terms[s] {
			if _, ok := out[s]; !ok {
				out[s] = term
			}
		}
	}
	for i, w := range q.words {
		t := q.stems[i]
		if isLowerWord(t) {
			for _, n := range agentNouns(t) {
				add(n, t)
			}
		}
		for _, x := range [...]string{w, t} {
			if isLowerWord(x) {
				for _, v := range verbsOf(x) {
					add(v, t)
				}
			}
		}
	}
	return out
}

// agentNouns are the words naming what does what stem t says: t+er,
// t+or after a t or s (execut: executor; process: processor), t with its
// last consonant doubled +er (log: logger; format: formatter), t+r after
// an e (write: writer); none for a t that is itself one (-er, -or).
func agentNouns(t string) []string {
	n := len(t)
	if n < minDerivedBase || strings.HasSuffix(t, "er") || strings.HasSuffix(t, "or") {
		return nil
	}
	out := []string{t + "er"}
	if t[n-1] == 't' || t[n-1] == 's' {
		out = append(out, t+"or")
	}
	if isConsonant(t[n-1]) && !strings.ContainsRune("wxy", rune(t[n-1])) && isVowel(t[n-2]) {
		out = append(out, t+t[n-1:]+"er")
	}
	if t[n-1] == 'e' && n > minDerivedBase {
		out = append(out, t+"r")
	}
	return out
}

// verbsOf are the words an agent noun w (-er, -or) is made from: what
// stays (builder: build), with an e (parser: parse), with a doubled
// consonant single (logger: log); none for another word or one whose
// rest is shorter than minDerivedBase.
func verbsOf(w string) []string {
	if !strings.HasSuffix(w, "er") && !strings.HasSuffix(w, "or") || len(w)-2 < minDerivedBase {
		return nil
	}
	b := w[:len(w)-2]
	out := []string{b, b + "e"}
	if n := len(b); b[n-1] == b[n-2] && isConsonant(b[n-1]) && !strings.ContainsRune("lsz", rune(b[n-1])) {
		out = append(out, b[:n-1])
	}
	return out
}

// isLowerWord: w is lowercase ASCII letters only.
func isLowerWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isLowerASCII(w[i]) {
			return false
		}
	}
	return w != ""
}

func isVowel(c byte) bool     { return strings.IndexByte("aeiou", c) >= 0 }
func isConsonant(c byte) bool { return isLowerASCII(c) && !isVowel(c) }
