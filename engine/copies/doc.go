// Package copies owns recognizing copies of one document: the same page
// kept in the folder of each product version or language
// ("reference/7.5/x.md", "reference/5.1/x.md"), with small edits, so that
// a query shows it once, with the other copies as also_in, instead of
// filling its top 10 with them.
//
// Two results are copies (IsCopy) when they are the same file in two
// sibling folders (their paths differ in one folder only, Siblings) and
// those are two languages' (a translation), or their texts are
// near-duplicates: a bottom-k MinHash estimate of the Jaccard similarity of
// their word shingles (Sign and Similarity), the bar being lower between
// two version folders. The copy shown (Prefer) is the one the query,
// --path or the query's language names; else, between languages, the
// English one (a query of no known language is analyzed as English);
// else the newest version (CompareVersions: latest/current first, then
// version numbers, newest first).
//
// It is pure: no I/O, and it imports nothing of this module.
package copies
