// Package mcpserver is the Model Context Protocol transport of package
// agentapi: `autorag mcp` serves its tools over stdio (newline-delimited
// JSON-RPC) or streamable HTTP, with the official Go SDK
// (github.com/modelcontextprotocol/go-sdk).
//
// Tools: search, refresh, status and read over an agentapi.Workspace (one
// root or several; each tool takes an optional root), each with a
// description saying when to use it and what its answer means, an input
// schema and an output schema inferred from the agentapi request and
// answer types (objects, as the specification requires of output schemas);
// answers are structured content, sent once: the text content is the
// search answer's citations (the same JSON for the other tools, and for
// every answer to a client of a protocol version before structured content
// or with Options.TextCopy). Search passages are snippets (agentapi's
// WorkspaceSearch.Snippets) unless the call asks for full_text or gives
// max_tokens. Failures are tool errors (isError, with the error
// code first in the text) rather than protocol errors, so the model sees
// them; a busy refresh is a normal result with outcome "busy".
package mcpserver
