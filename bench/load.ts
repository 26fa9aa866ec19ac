/**
 * `npm run bench:load`: the HTTP MCP server (the built CLI, its own process) under a bounded load
 * on 127.0.0.1. Opens many MCP sessions (each with a working-memory session), then for a fixed
 * duration a pool of concurrent workers mixes store, recall, working-memory and context calls
 * over those sessions. Reports throughput and p50/p95/p99 per tool, then stops the server and
 * checks every acknowledged store in the SQLite file: no errors and no lost writes.
 *
 *   npm run bench:load                                  # 2,000 sessions, 30 s, 32 in flight
 *   npm run bench:load -- --sessions 10000 --duration 60 --concurrency 64
 *
 * The load generator runs on the same cores as the server; on a 2-core box it takes roughly
 * half the CPU, so the figures are a floor for the server alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { RawMcpSession, type RawCallResult } from './rawMcpClient.ts';
import { latencySummary, ms } from './stats.ts';
import { SeededRandom, syntheticSentence } from './syntheticCorpus.ts';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '2000' },
    users: { type: 'string', default: '200' },
    duration: { type: 'string', default: '30' },
    concurrency: { type: 'string', default: '32' },
    'open-concurrency': { type: 'string', default: '16' },
  },
});
const SESSIONS = Number(values.sessions);
const USERS = Math.min(Number(values.users), SESSIONS);
const DURATION_S = Number(values.duration);
const CONCURRENCY = Number(values.concurrency);
const OPEN_CONCURRENCY = Number(values['open-concurrency']);
const TOKEN = `load-token-${Date.now()}-0123456789abcdef0123456789`;
const root = new URL('..', import.meta.url).pathname;

/** The operation mix: weights sum to 100. Stores are a third, as an agent stores about as often as it reads. */
const MIX: Array<[string, number]> = [
  ['store_memory', 30],
  ['recall_memories', 25],
  ['add_to_working_memory', 20],
  ['get_working_memory', 10],
  ['get_relevant_context', 15],
];

interface LoadSession {
  mcp: RawMcpSession;
  userId: string;
  workingSessionId: string;
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; mcpUrl: string }> {
  const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), 'serve', '--http', '--port', '0', '--data-dir', dataDir, '--rate-limit', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, FML_TOKEN: TOKEN, FML_EMBEDDING_PROVIDER: 'none' },
  });
  let out = '';
  const mcpUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server printed no endpoint in 20 s: ${out}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /endpoint:\s+(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  return { child, mcpUrl };
}

function rssMbOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Runs `work` over the items with at most `limit` in flight. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-load-'));
  const { child, mcpUrl } = await startServer(dataDir);
  const agent = new Agent({ keepAlive: true, maxSockets: Math.max(CONCURRENCY, OPEN_CONCURRENCY) });
  const random = new SeededRandom(7);
  console.log(`Firebolt Memory Layer load test — node ${process.version}, ${cpus().length} cores (shared by server and load generator), server pid ${child.pid}`);
  console.log(`${SESSIONS.toLocaleString('en')} MCP sessions over ${USERS} users, ${CONCURRENCY} requests in flight, ${DURATION_S} s, rate limit off, no embedding provider`);

  // Phase 1: open every session (MCP initialize + init_session), as clients connecting.
  const sessions: LoadSession[] = [];
  const openStarted = performance.now();
  const initSamples: number[] = [];
  await pool(Array.from({ length: SESSIONS }, (_, index) => index), OPEN_CONCURRENCY, async (index) => {
    const mcp = new RawMcpSession(mcpUrl, TOKEN, agent);
    await mcp.open();
    const userId = `load-user-${index % USERS}`;
    const started = performance.now();
    const init = await mcp.callTool('init_session', { user_id: userId, config: { max_tokens: 4000 } });
    initSamples.push(performance.now() - started);
    if (!init.ok) throw new Error(`init_session failed: ${JSON.stringify(init.error)}`);
    sessions.push({ mcp, userId, workingSessionId: String(init.output!.session_id) });
  });
  const openSeconds = (performance.now() - openStarted) / 1000;
  console.log(`opened ${sessions.length.toLocaleString('en')} sessions in ${openSeconds.toFixed(1)} s; server RSS ${rssMbOf(child.pid!).toFixed(0)} MB`);

  // Phase 2: the mixed load for a fixed duration.
  const samples: Record<string, number[]> = Object.fromEntries(MIX.map(([name]) => [name, []]));
  const errors: Array<{ tool: string; error: RawCallResult['error'] }> = [];
  const acknowledged: Array<{ userId: string; memoryId: string; content: string }> = [];
  let sequence = 0;
  const deadline = performance.now() + DURATION_S * 1000;
  const loadStarted = performance.now();
  const pick = (): string => {
    let roll = random.next() * 100;
    for (const [name, weight] of MIX) if ((roll -= weight) < 0) return name;
    return MIX[0][0];
  };
  const argsFor = (tool: string, session: LoadSession): Record<string, unknown> => {
    const query = syntheticSentence(random, 3 + Math.floor(random.next() * 4));
    switch (tool) {
      case 'store_memory':
        return { user_id: session.userId, content: `${syntheticSentence(random, 14)} [load write ${sequence++}]`, memory_category: 'episodic', memory_subtype: 'event' };
      case 'recall_memories':
        return { user_id: session.userId, query, limit: 10 };
      case 'add_to_working_memory':
        return { session_id: session.workingSessionId, content: syntheticSentence(random, 25), content_type: 'message' };
      case 'get_working_memory':
        return { session_id: session.workingSessionId, token_budget: 2000 };
      default:
        return { user_id: session.userId, session_id: session.workingSessionId, query, token_budget: 1500 };
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (performance.now() < deadline) {
      const session = sessions[Math.floor(random.next() * sessions.length)];
      const tool = pick();
      const args = argsFor(tool, session);
      const started = performance.now();
      const result = await session.mcp.callTool(tool, args);
      samples[tool].push(performance.now() - started);
      if (!result.ok) errors.push({ tool, error: result.error });
      else if (tool === 'store_memory') acknowledged.push({ userId: session.userId, memoryId: String(result.output!.memory_id), content: String(args.content) });
    }
  }));
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const rssAfter = rssMbOf(child.pid!);
  const total = Object.values(samples).reduce((sum, list) => sum + list.length, 0);

  console.log(`\n## ${total.toLocaleString('en')} operations in ${loadSeconds.toFixed(1)} s = ${Math.round(total / loadSeconds).toLocaleString('en')} memory operations/s (target 5,000/s); errors ${errors.length}; server RSS ${rssAfter.toFixed(0)} MB`);
  console.log('| tool | calls | p50 ms | p95 ms | p99 ms | max ms |');
  console.log('|---|---|---|---|---|---|');
  const init = latencySummary(initSamples);
  console.log(`| init_session (open phase) | ${init.n} | ${ms(init.p50)} | ${ms(init.p95)} | ${ms(init.p99)} | ${ms(init.max)} |`);
  for (const [name, list] of Object.entries(samples)) {
    const summary = latencySummary(list);
    console.log(`| ${name} | ${summary.n} | ${ms(summary.p50)} | ${ms(summary.p95)} | ${ms(summary.p99)} | ${ms(summary.max)} |`);
  }
  for (const failure of errors.slice(0, 5)) console.log(`error: ${failure.tool}: ${JSON.stringify(failure.error)}`);

  // Phase 3: close the sessions, stop the server, then check every acknowledged write on disk.
  await pool(sessions, OPEN_CONCURRENCY, (session) => session.mcp.close());
  agent.destroy();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  const store = new SqliteMemoryStore({ dataDir });
  await store.open();
  let lost = 0;
  let mismatched = 0;
  const byUser = new Map<string, Array<{ memoryId: string; content: string }>>();
  for (const write of acknowledged) byUser.set(write.userId, [...(byUser.get(write.userId) ?? []), write]);
  let storedTotal = 0;
  for (const [userId, writes] of byUser) {
    for (let offset = 0; offset < writes.length; offset += 500) {
      const chunk = writes.slice(offset, offset + 500);
      const found = new Map((await store.getMemories(userId, chunk.map((write) => write.memoryId))).map((memory) => [memory.memory_id, memory.content]));
      for (const write of chunk) {
        if (!found.has(write.memoryId)) lost++;
        else if (found.get(write.memoryId) !== write.content) mismatched++;
      }
    }
    storedTotal += (await store.stats(userId)).memories;
  }
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`\nverification: ${acknowledged.length.toLocaleString('en')} acknowledged stores, ${lost} lost, ${mismatched} with other content; ${storedTotal.toLocaleString('en')} memories on disk (duplicates: ${storedTotal - acknowledged.length})`);
  if (errors.length > 0 || lost > 0 || mismatched > 0 || storedTotal !== acknowledged.length) process.exitCode = 1;
}

await main();
