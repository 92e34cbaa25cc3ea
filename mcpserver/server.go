package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/internal/plural"
)

// Options configure a server.
type Options struct {
	Version string       // the server's version, as initialize reports it
	Log     *slog.Logger // with a logger, every tool call is logged as one line (tool, ms, error code)
	// TextCopy sends every answer's JSON as text content too, to every
	// client. Without it only clients of a protocol version before
	// structured content (2025-06-18) get it; the others get the search
	// answer's citations as text (see searchText).
	TextCopy bool
}

// New returns an MCP server offering ws's operations as tools.
func New(ws *agentapi.Workspace, o Options) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "autorag", Version: o.Version}, &mcp.ServerOptions{
		Instructions: instructions(ws),
	})
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}
	addTool(s, o, &mcp.Tool{Name: "search", Title: "Search files", Description: searchDoc, Annotations: readOnly},
		func(ctx context.Context, a searchArgs) (*agentapi.SearchAnswer, error) {
			r := a.WorkspaceSearch
			r.Snippets = !a.FullText
			return ws.Search(ctx, r)
		}, searchText)
	addTool(s, o, &mcp.Tool{
		Name: "refresh", Title: "Re-index files", Description: refreshDoc,
		Annotations:  &mcp.ToolAnnotations{IdempotentHint: true, DestructiveHint: new(false)},
		OutputSchema: okOutcomeSchema[agentapi.RefreshAnswer](),
	}, ws.Refresh, nil)
	addTool(s, o, &mcp.Tool{Name: "status", Title: "Index status", Description: statusDoc, Annotations: readOnly,
		OutputSchema: okOutcomeSchema[agentapi.StatusAnswer]()}, ws.Status, statusText)
	addTool(s, o, &mcp.Tool{Name: "read", Title: "Read file lines", Description: readDoc, Annotations: readOnly}, ws.Read, nil)
	return s
}

// searchArgs are the search tool's arguments: a workspace search, whose
// passages are snippets unless full_text.
type searchArgs struct {
	agentapi.WorkspaceSearch
	FullText bool `json:"full_text,omitempty" jsonschema:"return each passage whole (default: its best-matching lines, at most about 480 characters, trimmed: true and shown_lines saying which; call read for more, or give max_tokens to fit whole passages into a budget)"`
}

// searchText is the search answer as text for clients that read
// structured content: one line per result with its citation, not the
// passages again.
func searchText(a *agentapi.SearchAnswer) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d results for %q (passages in the structured content):", len(a.Results), a.Query)
	if a.RerankError != "" {
		fmt.Fprintf(&b, "\n(not reranked, fused order kept: %s)", a.RerankError)
	}
	multi := len(a.Roots) > 1
	for i, h := range a.Results {
		fmt.Fprintf(&b, "\n[%d] %s", i+1, agentapi.Citation(h, multi))
		if h.Section != "" {
			b.WriteString(" — " + h.Section)
		}
	}
	return b.String()
}

// statusText is the status answer as text for clients that read
// structured content: a line per root, not the JSON again.
func statusText(a *agentapi.StatusAnswer) string {
	var b strings.Builder
	b.WriteString("index status (details in the structured content):")
	for _, r := range a.Roots {
		fmt.Fprintf(&b, "\n%s: ", r.Root)
		switch {
		case r.Error != nil:
			fmt.Fprintf(&b, "%s: %s", r.Error.Code, r.Error.Message)
		case !r.Indexed:
			b.WriteString("no index yet (call refresh)")
		default:
			fmt.Fprintf(&b, "generation %s, %s, %s", r.Generation, plural.Count(r.Files, "file"), plural.Count(r.Chunks, "chunk"))
			if r.Changed != nil && *r.Changed {
				b.WriteString("; files changed since (call refresh)")
			}
		}
	}
	return b.String()
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
	"Passages are snippets unless full_text: one run of lines around their best-matching ones, at most about 480 characters (trimmed: true, " +
	"shown_lines; a line cut inside ends in …); read returns any lines in full. " +
	"With max_tokens (instead of snippets), the best results come first, whole when they fit, else cut to one run of lines around their best-matching ones " +
	"(trimmed: true, shown_lines); tokens is the estimate used. stale: true means files changed since the index was built: call refresh " +
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
