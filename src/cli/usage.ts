/** What `fml --help` prints, and what a wrong command is answered with. */
export const USAGE = `fml — Firebolt Memory Layer

Usage:
  fml serve --http  [--port N] [--data-dir DIR] [--user ID | --any-user] [--project ID] [--rotate-token] [--rate-limit N]
      bound to one user: --user, else FML_USER, else your OS account name, so the printed client
      config works as printed; --any-user serves every user (clients then name user_id themselves)
  fml serve --stdio [--data-dir DIR] [--user ID] [--project ID]
  (serve also takes --admin-tools: offer agents the lifecycle and administration tools too)
  (serve also takes --backend sqlite|firebolt-core|firebolt-cloud; default sqlite)
  (serve also takes --workspace DIR: the code memories are anchored to; recall checks anchors
   against it lazily, cached on file modification, and store_memory resolves anchors in it)
  (serve also takes --repo-memories, with --workspace: the project's memories are shared as files
   in DIR/.memory/, kept in step both ways (docs/repo-memories.md); the project is --project,
   else the one the editor gives the folder)
  (serve also takes --enrichment-base-url URL [--enrichment-model NAME]: stored memories get search
   keys from that OpenAI-compatible chat endpoint in the background; same as FML_ENRICHMENT_*)
  (serve also takes --agent ID --team ID --org ID --company ID: the memory layers it serves;
   with --user, no other team, org or company can be named by a client)
  (with --user, clients act in the --project project only; --read-project ID, repeatable,
   opens another project for reading, never writing)
  fml export --agents-md --workspace DIR [--file AGENTS.md|.github/copilot-instructions.md|CLAUDE.md]
             [--budget N] [--project ID] [--data-dir DIR]
      writes the pinned project memories into a marked section of that file (default AGENTS.md,
      1500 tokens); text outside the section is never changed. With serve --repo-memories, the
      same flags keep the section in step whenever the pinned memories change
  fml daemon [--data-dir DIR] [--grace-ms N]
      the background memory process the VS Code extension starts (one per data directory);
      stops N ms (default 300000) after its last client left
  fml migrate --to firebolt [--backend firebolt-core|firebolt-cloud] [--data-dir DIR]
      copies the embedded store into Firebolt; resumable, idempotent, verifies counts per user
  fml firebolt check [--backend firebolt-core|firebolt-cloud]
      connects with the configured Firebolt backend and reports server version, HNSW and
      VECTOR_SEARCH availability and a timed write/read/delete round trip; exit code 0 or 1

Environment:
  FML_DATA_DIR               data directory (default ~/.firebolt-memory)
  FML_EMBEDDING_PROVIDER     none | openai | hashing-test (default: openai when a key is set, else none)
  FML_EMBEDDING_API_KEY      key for the OpenAI-compatible endpoint (or OPENAI_API_KEY)
  FML_EMBEDDING_BASE_URL     any OpenAI-compatible base URL (Ollama, LM Studio, ...)
  FML_EMBEDDING_MODEL        default text-embedding-3-small
  FML_EMBEDDING_DIMENSIONS   requested vector size
  FML_EXTRACTION_PROVIDER    rules (default) | openai: how promoted working memory is split into memories
  FML_EXTRACTION_MODEL / FML_EXTRACTION_BASE_URL / FML_EXTRACTION_API_KEY   the chat model for openai
  FML_ENRICHMENT_PROVIDER    none (default) | openai: background search keys for stored memories
                             (synonyms, categories, questions answered); sends memory text to the model
  FML_ENRICHMENT_MODEL / FML_ENRICHMENT_BASE_URL / FML_ENRICHMENT_API_KEY   its chat model (default
                             gpt-4o-mini; the key falls back to OPENAI_API_KEY; a local server needs none)
  FML_OLLAMA_URL             with FML_EMBEDDING_PROVIDER=ollama: the local server (default http://localhost:11434)
  FML_AGENT_ID / FML_TEAM_ID / FML_ORG_ID / FML_COMPANY_ID   the same layer identifiers (flags win)
  FML_TOKEN                  bearer token for --http (default: kept in DATA_DIR/http-token)
  FML_BACKEND                sqlite | firebolt-core | firebolt-cloud (--backend wins)
  FIREBOLT_CORE_URL          Firebolt Core endpoint (default http://localhost:3473)
  FIREBOLT_DATABASE          Firebolt database (default fml_memory)
  FIREBOLT_CLIENT_ID         Firebolt Cloud service account id
  FIREBOLT_CLIENT_SECRET     Firebolt Cloud service account secret (environment only)
  FIREBOLT_ACCOUNT           Firebolt Cloud account name
  FIREBOLT_ENGINE            Firebolt Cloud engine name
  FIREBOLT_API_ENDPOINT      Firebolt Cloud API endpoint (default https://api.app.firebolt.io)
  With a Firebolt backend, a local replica and outbox in DATA_DIR/firebolt-replica keep every
  write while Firebolt is unreachable and replay them in order when it returns.
`;
