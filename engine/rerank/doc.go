// Package rerank re-scores a query's candidate passages with a rerank
// service: any endpoint speaking the Cohere/Jina /rerank wire format or
// that of Hugging Face's text-embeddings-inference (TEI).
//
// # Wire formats
//
// Cohere (https://api.cohere.com/v2/rerank) and Jina
// (https://api.jina.ai/v1/rerank) take
//
//	{"model": M, "query": Q, "documents": [D...], "top_n": N}
//
// and answer {"results": [{"index": i, "relevance_score": s}, ...]}, best
// first. TEI (POST {server}/rerank) takes {"query": Q, "texts": [D...],
// "truncate": true} and answers [{"index": i, "score": s}, ...]. Either
// answer is read whatever was sent; which request to send comes from
// Config.Format, by default from the URL: a path of exactly "/rerank" is
// TEI's, anything else (/v1/rerank, /v2/rerank) Cohere's.
//
// # Configuration
//
// ConfigFromEnv reads AUTORAG_RERANK_URL (the endpoint), AUTORAG_RERANK_MODEL
// (sent as "model"; TEI serves one model and ignores it),
// AUTORAG_RERANK_API_KEY (sent as "Authorization: Bearer …"; from the
// environment only, never in output or errors), AUTORAG_RERANK_FORMAT
// (cohere or tei) and AUTORAG_RERANK_TIMEOUT (how long one request may
// take, answer included; default 30s).
//
// # Failures
//
// Rerank fails as a whole: an error status, a timeout, or an answer that
// does not give exactly one score to each text. Its errors name the
// endpoint but do not say "rerank" (the caller does); the engine then
// keeps the fused order and marks the answer not reranked, unless the
// reranker is required.
//
// Reorder sorts a query's best results (engine/rank's Result) by a
// scorer's scores; the engine calls it and decides what a failure means.
//
// It must never import the engine: it maps a query and texts to scores.
package rerank
