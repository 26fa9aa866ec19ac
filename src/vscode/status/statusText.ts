/** What the status bar says, as a pure function of a snapshot (unit-tested without the editor). */
export type StatusSnapshot =
  | { state: 'starting' }
  | { state: 'error'; message: string }
  | {
      state: 'ready';
      backend: string;
      health: 'healthy' | 'degraded' | 'unhealthy' | string;
      healthDetail: string;
      memories: number;
      workingTokens: number;
      workingBudget: number;
      project: string | null;
    };

export interface StatusView {
  text: string;
  tooltip: string;
  severity: 'ok' | 'warning' | 'error';
}

const HEALTH_LABEL: Record<string, string> = { healthy: 'connected', degraded: 'degraded', unhealthy: 'offline' };

export function describeStatus(snapshot: StatusSnapshot): StatusView {
  switch (snapshot.state) {
    case 'starting':
      return { text: '$(loading~spin) Memory', tooltip: 'Firebolt Memory: opening the memory store…', severity: 'ok' };
    case 'error':
      return {
        text: '$(error) Memory',
        tooltip: `Firebolt Memory: ${snapshot.message}\n\nClick to open the memory panel.`,
        severity: 'error',
      };
    case 'ready': {
      const health = HEALTH_LABEL[snapshot.health] ?? snapshot.health;
      const icon =
        health === 'connected' ? '$(database)' : health === 'degraded' ? '$(warning)' : '$(debug-disconnect)';
      const backend = snapshot.backend === 'sqlite' ? 'embedded' : snapshot.backend;
      return {
        text: `${icon} ${plural(snapshot.memories, 'memory', 'memories')} · working ${compact(snapshot.workingTokens)}/${compact(snapshot.workingBudget)} tokens`,
        // The tooltip is Markdown, where a single newline is no line break: each line is its own paragraph.
        tooltip: [
          `**Firebolt Memory**: ${backend} store, ${health}${snapshot.healthDetail ? ` (${snapshot.healthDetail})` : ''}`,
          `${plural(snapshot.memories, 'long-term memory', 'long-term memories')} in ${snapshot.project ? `project ${snapshot.project}` : 'all projects'}`,
          `Working memory of this window: ${snapshot.workingTokens.toLocaleString('en-US')} of ${snapshot.workingBudget.toLocaleString('en-US')} tokens`,
          'Click to open the memory panel.',
        ].join('\n\n'),
        severity: health === 'connected' ? 'ok' : health === 'degraded' ? 'warning' : 'error',
      };
    }
  }
}

function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

function compact(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  const thousands = tokens / 1000;
  return `${thousands >= 100 ? Math.round(thousands) : Math.round(thousands * 10) / 10}k`;
}
