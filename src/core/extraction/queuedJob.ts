import type { CoreDeps } from '../coreDeps.ts';
import { ENRICHMENT_FIELD, ENRICHMENT_PENDING_TAG, type EnrichmentState } from '../enrichment/pendingEnrichment.ts';
import { EXTRACTION_PENDING_TAG, type ExtractionJob, type ModelTask } from './pendingExtraction.ts';

/** A job of the background model queue, its key, and what is left on the memory when it gives up. */
export interface QueuedJob extends ExtractionJob {
  task: ModelTask;
  attempt: number;
}

/** The tag a memory keeps while its task is pending. */
export const PENDING_TAGS: Record<ModelTask, string> = {
  extract: EXTRACTION_PENDING_TAG,
  enrich: ENRICHMENT_PENDING_TAG,
};

export function jobKey(task: ModelTask, memoryId: string): string {
  return `${task}:${memoryId}`;
}

/** Leaves the reason on the memory, so the panel and exports show why it is still pending. */
export async function recordJobFailure(
  deps: CoreDeps,
  log: (message: string) => void,
  job: QueuedJob,
  { worker, code, message }: { worker: string; code: string; message: string },
): Promise<void> {
  try {
    const [memory] = await deps.store.getMemories(job.user_id, [job.memory_id]);
    if (!memory) return;
    const failure: Record<string, unknown> =
      job.task === 'enrich'
        ? {
            [ENRICHMENT_FIELD]: {
              status: 'failed',
              model: worker,
              code,
              message,
              attempts: job.attempt,
              at: deps.clock.now().toISOString(),
            } satisfies EnrichmentState,
          }
        : { extraction_error: { code, message, attempts: job.attempt } };
    await deps.store.changeMemory({
      user_id: memory.user_id,
      memory_id: memory.memory_id,
      change: { merge_metadata: failure },
      at: null,
      if_forgotten: 'drop',
    });
  } catch (writeError) {
    log(
      `could not record the ${job.task === 'enrich' ? 'enrichment' : 'extraction'} failure on ${job.memory_id}: ${writeError instanceof Error ? writeError.message : String(writeError)}`,
    );
  }
}
