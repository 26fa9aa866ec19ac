/**
 * Keys in the editor's SecretStorage; secrets never appear in settings, globalState or written configs.
 * They keep the old `memory.` spelling on purpose: they are storage keys, not settings, and renaming
 * them would lose the secrets users already stored.
 */
export const SECRET_KEYS = {
  embeddingApiKey: 'memory.embeddings.apiKey',
  fireboltClientSecret: 'memory.firebolt.cloud.clientSecret',
} as const;
