/** Keys in the editor's SecretStorage; secrets never appear in settings, globalState or written configs. */
export const SECRET_KEYS = {
  embeddingApiKey: 'memory.embeddings.apiKey',
  fireboltClientSecret: 'memory.firebolt.cloud.clientSecret',
} as const;
