/**
 * `npm run bench:load`: the HTTP MCP server (the built CLI, its own process) under a bounded load
 * on 127.0.0.1. Opens many MCP sessions (each with a working-memory session), then for a fixed
 * duration a pool of concurrent workers mixes store, recall, working-memory and context calls
 * over those sessions. Reports throughput and p50/p95/p99 per tool, then stops the server and
 * checks every acknowledged store in the SQLite file: no errors and no lost writes.
 *
 *   npm run bench:load                                  # 2,000 sessions, 30 s, 32 in flight
 *   npm run bench:load -- --sessions 10000 --duration 60 --concurrency 64
 *   npm run bench:load -- --servers 2 --server-cpu-prof  # two processes on one data directory; profile
 *
 * Besides throughput it reports CPU per operation of the servers and of the load generator (from
 * /proc and process.cpuUsage over the load phase), which stays meaningful on a shared box where
 * throughput moves with whatever else is running.
 *
 * The load generator runs on the same cores as the server; on a 2-core box it takes roughly
 * half the CPU, so the figures are a floor for the server alone.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { summarizeProfile } from './cpuProfile.ts';
import type { GcEvent } from './gcRecorder.ts';
import { RawMcpSession, type RawCallResult } from './rawMcpClient.ts';
import { cpuMsOf, rssMbOf, startServer, stopServer, type ServerProcess } from './serverProcess.ts';
import { latencySummary, ms } from './stats.ts';
import { SeededRandom, syntheticSentence } from './syntheticCorpus.ts';

const USAGE = `node bench/load.ts [options]
  --sessions N          MCP sessions to open (default 2000)
  --users N             users the sessions are spread over (default 200)
  --duration S          seconds of mixed load (default 30)
  --concurrency N       requests in flight during the load (default 32)
  --open-concurrency N  sessions opened at once (default 16)
  --servers N           server processes on the same data directory, sessions spread over them (default 1)
  --server-cpu-prof     run the servers with --cpu-prof and print the top self-time functions of the load phase
  --keep-profiles DIR   with --server-cpu-prof: leave the .cpuprofile files in DIR (for bench/cpuProfile.ts or a profile viewer)
  --cli PATH            the built CLI to run (default dist/cli.js), e.g. a copy of an earlier build for an A/B run
  --gc                  count the servers' garbage collections in the load phase (per 10,000 operations):
                        a measure of allocation that holds on a shared, loaded machine
  --mix TOOL:W,...      the operation mix as tool:weight pairs summing to 100 (default the one below);
                        get_working_memory:100 isolates the per-call path (HTTP, MCP, a cached read)
`;

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '2000' },
    users: { type: 'string', default: '200' },
    duration: { type: 'string', default: '30' },
    concurrency: { type: 'string', default: '32' },
    'open-concurrency': { type: 'string', default: '16' },
    servers: { type: 'string', default: '1' },
    'server-cpu-prof': { type: 'boolean', default: false },
    'keep-profiles': { type: 'string' },
    cli: { type: 'string' },
    gc: { type: 'boolean', default: false },
    mix: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const SESSIONS = Number(values.sessions);
const USERS = Math.min(Number(values.users), SESSIONS);
const DURATION_S = Number(values.duration);
const CONCURRENCY = Number(values.concurrency);
const OPEN_CONCURRENCY = Number(values['open-concurrency']);
const SERVERS = Number(values.servers);
const KEEP_PROFILES = values['keep-profiles'];
const CPU_PROF = values['server-cpu-prof'] || KEEP_PROFILES !== undefined;
const TOKEN = `load-token-${Date.now()}-0123456789abcdef0123456789`;
const root = new URL('..', import.meta.url).pathname;
const CLI = values.cli ?? join(root, 'dist', 'cli.js');
for (const [name, value] of [
  ['sessions', SESSIONS],
  ['users', USERS],
  ['duration', DURATION_S],
  ['concurrency', CONCURRENCY],
  ['open-concurrency', OPEN_CONCURRENCY],
  ['servers', SERVERS],
] as const) {
  if (!Number.isFinite(value) || value < 1) {
    process.stderr.write(`--${name} must be a positive number\n\n${USAGE}`);
    process.exit(2);
  }
}

/** The operation mix: weights sum to 100. Stores are a third, as an agent stores about as often as it reads. */
const DEFAULT_MIX: Array<[string, number]> = [
  ['store_memory', 30],
  ['recall_memories', 25],
  ['add_to_working_memory', 20],
  ['get_working_memory', 10],
  ['get_relevant_context', 15],
];
const MIX: Array<[string, number]> = values.mix === undefined ? DEFAULT_MIX : parseMix(values.mix);

