// Package eval measures retrieval quality the way the field does: a
// BEIR-format directory (corpus.jsonl, queries.jsonl, qrels/<split>.tsv) is
// written out as one file per document into a workspace, indexed by a real
// refresh, and every judged query is run in process through the engine in
// each mode (bm25, vector, hybrid).
//
// Metrics follow pytrec_eval (trec_eval), which BEIR reports:
//   - nDCG@10: linear gain (the grade), discount log2(rank+1), the ideal
//     ranking made of every judged document of positive grade;
//   - Recall@100: judged documents of positive grade in the top 100 over all
//     of them;
//   - MRR@10: the reciprocal rank of the first positive document within the
//     top 10 (0 when there is none), BEIR's definition.
//
// Every judged query counts in the means; one the engine answers with no
// result scores 0 (pytrec_eval would skip a query missing from the run,
// which can only raise its means).
//
// Results whose passage is the same (but for white space and version
// numbers) collapse into one (engine.Result.AlsoIn)
// unless Options.NoCollapse: the run lists the documents of a collapsed
// result's also_in right after it, since the user is shown them there.
//
// A code set (codeset.go: source trees with queries and file labels, the
// layout of codesearch-dev) is scored at file level instead: each tree is
// copied into the workspace and indexed, each query asked as `autorag
// query -k 10` asks it, and FileNDCG (binary gains over the first 10
// distinct files, semble's metric) is averaged per repository, per
// category, over repositories and over queries.
//
// Latency is the time of each query through an open generation (Engine.Search),
// the part of `autorag query` that ranking changes affect.
package eval
