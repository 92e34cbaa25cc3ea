package agentconf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	toml2 "github.com/pelletier/go-toml/v2"
)

// Entry is the server an agent starts: a name and a command line.
type Entry struct {
	Name    string
	Command string
	Args    []string
}

// Client is one agent's configuration format.
type Client struct {
	Name  string // as --install takes it
	Title string // the product
	// File is where its configuration lives, for a project in dir.
	File func(dir string) (string, error)
	// Add puts e into the file's content (nil: a new file); it returns the
	// new content, or unchanged when an identical entry is there, or an
	// error when a different one is.
	Add func(content []byte, e Entry) (out []byte, unchanged bool, err error)
}

// Clients are the supported agents, by name.
var Clients = []Client{
	{"claude", "Claude Code", inDir(".mcp.json"), jsonAdder("mcpServers", stdioTyped)},
	{"codex", "Codex CLI", codexFile, addCodex},
	{"cursor", "Cursor", inDir(".cursor", "mcp.json"), jsonAdder("mcpServers", stdio)},
	{"vscode", "VS Code", inDir(".vscode", "mcp.json"), jsonAdder("servers", stdioTyped)},
	{"gemini", "Gemini CLI", inDir(".gemini", "settings.json"), jsonAdder("mcpServers", stdio)},
	{"opencode", "opencode", inDir("opencode.json"), jsonAdder("mcp", opencodeLocal)},
}

// Lookup returns the client of that name.
func Lookup(name string) (Client, error) {
	for _, c := range Clients {
		if c.Name == name {
			return c, nil
		}
	}
	names := make([]string, len(Clients))
	for i, c := range Clients {
		names[i] = c.Name
	}
	return Client{}, fmt.Errorf("unknown client %q: use one of %s", name, strings.Join(names, ", "))
}

func inDir(parts ...string) func(string) (string, error) {
	return func(dir string) (string, error) { return filepath.Join(append([]string{dir}, parts...)...), nil }
}

func codexFile(string) (string, error) {
	if h := os.Getenv("CODEX_HOME"); h != "" {
		return filepath.Join(h, "config.toml"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("codex config: %w (set CODEX_HOME)", err)
	}
	return filepath.Join(home, ".codex", "config.toml"), nil
}

// The JSON shapes of one server entry.
func stdio(e Entry) map[string]any { return map[string]any{"command": e.Command, "args": e.Args} }

func stdioTyped(e Entry) map[string]any {
	m := stdio(e)
	m["type"] = "stdio"
	return m
}

func opencodeLocal(e Entry) map[string]any {
	return map[string]any{"type": "local", "command": append([]string{e.Command}, e.Args...), "enabled": true}
}

// Snippet is the entry as the client's file holds it, for printing.
func (c Client) Snippet(e Entry) string {
	out, _, err := c.Add(nil, e)
	if err != nil {
		return err.Error()
	}
	return string(out)
}

// jsonAdder adds the entry under key (an object of servers by name).
// Numbers are kept as written (json.Number), and a file holding null is an
// empty configuration.
func jsonAdder(key string, shape func(Entry) map[string]any) func([]byte, Entry) ([]byte, bool, error) {
	return func(content []byte, e Entry) ([]byte, bool, error) {
		doc, err := decodeObject(content)
		if err != nil {
			return nil, false, err
		}
		servers, ok := doc[key].(map[string]any)
		if doc[key] != nil && !ok {
			return nil, false, fmt.Errorf("%q is not an object", key)
		}
		if servers == nil {
			servers = map[string]any{}
		}
		want := roundTrip(shape(e))
		if old, ok := servers[e.Name]; ok {
			if same(old, want) {
				return content, true, nil
			}
			return nil, false, fmt.Errorf("a different %q entry is already there (%s): remove it first", e.Name, compact(old))
		}
		servers[e.Name] = want
		doc[key] = servers
		if key == "mcp" && doc["$schema"] == nil {
			doc["$schema"] = "https://opencode.ai/config.json"
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			return nil, false, err
		}
		return buf.Bytes(), false, nil
	}
}

// decodeObject decodes a JSON configuration: one object (null or nothing:
// an empty one), numbers as json.Number so that they are written back
// digit for digit.
func decodeObject(content []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(content)) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(content))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not plain JSON (comments or a syntax error?): %w; add the entry by hand", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("not one JSON value (more follows the first); add the entry by hand")
	}
	switch doc := v.(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		return doc, nil
	case []any:
		return nil, fmt.Errorf("the file holds a JSON array, not an object; add the entry by hand")
	default:
		return nil, fmt.Errorf("the file holds a single JSON value (%.80s), not an object; add the entry by hand", compact(v))
	}
}

// roundTrip turns v into what json.Unmarshal would give ([]any, not
// []string), so that it compares with a decoded entry.
func roundTrip(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func same(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func compact(v any) string { b, _ := json.Marshal(v); return string(b) }

// addCodex appends a [mcp_servers.NAME] table as text, so the comments
// and order of the user's file survive, then checks the result parses
// with a strict parser.
func addCodex(content []byte, e Entry) ([]byte, bool, error) {
	var doc struct {
		Servers map[string]map[string]any `toml:"mcp_servers"`
	}
	if err := toml2.Unmarshal(content, &doc); err != nil {
		return nil, false, fmt.Errorf("not valid TOML: %w; add the entry by hand", err)
	}
	want := map[string]any{"command": e.Command, "args": e.Args}
	if old, ok := doc.Servers[e.Name]; ok {
		if old["command"] == e.Command && same(old["args"], roundTrip(e.Args)) && len(old) == 2 {
			return content, true, nil
		}
		return nil, false, fmt.Errorf("a different [mcp_servers.%s] is already there (%s): remove it first", e.Name, compact(old))
	}
	var table bytes.Buffer
	enc := toml.NewEncoder(&table)
	enc.Indent = ""
	if err := enc.Encode(map[string]any{"mcp_servers": map[string]any{e.Name: want}}); err != nil {
		return nil, false, err
	}
	out := slices.Clone(content)
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	if len(out) > 0 {
		out = append(out, '\n')
	}
	out = append(out, codexTable(table.String(), e.Name)...)
	// A strict parser, as Codex's is: BurntSushi/toml accepts a table
	// header that extends an inline table (mcp_servers = {...}), which
	// the TOML spec, Codex and Python's tomllib reject.
	var check map[string]any
	if err := toml2.Unmarshal(out, &check); err != nil {
		return nil, false, fmt.Errorf("the file would not parse with the entry appended (%w); add it by hand", err)
	}
	return out, false, nil
}

// codexTable keeps only the [mcp_servers.NAME] table of the encoder's
// output (it also writes an empty [mcp_servers] header).
func codexTable(encoded, name string) string {
	i := strings.Index(encoded, "[mcp_servers."+name+"]")
	if i < 0 {
		return encoded
	}
	return encoded[i:]
}
