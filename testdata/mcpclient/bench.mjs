// Times the search tool through the TypeScript MCP SDK's client over
// stdio (docs/BENCHMARKS.md): N searches of the given queries in turn,
// after one warm-up pass; prints p50/p99 in microseconds as JSON. With
// BENCH_FRESH=1 the warm-up takes the first 32 queries and every timed
// search sends a query not sent before (the file needs N+32 of them), so
// no answer comes from the server's caches.
//
// usage: node bench.mjs N QUERIES_FILE COMMAND [ARGS...]
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [n, file, command, ...args] = process.argv.slice(2);
const queries = readFileSync(file, "utf8").split("\n").filter((q) => q !== "");
const client = new Client({ name: "autorag-bench", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" }));
const search = async (query) => {
  const r = await client.callTool({ name: "search", arguments: { query } });
  if (r.isError) throw new Error(JSON.stringify(r.content));
};
const fresh = process.env.BENCH_FRESH === "1";
const warm = fresh ? 32 : queries.length;
for (const q of queries.slice(0, warm)) await search(q);
const times = [];
for (let i = 0; i < Number(n); i++) {
  const t = process.hrtime.bigint();
  await search(fresh ? queries[warm + (i % (queries.length - warm))] : queries[i % queries.length]);
  times.push(Number(process.hrtime.bigint() - t) / 1000);
}
times.sort((a, b) => a - b);
await client.close();
process.stdout.write(JSON.stringify({ n: times.length, p50_us: times[times.length >> 1], p99_us: times[Math.floor(times.length * 0.99)] }) + "\n");
