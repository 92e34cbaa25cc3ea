// Package rank turns a query's scored lists into its final ranking, the
// same way for every backend: the fusion settings (Fusion), their
// validation and the transformer models' defaults (TransformerFusion),
// normalization and convex, adaptive and RRF fusion (Fuse, Rank), the query's dense weight (QueryWeight), the vector-only floor
// (Floor, FloorRatio, DropBelowFloor), dense feedback's vector arithmetic (UseFeedback,
// AddFeedback, Turn), the code signals that re-score a search of code
// (CodeRerank: QueryKind, DefinitionMatch with SectionDefs and NamedTypes,
// PathMatchRare with abbreviations, agent nouns and NameRarity, FileRole, Platform and
// Implemented, per-file evidence), and the walk of a ranking into results (Page.Walk):
// the per-file limit, the collapse of identical and near-identical
// passages (collapseKey) and of copies of one document across version or
// language folders (Page.Copies, package copies), shown from the copy
// the query names or the newest version. It also owns the result types the engine
// answers with (Result, Scores, Location) and the explanations of a
// ranking.
//
// Everything here is pure: lists in, ranking out. A backend gives it the
// lists and a loader for a chunk's stored fields; the engine gives it the
// query text and, for the floor, whether the embedder knows the query's
// words.
//
// It must never import bleve, a backend (engine/backend/...), an embedder
// (engine/embed/...) or the engine itself; engine's import-rule test
// (imports_test.go) enforces it.
package rank
