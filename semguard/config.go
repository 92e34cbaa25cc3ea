package semguard

// Config says where the guard finds the version, keeps its record and
// writes the query digest, and which symbols are query-time.
type Config struct {
	// VersionConst is the index semantics version: an integer constant.
	VersionConst string
	// VersionFile is where a bump is made, for messages.
	VersionFile string
	// Record is the recorded digests, relative to the module root.
	Record string
	// QueryFile is the generated Go file that holds QueryConst.
	QueryFile string
	// QueryConst is the compiled-in query-semantics digest.
	QueryConst string
	// QueryTime are the symbols that only shape answers, never what is
	// stored: no region may reach one. With QueryRoots they are the roots
	// of the query-semantics digest.
	QueryTime []string
	// Reports are types regions fill that only report on a run (counts,
	// progress) and are never stored: referenced by name, not digested, so
	// a new field in a report does not ask for a bump.
	Reports []string
	// QueryRoots are the entry points of the query path, and the
	// implementations it calls through interfaces (not followed from a
	// call: see doc.go).
	QueryRoots []string
}

// Project is autorag's configuration. A symbol is written the way a
// failure names it: the package path relative to the module, a dot, and
// the declared name; "(*T).M" or "T.M" for a method and "T.F" for a field
// of a struct without tags.
var Project = Config{
	VersionConst: "engine.IndexSemanticsVersion",
	VersionFile:  "engine/settings.go",
	Record:       "engine/semantics.json",
	QueryFile:    "engine/querysemantics.go",
	QueryConst:   "engine.QuerySemantics",
	QueryTime: []string{
		// BM25 parameters and scoring.
		"engine.DefaultK1", "engine.DefaultB", "engine.Settings.K1", "engine.Settings.B", "engine/backend/local.bm25",
		// Fusion.
		"engine.Settings.Fusion", "engine/rank.Fusion", "engine.DefaultFusion", "engine/rank.Fuse",
		// Query analysis and options.
		"engine/analyze.Terms", "engine/analyze.TermsIn", "engine/analyze.DetectQuery", "engine.QueryOptions",
		// Result shaping.
		"engine/rank.Page.Walk", "engine/rank.Result", "engine.QueryResult",
	},
	Reports: []string{"engine.RefreshResult"},
	QueryRoots: []string{
		"engine.(*Engine).QueryAt", "engine.(*Engine).Search", "engine.(*Engine).QuerySettings", "engine.AnswerKey",
		"engine.(*Service).Query",
		"cmd/autorag.runQuery",
		// The backends' readers, called through the seam's interfaces
		// (engine/backend: Storage.Open, State.Query, Lists).
		"engine/backend/local.Storage.Open", "engine/backend/local.(*State).Query",
		"engine/backend/local.(*lists).Lexical", "engine/backend/local.(*lists).LexicalDeeper", "engine/backend/local.(*lists).Dense",
		"engine/backend/local.(*lists).Vectors", "engine/backend/local.(*lists).Materialize",
		"engine/backend/weaviate.(*weaviateStorage).Open", "engine/backend/weaviate.(*weaviateState).Query",
		"engine/backend/weaviate.(*weaviateLists).Lexical", "engine/backend/weaviate.(*weaviateLists).Dense",
		"engine/backend/weaviate.(*weaviateLists).Vectors", "engine/backend/weaviate.(*weaviateLists).Materialize",
		// Called through interfaces: the analyzer (bleve), the embedders.
		"engine/analyze.(*analyzer).Analyze", "engine/embed/static.(*Embedder).Embed", "engine/embed/openai.(*Embedder).Embed",
		"engine/embed/static.(*Embedder).Coverage", // embed.Coverer, the hybrid floor
	},
}
