// Drives a two-root `autorag mcp --root A --root B` over stdio with the
// TypeScript MCP SDK's client (which checks every structured answer
// against its tool's output schema): searches across both roots and per
// root, refreshes the first while searching the second, deletes the first
// root's directory under the server, and prints what it saw as one JSON
// object for cmd/autorag's TestMCPTwoRootsWithTypeScriptClient.
//
// usage: node workspace.mjs ROOT_A_NAME ROOT_A_DIR QUERY COMMAND [ARGS...]
import { rmSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [nameA, dirA, query, command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
const client = new Client({ name: "autorag-e2e-workspace", version: "1.0.0" });
await client.connect(transport);
await client.listTools(); // caches the output schemas callTool validates against

const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  return r.isError ? { isError: true, text: r.content[0].text } : r.structuredContent;
};
const roots = (a) => [...new Set(a.results.map((r) => r.root))].sort();
const out = {};
out.both = await call("search", { query });
out.bothRoots = roots(out.both);
const other = out.both.roots.map((r) => r.root).find((n) => n !== nameA);
out.one = await call("search", { query, root: other });
out.oneRoots = roots(out.one);
out.budget = await call("search", { query, max_tokens: 300 });

// Refresh A while B answers: count B's answers before the refresh returns.
let refreshed = null;
const pending = call("refresh", { root: nameA }).then((r) => (refreshed = r));
out.searchesDuringRefresh = 0;
while (refreshed === null) {
  const r = await call("search", { query, root: other });
  if (r.isError || r.results.length === 0) throw new Error("the other root stopped answering: " + JSON.stringify(r));
  out.searchesDuringRefresh++;
}
await pending;
out.refresh = refreshed;

rmSync(dirA, { recursive: true, force: true });
out.afterDelete = await call("search", { query });
out.afterDeleteRoots = roots(out.afterDelete);
out.status = await call("status", {});
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
