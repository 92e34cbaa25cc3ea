// Drives `autorag mcp` over stdio with the TypeScript MCP SDK's client:
// lists the tools, searches (snippets, then full_text), refreshes, reads, and prints what it saw as
// one JSON object for cmd/autorag's TestMCPWithTypeScriptClient to check.
//
// usage: node client.mjs QUERY COMMAND [ARGS...]   (environment inherited)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [query, command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
const client = new Client({ name: "autorag-e2e", version: "1.0.0" });
await client.connect(transport);

const structured = (r) => {
  if (r.isError) throw new Error("tool error: " + JSON.stringify(r.content));
  return r.structuredContent;
};
const out = {};
const tools = await client.listTools();
out.tools = tools.tools.map((t) => ({ name: t.name, input: Object.keys(t.inputSchema.properties ?? {}).sort(), output: !!t.outputSchema })).sort((a, b) => a.name.localeCompare(b.name));
const snippets = await client.callTool({ name: "search", arguments: { query, k: 3 } });
out.snippets = structured(snippets);
out.snippetsText = snippets.content.map((c) => c.text);
out.search = structured(await client.callTool({ name: "search", arguments: { query, k: 3, full_text: true } }));
out.refresh = structured(await client.callTool({ name: "refresh", arguments: {} }));
const top = out.search.results[0];
out.read = structured(await client.callTool({ name: "read", arguments: { path: top.path, start: top.lines[0], end: top.lines[1] } }));
const refused = await client.callTool({ name: "read", arguments: { path: "../outside.md" } });
out.refused = { isError: !!refused.isError, text: refused.content[0].text };
out.status = structured(await client.callTool({ name: "status", arguments: {} }));
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
