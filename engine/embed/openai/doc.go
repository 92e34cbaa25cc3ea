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
//	OPENAI_EMBEDDING_DIMENSIONS      vector size; default: the known size of OpenAI's models, else learned
//	OPENAI_EMBEDDING_MAX_TOKENS      per-input budget in estimated tokens; default 8191 for OpenAI's models, else 512
//	OPENAI_EMBEDDING_BATCH_SIZE      inputs per request, default 64
//	OPENAI_EMBEDDING_CONCURRENCY     requests in flight, default 4
//	OPENAI_EMBEDDING_TIMEOUT         per request, a Go duration ("90s") or seconds ("90"); default 60s
//
// # Vector size
//
// The embedder's identity (provider "openai", model, dimensions) goes into
// the index fingerprint. For text-embedding-3-small (1536),
// text-embedding-3-large (3072) and text-embedding-ada-002 (1536) the native
// size is built in. For any other model the size is learned: the first
// reply sets it (ProbeDims makes that reply happen with one request), or
// AssumeDims takes the size an index recorded for the same model, with no
// request. Once known, a reply of another size fails with a message saying
// the model behind the name changed (dimsChangedError), so vectors of two
// sizes never meet in one index. OPENAI_EMBEDDING_DIMENSIONS, when set, is
// the size the server must return. The "dimensions" request field is sent
// only to the text-embedding-3 family, and only when
// OPENAI_EMBEDDING_DIMENSIONS asks for a size other than the native one
// (shortened vectors), because other servers either ignore the field or
// reject it (vLLM refuses it for models without Matryoshka support).
//
// # Local servers
//
// None needs OPENAI_EMBEDDING_DIMENSIONS or OPENAI_API_KEY (vLLM started with
// --api-key needs the key); each speaks the same /v1/embeddings route:
//
//	Ollama:    OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_EMBEDDING_MODEL=nomic-embed-text
//	vLLM:      OPENAI_BASE_URL=http://localhost:8000/v1  OPENAI_EMBEDDING_MODEL=BAAI/bge-base-en-v1.5
//	llama.cpp: OPENAI_BASE_URL=http://localhost:8080/v1  OPENAI_EMBEDDING_MODEL=nomic-embed-text-v1.5 (llama-server --embedding)
//	LM Studio: OPENAI_BASE_URL=http://localhost:1234/v1  OPENAI_EMBEDDING_MODEL=text-embedding-nomic-embed-text-v1.5
//
// The tests run each variant of the wire format against a loopback fake:
// Ollama's base64 vectors whatever was asked and no "usage" field, vLLM's
// refusal of "dimensions" and of inputs over the model's context, llama.cpp's
// base64 when asked. Local servers embed on the machine's own CPU or GPU:
// lower OPENAI_EMBEDDING_CONCURRENCY (1 or 2) if requests start timing out,
// or raise OPENAI_EMBEDDING_TIMEOUT.
//
// # Batching and the per-input budget
//
// Embed splits its inputs into requests of at most BatchSize inputs whose
// estimated token count (ceil(bytes/4), a deliberately cheap estimate with
// no tokenizer) stays within MaxBatchTokens. A text estimated above
// MaxInputTokens is not an error and is not truncated: it is cut into
// pieces within the budget (at a space or newline where possible, always at
// a UTF-8 boundary), every piece is embedded, and the text's vector is the
// mean of its pieces' vectors weighted by their length, normalized again.
// Observers hear how many texts were split (embed.Observer.Split; a refresh
// reports it as embed_inputs_split). Since the budget decides how a long
// text's vector is made, a budget other than 8191 (the cap of every input
// before budgets existed) is part of the identity's model name, e.g.
// "nomic-embed-text@max-tokens=512": changing it re-embeds. The default budget for models other
// than OpenAI's is 512 because local models often have a 512-token context
// (bge, MiniLM, e5) and servers such as vLLM reject longer inputs; the
// estimate can undercount text that tokenizes densely, so a server may
// still refuse an input, and its error then names OPENAI_EMBEDDING_MAX_TOKENS.
//
// # Wire formats
//
// Vectors arrive as JSON float arrays or as base64 of little-endian float32
// (OpenAI's "base64" encoding, which some servers send whatever was asked);
// the HTTP layer turns base64 vectors into float arrays before go-openai,
// which decodes only the form it asked for, sees the reply. A missing
// "usage" field is fine.
//
// # Failures
//
// Requests that fail with HTTP 429 are retried after the server's
// Retry-After (delta-seconds or HTTP-date, capped at MaxBackoff); 408, 5xx,
// per-request timeouts and connection errors are retried with exponential
// backoff and full jitter (base 500ms, doubling, capped at MaxBackoff), up
// to MaxAttempts attempts per request. Other 4xx replies fail at once with
// the server's message and the setting to check (401/403: the key; 404: the
// URL and model; a context-length refusal: OPENAI_EMBEDDING_MAX_TOKENS). An
// embed.Observer in Embed's context hears every request start and end
// (requests in flight, done, total) and every wait before a retry, which a
// progress line shows so that a 429's wait does not look like a hang. Every reply is checked (one embedding per input,
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
