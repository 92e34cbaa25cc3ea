// Package openai embeds text through any OpenAI-compatible embeddings API
// (POST {base}/embeddings) using github.com/sashabaranov/go-openai.
//
// # Configuration
//
// ConfigFromEnv reads:
//
//	OPENAI_BASE_URL                  default https://api.openai.com/v1 (a trailing slash is fine)
//	OPENAI_API_KEY                   sent as "Authorization: Bearer ..."; may be empty for local servers
//	OPENAI_EMBEDDING_MODEL           default text-embedding-3-small
//	OPENAI_EMBEDDING_DIMENSIONS      vector size; required unless the model is a known OpenAI model
//	OPENAI_EMBEDDING_BATCH_SIZE      inputs per request, default 64
//	OPENAI_EMBEDDING_CONCURRENCY     requests in flight, default 4
//	OPENAI_EMBEDDING_TIMEOUT         per request, a Go duration ("90s") or seconds ("90"); default 60s
//
// The embedder's identity (provider "openai", model, dimensions) goes into
// the index fingerprint, so it must be known before the first request: for
// text-embedding-3-small (1536), text-embedding-3-large (3072) and
// text-embedding-ada-002 (1536) the native size is built in; any other model
// needs OPENAI_EMBEDDING_DIMENSIONS. The "dimensions" request field is sent
// only to the text-embedding-3 family, and only when OPENAI_EMBEDDING_DIMENSIONS
// asks for a size other than the native one (shortened vectors), because
// other servers either ignore the field or reject it (vLLM refuses it for
// models without Matryoshka support). For every other model the setting is
// the size the server is expected to return, and a reply of any other size
// is an error.
//
// # Local servers
//
// Ollama (ollama pull nomic-embed-text):
//
//	OPENAI_BASE_URL=http://localhost:11434/v1
//	OPENAI_EMBEDDING_MODEL=nomic-embed-text
//	OPENAI_EMBEDDING_DIMENSIONS=768
//
// vLLM (vllm serve BAAI/bge-base-en-v1.5 --task embed; newer releases use --runner pooling):
//
//	OPENAI_BASE_URL=http://localhost:8000/v1
//	OPENAI_EMBEDDING_MODEL=BAAI/bge-base-en-v1.5
//	OPENAI_EMBEDDING_DIMENSIONS=768
//
// llama.cpp (llama-server -m nomic-embed-text-v1.5.Q8_0.gguf --embedding --port 8080):
//
//	OPENAI_BASE_URL=http://localhost:8080/v1
//	OPENAI_EMBEDDING_MODEL=nomic-embed-text-v1.5
//	OPENAI_EMBEDDING_DIMENSIONS=768
//
// LM Studio (load an embedding model, start the local server):
//
//	OPENAI_BASE_URL=http://localhost:1234/v1
//	OPENAI_EMBEDDING_MODEL=text-embedding-nomic-embed-text-v1.5
//	OPENAI_EMBEDDING_DIMENSIONS=768
//
// OPENAI_API_KEY may stay empty for all four (vLLM started with --api-key
// needs it). Local servers embed on the machine's own CPU or GPU: lower
// OPENAI_EMBEDDING_CONCURRENCY (1 or 2) if requests start timing out, or
// raise OPENAI_EMBEDDING_TIMEOUT.
//
// # Batching
//
// Embed splits its texts into requests of at most BatchSize inputs whose
// estimated token count (ceil(bytes/4), a deliberately cheap estimate with
// no tokenizer) stays within MaxBatchTokens. A text estimated above 8191
// tokens (about 32 KiB; the limit of OpenAI's embedding models) is not an
// error: it is truncated, at a UTF-8 boundary, to that size before sending,
// so its vector represents only its beginning. The estimate is a heuristic:
// text that tokenizes unusually densely can still exceed a server's real
// limit, which the server then reports as an error.
//
// # Failures
//
// Requests that fail with HTTP 429 are retried after the server's
// Retry-After (delta-seconds or HTTP-date, capped at MaxBackoff); 408, 5xx,
// per-request timeouts and connection errors are retried with exponential
// backoff and full jitter (base 500ms, doubling, capped at MaxBackoff), up
// to MaxAttempts attempts per request. Other 4xx replies fail at once with
// the server's message. Every reply is checked (one embedding per input,
// distinct indexes, the expected size, finite values, non-zero norm) and
// every vector is normalized to unit length. Embed fails as a whole: on any
// error it returns no vectors. The API key never appears in an error.
//
// The request itself goes through go-openai's CreateEmbeddings. go-openai's
// errors carry a status code but no response headers, so the HTTP
// client handed to it is a small wrapper that records each response's
// status and Retry-After in a holder carried by the request's context, and
// reads the body fully so that a connection broken mid-reply is told apart
// from a malformed reply.
package openai
