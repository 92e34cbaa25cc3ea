package mcpserver

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/autorag/autorag/agentapi"
)

// New returns an MCP server offering ws's operations as tools. With a
// logger, every tool call is logged as one line (tool, ms, error code).
func New(ws *agentapi.Workspace, version string, log *slog.Logger) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "autorag", Version: version}, &mcp.ServerOptions{
		Instructions: instructions(ws),
	})
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}
	addTool(s, log, &mcp.Tool{Name: "search", Title: "Search files", Description: searchDoc, Annotations: readOnly}, ws.Search)
	addTool(s, log, &mcp.Tool{
		Name: "refresh", Title: "Re-index files", Description: refreshDoc,
		Annotations:  &mcp.ToolAnnotations{IdempotentHint: true, DestructiveHint: new(false)},
		OutputSchema: okOutcomeSchema[agentapi.RefreshAnswer](),
	}, ws.Refresh)
	addTool(s, log, &mcp.Tool{Name: "status", Title: "Index status", Description: statusDoc, Annotations: readOnly,
		OutputSchema: okOutcomeSchema[agentapi.StatusAnswer]()}, ws.Status)
	addTool(s, log, &mcp.Tool{Name: "read", Title: "Read file lines", Description: readDoc, Annotations: readOnly}, ws.Read)
	return s
}

func instructions(ws *agentapi.Workspace) string {
	var roots []string
	for i, e := range ws.Engines() {
		roots = append(roots, ws.Names()[i]+" ("+e.Layout.Root+")")
	}
	return "autorag searches local files (BM25 and vectors fused) under these roots: " + strings.Join(roots, ", ") + ". " +
		"Call search first with the words you are looking for; read opens more lines around a result; " +
		"refresh re-indexes after you edit files (a search answer says stale: true when files changed since the index was built). " +
		"Pass max_tokens to search to keep the answer within your context budget."
}

const searchDoc = "Find the passages of the indexed files that best answer a query (keyword and semantic search fused), " +
	"best first, one per file unless per_file says more. Use it before reading files to know where to look, " +
	"and to find code, docs or notes by what they say rather than by name. " +
	"Each result has root (which indexed folder), path (relative to that root, / separated), lines [first,last] (1-based, inclusive), " +
	"section, text, and score: higher is better, comparable within one answer only (across roots each root's scores are " +
	"rescaled by its best raw match; root_score is the root's own). also_in lists other files holding the same passage. " +
	"With max_tokens, long passages are trimmed to their best-matching lines (trimmed: true, shown_lines, a [… omitted …] marker) " +
	"so more results fit; tokens is the estimate used. stale: true means files changed since the index was built: call refresh " +
	"if the answer looks out of date. roots says what each root answered (a root that failed is listed with its error; the others still answer)."

const refreshDoc = "Bring the index up to date with the files after they were edited, added or deleted (incremental; " +
	"nothing is rebuilt when nothing changed). Give root to refresh one folder (default: every root) and paths to refresh only " +
	"those files or directories without walking the tree (fast, after you edited known files). " +
	"outcome is unchanged, updated, rebuilt, busy (another process is refreshing: try again in a few seconds; nothing changed), " +
	"or mixed when several roots differ (see roots)."

const statusDoc = "Report each indexed root: whether it is indexed, its generation, file and chunk counts, whether its files " +
	"changed since (sources_changed), and whether this server holds it open. With root (or one root only), also the full " +
	"status of that root: fingerprint, settings, last refresh, lock holder. Use it to check that a folder is indexed before searching it."

const readDoc = "Read lines of an indexed file, e.g. to see more around a search result: give root and path as the result " +
	"names them and the lines to read (start, end; at most 2,000 lines per call). Line numbers are those of search results. " +
	"Only files the index would read: inside the root, not ignored, not binary."

// okOutcomeSchema is the schema inferred from T with only ok and outcome
// required: a busy refresh, or a status of several roots, has none of the
// other fields.
func okOutcomeSchema[T any]() *jsonschema.Schema {
	s := schemaFor[T]()
	s.Required = []string{"ok", "outcome"}
	return s
}

// HTTPHandler serves s over streamable HTTP (the MCP transport for HTTP):
// one endpoint, sessions kept by the SDK.
func HTTPHandler(s *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
}
