package mcpserver

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/envelope"
)

// New returns an MCP server offering api's operations as tools. With a
// logger, every tool call is logged as one line (tool, ms, error code).
func New(api *agentapi.API, version string, log *slog.Logger) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "autorag", Version: version}, &mcp.ServerOptions{
		Instructions: "autorag searches the files under " + api.Root() + " (BM25 and vectors fused). " +
			"Call search first; read opens the lines around a result; refresh re-indexes after edits " +
			"(search answers say stale: true when the sources changed since the index was built).",
	})
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}
	addTool(s, log, &mcp.Tool{
		Name: "search",
		Description: "Search the indexed files: the best passages for a query, one per file by default, " +
			"with path, line range, section and scores (the results of `autorag query --json`). " +
			"stale is true when files changed since the index was built (call refresh).",
		Annotations: readOnly,
	}, api.Search)
	addTool(s, log, &mcp.Tool{
		Name: "refresh",
		Description: "Bring the index up to date with the files (incremental; nothing is rebuilt when nothing changed). " +
			"outcome is unchanged, updated, rebuilt, or busy when another process is refreshing (try again later).",
		Annotations:  &mcp.ToolAnnotations{IdempotentHint: true},
		OutputSchema: refreshSchema(),
	}, api.Refresh)
	addTool(s, log, &mcp.Tool{
		Name:        "status",
		Description: "The committed index (fingerprint, generation, counts, settings), the last refresh, the lock holder and whether the sources changed since.",
		Annotations: readOnly,
	}, func(ctx context.Context, _ struct{}) (*envelope.Status, error) { return api.Status(ctx) })
	addTool(s, log, &mcp.Tool{
		Name: "read",
		Description: "Read lines of an indexed file, e.g. around a search result (line numbers as in results). " +
			"Only files the index would read: inside the root, not ignored, not binary.",
		Annotations: readOnly,
	}, api.Read)
	return s
}

// refreshSchema is the schema inferred from envelope.Refresh with only ok
// and outcome required: a busy refresh has none of the counts.
func refreshSchema() *jsonschema.Schema {
	s := schemaFor[envelope.Refresh]()
	s.Required = []string{"ok", "outcome"}
	return s
}

// HTTPHandler serves s over streamable HTTP (the MCP transport for HTTP):
// one endpoint, sessions kept by the SDK.
func HTTPHandler(s *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
}
