/** Prefixed random ids: the prefix tells a reader of a log which table an id belongs to. */
export function newId(prefix: 'mem' | 'wmi' | 'sess' | 'acc'): string {
  return `${prefix}_${globalThis.crypto.randomUUID().replaceAll('-', '')}`;
}