/** `tool:weight,...` with known tools and weights that sum to 100. */
function parseMix(text: string): Array<[string, number]> {
  const known = new Set(DEFAULT_MIX.map(([name]) => name));
  const mix = text.split(',').map((part): [string, number] => {
    const [name, weight] = part.split(':');
    return [name, Number(weight)];
  });
  const bad = mix.find(([name, weight]) => !known.has(name) || !(weight > 0));
  if (bad !== undefined || mix.reduce((total, [, weight]) => total + weight, 0) !== 100) {
    process.stderr.write(`--mix needs tool:weight pairs of ${[...known].join(', ')} summing to 100\n\n${USAGE}`);
    process.exit(2);
  }
  return mix;
}

interface LoadSession {
  mcp: RawMcpSession;
  userId: string;
  workingSessionId: string;
}

const sum = (list: readonly number[]): number => list.reduce((total, value) => total + value, 0);
const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** Runs `work` over the items with at most `limit` in flight. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-load-'));
  if (KEEP_PROFILES !== undefined) mkdirSync(KEEP_PROFILES, { recursive: true });
  const profileDir = KEEP_PROFILES ?? (CPU_PROF ? mkdtempSync(join(tmpdir(), 'fml-load-prof-')) : null);
  const nodeFlags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const gcDir = values.gc ? mkdtempSync(join(tmpdir(), 'fml-load-gc-')) : null;
  if (gcDir !== null) {
    nodeFlags.push('--import', join(root, 'bench', 'gcRecorder.ts'));
    // The servers inherit this process's environment (serverProcess.ts).
    process.env.FML_BENCH_GC_DIR = gcDir;
  }
  // One after the other: the first opens and migrates the store, the others find it ready.
  const servers: ServerProcess[] = [];
  for (let index = 0; index < SERVERS; index++)
    servers.push(await startServer({ cliPath: CLI, dataDir, token: TOKEN, nodeFlags }));
  const agent = new Agent({ keepAlive: true, maxSockets: Math.max(CONCURRENCY, OPEN_CONCURRENCY) });
  const random = new SeededRandom(7);
  const rssMb = (): number => sum(servers.map((server) => rssMbOf(server.pid)));
  const serverCpuMs = (): number => sum(servers.map((server) => cpuMsOf(server.pid)));
  const generatorCpuMs = (): number => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  console.log(
    `Firebolt Memory Layer load test — node ${process.version}, ${cpus().length} cores (shared by servers and load generator), ${SERVERS} server process(es) ${servers.map((server) => server.pid).join(', ')} running ${CLI}`,
  );
  console.log(
    `${SESSIONS.toLocaleString('en')} MCP sessions over ${USERS} users, ${CONCURRENCY} requests in flight, ${DURATION_S} s, rate limit off, no embedding provider${CPU_PROF ? ', servers under --cpu-prof' : ''}`,
  );

  // Phase 1: open every session (MCP initialize + init_session), as clients connecting.
  const sessions: LoadSession[] = [];
  const openStarted = performance.now();
  const initSamples: number[] = [];
  await pool(
    Array.from({ length: SESSIONS }, (_, index) => index),
    OPEN_CONCURRENCY,
    async (index) => {
      // Session i talks to server i mod N, as clients spread by a load balancer would.
      const mcp = new RawMcpSession(servers[index % SERVERS].mcpUrl, TOKEN, agent);
      await mcp.open();
      const userId = `load-user-${index % USERS}`;
      const started = performance.now();
      const init = await mcp.callTool('init_session', { user_id: userId, config: { max_tokens: 4000 } });
      initSamples.push(performance.now() - started);
      if (!init.ok) throw new Error(`init_session failed: ${JSON.stringify(init.error)}`);
      sessions.push({ mcp, userId, workingSessionId: String(init.output!.session_id) });
    },
  );
  const openSeconds = (performance.now() - openStarted) / 1000;
  const rssAfterOpen = rssMb();
  console.log(
    `opened ${sessions.length.toLocaleString('en')} sessions in ${openSeconds.toFixed(1)} s; server RSS ${rssAfterOpen.toFixed(0)} MB`,
  );

  // Phase 2: the mixed load for a fixed duration.
  const samples: Record<string, number[]> = Object.fromEntries(MIX.map(([name]) => [name, []]));
  const responseBytes: Record<string, number> = Object.fromEntries(MIX.map(([name]) => [name, 0]));
  const errors: Array<{ tool: string; error: RawCallResult['error'] }> = [];
  const acknowledged: Array<{ userId: string; memoryId: string; content: string }> = [];
  let sequence = 0;
  const deadline = performance.now() + DURATION_S * 1000;
  const loadStarted = performance.now();
  const loadStartedUs = monotonicUs();
  const loadStartedEpochMs = Date.now();
  const serverCpuBefore = serverCpuMs();
  const generatorCpuBefore = generatorCpuMs();
  const pick = (): string => {
    let roll = random.next() * 100;
    for (const [name, weight] of MIX) if ((roll -= weight) < 0) return name;
    return MIX[0][0];
  };
  const argsFor = (tool: string, session: LoadSession): Record<string, unknown> => {
    const query = syntheticSentence(random, 3 + Math.floor(random.next() * 4));
    switch (tool) {
      case 'store_memory':
        return {
          user_id: session.userId,
          content: `${syntheticSentence(random, 14)} [load write ${sequence++}]`,
          memory_category: 'episodic',
          memory_subtype: 'event',
        };
      case 'recall_memories':
        return { user_id: session.userId, query, limit: 10 };
      case 'add_to_working_memory':
        return {
          session_id: session.workingSessionId,
          content: syntheticSentence(random, 25),
          content_type: 'message',
        };
      case 'get_working_memory':
        return { session_id: session.workingSessionId, token_budget: 2000 };
      default:
        return { user_id: session.userId, session_id: session.workingSessionId, query, token_budget: 1500 };
    }
  };
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const session = sessions[Math.floor(random.next() * sessions.length)];
        const tool = pick();
        const args = argsFor(tool, session);
        const started = performance.now();
        const result = await session.mcp.callTool(tool, args);
        samples[tool].push(performance.now() - started);
        responseBytes[tool] += result.bytes;
        if (!result.ok) errors.push({ tool, error: result.error });
        else if (tool === 'store_memory')
          acknowledged.push({
            userId: session.userId,
            memoryId: String(result.output!.memory_id),
            content: String(args.content),
          });
      }
    }),
  );
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const loadEndedUs = monotonicUs();
  const loadEndedEpochMs = Date.now();
  const serverCpu = serverCpuMs() - serverCpuBefore;
  const generatorCpu = generatorCpuMs() - generatorCpuBefore;
  const rssAfter = rssMb();
  const total = sum(Object.values(samples).map((list) => list.length));

  console.log(
    `\n## ${total.toLocaleString('en')} operations in ${loadSeconds.toFixed(1)} s = ${Math.round(total / loadSeconds).toLocaleString('en')} memory operations/s (target 5,000/s); errors ${errors.length}`,
  );
  console.log(
    `server RSS ${rssAfterOpen.toFixed(0)} MB after opening, ${rssAfter.toFixed(0)} MB at the end; CPU per operation: server ${(serverCpu / total).toFixed(3)} ms (${((serverCpu / 1000 / loadSeconds) * 100).toFixed(0)} % of a core), load generator ${(generatorCpu / total).toFixed(2)} ms (${((generatorCpu / 1000 / loadSeconds) * 100).toFixed(0)} % of a core)`,
  );
  console.log('| tool | calls | p50 ms | p95 ms | p99 ms | max ms | mean response bytes |');
  console.log('|---|---|---|---|---|---|---|');
  const init = latencySummary(initSamples);
  console.log(
    `| init_session (open phase) | ${init.n} | ${ms(init.p50)} | ${ms(init.p95)} | ${ms(init.p99)} | ${ms(init.max)} | - |`,
  );
  for (const [name, list] of Object.entries(samples)) {
    const summary = latencySummary(list);
    const meanBytes = list.length > 0 ? Math.round(responseBytes[name] / list.length).toLocaleString('en') : '-';
    console.log(
      `| ${name} | ${summary.n} | ${ms(summary.p50)} | ${ms(summary.p95)} | ${ms(summary.p99)} | ${ms(summary.max)} | ${meanBytes} |`,
    );
  }
  for (const failure of errors.slice(0, 5)) console.log(`error: ${failure.tool}: ${JSON.stringify(failure.error)}`);

  // Phase 3: close the sessions, stop the server, then check every acknowledged write on disk.
  await pool(sessions, OPEN_CONCURRENCY, (session) => session.mcp.close());
  agent.destroy();
  for (const server of servers) await stopServer(server);
  if (gcDir !== null) {
    printGcCounts(gcDir, { fromMs: loadStartedEpochMs, toMs: loadEndedEpochMs }, total);
    rmSync(gcDir, { recursive: true, force: true });
  }
  if (profileDir) {
    printProfiles(profileDir, { fromUs: loadStartedUs, toUs: loadEndedUs });
    if (KEEP_PROFILES === undefined) rmSync(profileDir, { recursive: true, force: true });
    else
      console.log(`\nprofiles kept in ${profileDir}; load phase ${loadStartedUs}–${loadEndedUs} µs (monotonic clock)`);
  }
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
      const found = new Map(
        (
          await store.getMemories(
            userId,
            chunk.map((write) => write.memoryId),
          )
        ).map((memory) => [memory.memory_id, memory.content]),
      );
      for (const write of chunk) {
        if (!found.has(write.memoryId)) lost++;
        else if (found.get(write.memoryId) !== write.content) mismatched++;
      }
    }
    storedTotal += (await store.stats(userId)).memories;
  }
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(
    `\nverification: ${acknowledged.length.toLocaleString('en')} acknowledged stores, ${lost} lost, ${mismatched} with other content; ${storedTotal.toLocaleString('en')} memories on disk (duplicates: ${storedTotal - acknowledged.length})`,
  );
  if (errors.length > 0 || lost > 0 || mismatched > 0 || storedTotal !== acknowledged.length) process.exitCode = 1;
}

