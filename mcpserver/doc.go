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
// answers are structured content (and the same JSON as text, for clients
// that read only text). Failures are tool errors (isError, with the error
// code first in the text) rather than protocol errors, so the model sees
// them; a busy refresh is a normal result with outcome "busy".
package mcpserver
