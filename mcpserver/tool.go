package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/envelope"
)

// addTool registers f as the tool t. Its input schema is inferred from In
// (unless t has one) and enforced before f runs; its output schema is
// inferred from Out (unless t has one) and advertised. Unlike the SDK's
// typed AddTool, the answer is marshalled once and not validated again
// against its own schema: on a search answer of ten 2,000-character
// passages that check (decode to a map, validate, re-encode) took about a
// quarter of the server's time per call (see docs/BENCHMARKS.md). The
// types are fixed and the schemas are inferred from them, which
// TestToolsAnswerTheirSchemas checks.
//
// The answer goes out as structured content, and as text: its JSON for a
// client that may not read structured content (o.TextCopy, or a protocol
// version before it), else summary's text when summary is given.
func addTool[In, Out any](s *mcp.Server, o Options, t *mcp.Tool, f func(context.Context, In) (Out, error), summary func(Out) string) {
	in := schemaFor[In]()
	if t.InputSchema == nil {
		t.InputSchema = in
	}
	if t.OutputSchema == nil {
		t.OutputSchema = schemaFor[Out]()
	}
	resolved, err := in.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", t.Name, err))
	}
	s.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		start := time.Now()
		res, code, err := runTool(ctx, req, resolved, f, textOf(o, req, summary))
		if log := o.Log; log != nil {
			attrs := []any{"tool", t.Name, "ms", float64(time.Since(start).Microseconds()) / 1000}
			if code != "" {
				attrs = append(attrs, "code", code)
			}
			log.Info("tool call", attrs...)
		}
		return res, err
	})
}

// runTool runs one tool call: arguments checked against the input schema and
// decoded, f, its answer encoded once. A failure is a tool error whose
// text starts with its code, which runTool also returns.
func runTool[In, Out any](ctx context.Context, req *mcp.CallToolRequest, resolved *jsonschema.Resolved,
	f func(context.Context, In) (Out, error), summary func(Out) string) (*mcp.CallToolResult, string, error) {
	var args In
	if err := decodeArgs(req.Params.Arguments, resolved, &args); err != nil {
		return toolError(envelope.CodeUsage, fmt.Errorf("invalid arguments: %w", err)), envelope.CodeUsage, nil
	}
	out, err := f(ctx, args)
	if err != nil {
		code := agentapi.Code(err)
		return toolError(code, err), code, nil
	}
	var buf bytes.Buffer
	if err := envelope.Write(&buf, out); err != nil {
		return nil, "", fmt.Errorf("encode %s answer: %w", req.Params.Name, err)
	}
	raw := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	text := string(raw) // the same JSON, as the specification recommends for clients that read only text
	if summary != nil {
		text = summary(out)
	}
	return &mcp.CallToolResult{StructuredContent: json.RawMessage(raw), Content: []mcp.Content{&mcp.TextContent{Text: text}}}, "", nil
}

// structuredSince is the protocol version that brought structured content:
// a client of an older one reads text only.
const structuredSince = "2025-06-18"

// textOf is the summary to send as text for req, or nil for the JSON copy:
// the JSON goes to every client with o.TextCopy and to clients whose
// protocol version predates structured content.
func textOf[Out any](o Options, req *mcp.CallToolRequest, summary func(Out) string) func(Out) string {
	if summary == nil || o.TextCopy {
		return nil
	}
	if req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ProtocolVersion != "" && p.ProtocolVersion < structuredSince {
			return nil
		}
	}
	return summary
}

// decodeArgs validates the arguments against the input schema and decodes
// them into v; no arguments are an empty object.
func decodeArgs(raw json.RawMessage, schema *jsonschema.Resolved, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return err
	}
	if err := schema.Validate(generic); err != nil {
		return err
	}
	return json.Unmarshal(raw, v)
}

func toolError(code string, err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: code + ": " + err.Error()}}}
}

// schemaFor infers the schema of T (of *T's element for a pointer).
func schemaFor[T any]() *jsonschema.Schema {
	rt := reflect.TypeFor[T]()
	if rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	s, err := jsonschema.ForType(rt, nil)
	if err != nil {
		panic(fmt.Sprintf("schema of %v: %v", rt, err))
	}
	return s
}
