import { SqliteMemoryStore } from '../../../src/stores/sqlite/sqliteStore.ts';
import { MODEL, embedding, iso, makeMemory, randomUnitVector, seededRandom } from '../../contract/fixtures.ts';
import { rewriteMemory } from '../../support/rewriteMemory.ts';

/**
 * A second process for the multi-process tests: `node storeWorker.ts <command-json>`.
 * Prints one JSON line with the outcome and exits 0, or prints the error code and exits 1.
 */
interface WriteCommand {
  kind: 'write';
  dataDir: string;
  userId: string;
  prefix: string;
  count: number;
}

interface MutateCommand {
  kind: 'mutate';
  dataDir: string;
  userId: string;
  insert: { memory_id: string; content: string; vector: number[] }[];
  softDelete: string[];
  hardDelete: string[];
}

interface OpenCommand {
  kind: 'open';
  dataDir: string;
}

type Command = WriteCommand | MutateCommand | OpenCommand;

async function run(command: Command): Promise<unknown> {
  const store = new SqliteMemoryStore({ dataDir: command.dataDir });
  await store.open();
  try {
    if (command.kind === 'open') {
      await store.insertMemory(makeMemory('probe-user'), null);
      return { opened: true };
    }
    if (command.kind === 'write') {
      const random = seededRandom(command.prefix.length * 7919 + command.count);
      for (let i = 0; i < command.count; i++) {
        const memory = makeMemory(command.userId, {
          memory_id: `${command.prefix}_${i}`,
          content: `${command.prefix} note number ${i}`,
          embedding_model: MODEL,
          created_at: iso(i % 30),
        });
        await store.insertMemory(memory, embedding(randomUnitVector(8, random)));
        if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      return { written: command.count };
    }
    for (const item of command.insert) {
      const memory = makeMemory(command.userId, {
        memory_id: item.memory_id,
        content: item.content,
        embedding_model: MODEL,
      });
      await store.insertMemory(memory, embedding(Float32Array.from(item.vector)));
    }
    for (const id of command.softDelete) {
      const [memory] = await store.getMemories(command.userId, [id]);
      await rewriteMemory(store, { ...memory, deleted_at: iso(9) });
    }
    for (const id of command.hardDelete) await store.hardDeleteMemory(command.userId, id);
    return { mutated: true };
  } finally {
    await store.close();
  }
}

run(JSON.parse(process.argv[2]) as Command).then(
  (result) => {
    process.stdout.write(`${JSON.stringify({ ok: true, result })}\n`);
  },
  (error: unknown) => {
    const code = (error as { code?: string }).code ?? 'UNKNOWN';
    process.stdout.write(`${JSON.stringify({ ok: false, code, message: String((error as Error).message) })}\n`);
    process.exitCode = 1;
  },
);
