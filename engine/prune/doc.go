// Package prune finds the top k documents of a BM25 disjunction without
// scoring every posting: MaxScore dynamic pruning (Turtle & Flood 1995),
// document at a time. Terms whose upper bounds together cannot reach the
// k-th best score found so far become non-essential: documents are
// enumerated from the other terms' postings only, and a non-essential
// term's postings are advanced to a candidate only while the candidate
// can still compete.
//
// The answer is exact: every document whose score is at least the k-th
// best score (ties included), each with the score the exhaustive scorer
// gives it, summed in the same query-term order so that the floats are
// identical. Ordering and tie-breaking are left to the caller, which
// orders them exactly as it orders an exhaustive list.
//
// TopKTiered is the same answer from postings partitioned into cells
// (chunk length bucket by term frequency class, with a per-document code
// of each term's cell): it walks the combinations of one cell per term, or
// none, bucket by bucket, and never looks at a combination whose cells'
// bounds add up below the k-th best score; a combination costs its
// smallest cell, so the documents read are those that can still compete,
// not every posting of the essential terms.
//
// It owns the algorithms only and must never import bleve or the engine:
// postings arrive through the Postings interface or as cells, term
// weights through a function, bounds as numbers the caller proves valid.
package prune