/** The servers' garbage collections that started in the load phase (gcRecorder.ts), per kind. */
function printGcCounts(directory: string, window: { fromMs: number; toMs: number }, operations: number): void {
  const byKind = new Map<GcEvent['kind'], { count: number; ms: number }>();
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.json'))) {
    const events = JSON.parse(readFileSync(join(directory, file), 'utf8')) as GcEvent[];
    for (const event of events) {
      if (event.atMs < window.fromMs || event.atMs > window.toMs) continue;
      const kind = byKind.get(event.kind) ?? { count: 0, ms: 0 };
      kind.count++;
      kind.ms += event.ms;
      byKind.set(event.kind, kind);
    }
  }
  const parts = [...byKind].map(
    ([kind, { count, ms }]) =>
      `${count} ${kind} (${((count / operations) * 10_000).toFixed(1)} per 10,000 operations, ${ms.toFixed(0)} ms of pauses)`,
  );
  console.log(`servers' garbage collections in the load phase: ${parts.length > 0 ? parts.join('; ') : 'none'}`);
}

/** Top self-time functions of each server during the load phase. */
function printProfiles(directory: string, window: { fromUs: number; toUs: number }): void {
  for (const file of readdirSync(directory)
    .filter((name) => name.endsWith('.cpuprofile'))
    .sort()) {
    // Node names profiles CPU.<date>.<time>.<pid>.<thread>.<seq>: thread 0 is the main thread, others are workers (WAL checkpoints).
    const mainThread = file.split('.')[4] === '0';
    const summary = summarizeProfile(join(directory, file), window, mainThread ? 40 : 5);
    console.log(
      `\n### server CPU profile ${file} (${mainThread ? 'main thread' : 'worker thread'}): ${summary.sampledMs.toFixed(0)} ms sampled in a ${summary.windowMs.toFixed(0)} ms window (self time)`,
    );
    console.log('| self ms | share | function | where |');
    console.log('|---|---|---|---|');
    for (const row of summary.rows)
      console.log(`| ${row.ms.toFixed(0)} | ${(row.share * 100).toFixed(1)} % | ${row.name} | ${row.where} |`);
    if (!mainThread) continue;
    console.log('\n| total ms (with callees) | share | function | where |');
    console.log('|---|---|---|---|');
    for (const row of summary.totals)
      console.log(`| ${row.ms.toFixed(0)} | ${(row.share * 100).toFixed(1)} % | ${row.name} | ${row.where} |`);
  }
}

await main();
