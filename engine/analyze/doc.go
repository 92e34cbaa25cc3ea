// Package analyze is the text analysis shared by indexing and querying: the
// same chain turns a chunk into index terms and a query into search terms,
// for English prose and for source code alike.
//
// The chain, built directly from bleve components (no registry lookups):
//
//  1. bleve's unicode tokenizer (Unicode word boundaries, UAX #29). It keeps
//     "foo_bar.baz", "can't", "3.14" and "v1.2.3" whole and splits
//     "kebab-case" and "path/to/file". CJK text comes out one ideograph per
//     token (kana runs stay together): adequate for matching, not
//     dictionary-quality segmentation. The letters the tokenizer's Unicode
//     8 tables give no word-break class, which bleve drops (Thai, Lao,
//     Khmer, Myanmar, and every script encoded since), are recovered: a
//     run of them is cut into words, Thai by maximal matching over ICU's
//     Thai dictionary, the other scripts written without spaces into
//     bigrams of character clusters (script.go, thai.go).
//  2. ident: splits code identifiers into words (camelCase, PascalCase,
//     snake_case, dotted.names, a:b, "HTTPServer" into HTTP and Server,
//     "utf8Decode" into utf8 and Decode; digits stay with the letters before
//     them, a plural "s" stays with its acronym, as in "IDs") and emits the
//     parts after the whole token, which is kept too: "getUserName" is
//     indexed as getusername, get, user and name, so the queries
//     getUserName, "user name" and "get user" all find it. Parts take
//     consecutive positions, so a phrase query "user name" matches inside
//     the identifier. Numbers are not split. ident also folds
//     the typographic apostrophes ’ and ＇ to ', so "don’t" is a stop word
//     like "don't", and drops every term longer than MaxTermBytes (64 bytes,
//     the length of a hex SHA-256): longer tokens are blobs, not words; the
//     short parts of a long identifier are kept.
//  3. lower-case (our own, not bleve's to_lower, which garbles a term when a
//     rune's lower case is shorter, such as "İ"; see lower.go).
//  4. English possessive removal ("John's" to "John", also ’s), bleve's
//     possessive_en.
//  5. English stop words: bleve's stop_en list, which is the Snowball list
//     (about 170 words, contractions included). Lucene's EnglishAnalyzer, and
//     so Pyserini's BM25 baselines, use a shorter list of 33 words; the design
//     findings measured bleve's en analyzer (this list with Porter) at
//     nDCG@10 0.678-0.683 on SciFact with k1 = 0.9, b = 0.4, level with
//     Pyserini, so the longer list costs nothing measurable.
//  6. Porter stemming: bleve's stemmer_porter (go-porterstemmer), the
//     original Porter algorithm, which is what Lucene's PorterStemFilter (used
//     by Pyserini's default English analyzer) implements. The Snowball
//     "english" stemmer is Porter2 and stems differently.
//
// Whole tokens are stemmed too ("getUserNames" and "getUserName" meet at
// "getusernam"): stemming is applied identically at index and query time, so
// only consistency matters.
//
// No Unicode normalization (NFKC) is applied: the mirror stores text in NFC
// already, and NFKC would fold characters code search may care about
// ("ﬁ", superscripts, full-width forms) at a cost on every token.
//
// The chain is defined by those components (equiv_test.go assembles them;
// steps 2 and 3 are filters of our own, in reference_test.go), but Analyzer
// runs it in one pass over the tokens, faster (chain.go): the tokenizer
// computes bleve's segments itself when the bytes that decide one are ASCII
// and asks bleve's segmenter otherwise (tokenize.go); ASCII terms are
// stemmed by a byte-level transliteration of go-porterstemmer (porter.go);
// tokens are allocated in blocks. equiv_test.go and FuzzAnalyzeEquivalent
// check that the stream (terms, offsets, positions, types) is exactly that
// of the components run one after another, so the two can never disagree
// on an index.
//
// # Other languages
//
// The chain above is the English one, and the one for code. A prose chunk
// in another language is analyzed by the same chain with that language's
// Snowball stop list and Snowball stemmer in place of steps 4 to 6 (no
// possessive step): Danish, Dutch, Finnish, French, German, Hungarian,
// Italian, Norwegian, Portuguese, Romanian, Russian, Spanish and Swedish
// (lang.go; stop lists as bleve ships them, stemmers from
// github.com/blevesearch/snowballstem). Turkish, Arabic, Persian, Greek,
// Hindi, Thai and Vietnamese have chains of their own (chains.go: bleve's
// normalizers, stop lists and light stemmers, Snowball Greek, Turkish
// lower-casing and apostrophes, a five-letter Turkish stem), each measured
// on XQuAD against the alternatives (docs/QUALITY.md). Every chain drops
// the English stop words too. CJK text keeps the tokenizer's handling and
// the English chain.
//
// Detect picks the language of a text (detect.go, a measured heuristic, no
// model): a text more than half of whose letters are Arabic, Greek,
// Devanagari or Thai is that language (Arabic or Persian by the letters
// only one of them writes), more than half Han, kana or Hangul is English,
// a text with enough words carrying Vietnamese letters (đ, ơ, ư, ă, the
// hooked and dotted vowels) is Vietnamese; otherwise each stop word votes
// for the languages that list it, shared words weigh less, and the words
// of names (capitalized inside a sentence: "Los Angeles") vote only when
// the others do not decide. Text with too few stop words, such as code, is
// English. A language the document declares (Declared, PathLanguage:
// frontmatter lang, <html lang>, a language folder under content/, docs/,
// i18n/ or the like, as content/es/) comes
// before detection. The engine detects a file's language once and each
// chunk's own where its evidence is strong, and records it in the index;
// a query is analyzed in every language the index holds, each language's
// terms scoring that language's chunks (engine/backend/local/querylang.go), so an
// English term inside a Thai question finds the English pages as well as
// the Thai ones. MultiVersion names this analysis in the fingerprint.
//
// Nothing is built at package initialization: the analyzer (including the
// stop word map) is built on the first call to Analyzer or Terms, each
// other language's analyzer on the first call that needs that language, so
// a query process builds the chains of the languages its index holds and
// no others, and the Thai word list on the first Thai text. The detector builds nothing: its stop word table (every
// language's stop words and the languages listing each) is compiled in
// (stoptable.go, generated from bleve's stop lists and checked against them
// by TestStopTable). They hold no mutable state and are safe for
// concurrent use.
//
// Version names the chain and its settings and goes into the index
// fingerprint. Change it with any change to what the chain emits: an index
// analyzed with one chain cannot be queried with another.
package analyze
