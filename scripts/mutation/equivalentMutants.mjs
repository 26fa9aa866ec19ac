// Surviving mutants that no test here can kill, each with the reason. Most are equivalent (the
// mutated code behaves like the original for every input); the rest differ only under a fault this
// suite cannot produce in-process (power loss, an I/O error inside a transaction), and say so.
// Keyed by file, line, mutator and replacement: when the code moves, the key stops matching and the
// survivor shows as UNEXPLAINED again, which is the point (someone must look at it again).
export function mutantKey(mutant) {
  return `${mutant.file}:${mutant.line} ${mutant.mutator} → ${mutant.replacement.replace(/\s+/g, ' ').slice(0, 80)}`;
}

export const EQUIVALENT_MUTANTS = {
  // Outbox
  'src/stores/resilient/outbox.ts:37 ConditionalExpression → false':
    'Equivalent in behaviour: a second open() opens a second connection to the same file and drops the first; every later call uses the new one. Only a file handle leaks.',
  'src/stores/resilient/outbox.ts:41 StringLiteral → ""':
    'Durability only: synchronous = FULL matters when the machine loses power right after a write; an in-process test cannot cut the power.',
  'src/stores/resilient/outbox.ts:121 StringLiteral → ""':
    'Same end state: without BEGIN the move to outbox_rejected runs as two autocommits and the COMMIT then fails, so the replayer goes round once more and finds the entry already moved. Differs only if the process dies between the two statements.',
  'src/stores/resilient/outbox.ts:128 BlockStatement → {}':
    'Runs only when SQLite fails between BEGIN and COMMIT of the move (disk full, I/O error); not reproducible in-process (the storage-fault suite covers the store, not the outbox).',
  'src/stores/resilient/outbox.ts:129 ConditionalExpression → true': 'Same failure path as line 128.',
  'src/stores/resilient/outbox.ts:129 ConditionalExpression → false': 'Same failure path as line 128.',
  'src/stores/resilient/outbox.ts:129 StringLiteral → ""': 'Same failure path as line 128.',
  'src/stores/resilient/outbox.ts:155 BlockStatement → {}':
    'The same failure path in erase(): runs only when SQLite fails between BEGIN and COMMIT of the erasure.',
  'src/stores/resilient/outbox.ts:156 ConditionalExpression → true': 'Same failure path as line 155.',
  'src/stores/resilient/outbox.ts:156 ConditionalExpression → false': 'Same failure path as line 155.',
  'src/stores/resilient/outbox.ts:156 StringLiteral → ""': 'Same failure path as line 155.',
  "src/stores/resilient/remoteApply.ts:21 ConditionalExpression → case 'insertMemory':":
    "Equivalent: with the case emptied an insert falls through to the update branch, whose update-else-insert (with the op's own embedding) leaves exactly the state the insert path leaves, lost acknowledgement or not.",
  // Layer access
  'src/core/layers/layerScope.ts:42 StringLiteral → ""':
    'Equivalent: unreachable. requireLayerIdentifiers has already refused a personal layer without user_id, so this requireId never fails and its field name is never shown.',
  'src/core/layers/layerScope.ts:74 ConditionalExpression → false':
    "Equivalent: a user-layer memory's scope_id is its user_id (the user layer is scoped by the user id), so { user_id, user_id: scope_id } is the same object.",
  // Ranking
  'src/stores/common/topK.ts:23 EqualityOperator → this.#orders[a] >= this.#orders[b]':
    'Equivalent: differs only when two entries carry the same order, and orders are distinct (both callers, vectorSearch and lexicalIndex, pass an insertion index), so two different entries never tie on order.',
  'src/stores/common/topK.ts:41 EqualityOperator → order >= this.#orders[0]':
    'Equivalent for the same reason as line 23: a newcomer never has the order of the entry it is compared with.',
  'src/stores/common/topK.ts:62 EqualityOperator → i >= 0':
    'Equivalent: at the root, i = 0, the extra turn compares with index (0 − 1) >> 1 = −1, whose score is undefined; undefined is neither greater nor equal, so #worse is false and the loop returns.',
  'src/stores/common/topK.ts:76 ConditionalExpression → true':
    'Equivalent: without the bound a child index past the end reads an undefined score, which #worse never ranks below anything (undefined < x and undefined === x are false), so it is never chosen.',
  'src/stores/common/topK.ts:76 EqualityOperator → left <= n':
    'Equivalent: index n is past the end; as line 76 → true, its undefined score is never worse.',
  'src/stores/common/topK.ts:77 ConditionalExpression → true': 'Equivalent: as line 76 → true, for the right child.',
  'src/stores/common/topK.ts:77 EqualityOperator → right <= n':
    'Equivalent: as line 76 → left <= n, for the right child.',
  'src/core/retrieval/typeWeights.ts:45 ArrayDeclaration → ["Stryker was here"]':
    'Equivalent: puts a subtype named "Stryker was here" in the general profile; no memory can have that subtype (the taxonomy refuses it), so no weight changes.',
  // Redaction
  'src/core/safety/contentGuard.ts:51 ConditionalExpression → false':
    'Equivalent: the early return is a shortcut; replaceSpans with no spans returns the text unchanged and no counts, which is the same { content: text, redactions: [] }.',
  'src/core/safety/privateKeyBlock.ts:18 Regex → /(?:(?:\\r?\\n|\\\\r\\\\n|\\\\n|[ \\t]+)(?:[A-Za-z0-9+/=]{16,}|[A-Za-z0-9+/=]*(?=\\r?\\n|\\\\':
    'Equivalent: the body pattern can match the empty string, so exec always finds a match at index 0 and the leftmost match is the same with or without the ^ anchor.',
  'src/core/safety/privateKeyBlock.ts:26 ConditionalExpression → false':
    "Equivalent: after each block BEGIN.lastIndex is set to the block's end, so the next BEGIN found never starts before searchFrom and the guard never fires.",
  'src/core/safety/privateKeyBlock.ts:44 StringLiteral → "Stryker was here!"':
    'Equivalent (never reached): the body pattern matches the empty string, so exec never returns null and the fallback is never used.',
  // Import validation
  'src/core/portability/importMemories.ts:241 EqualityOperator → raw.access_count > 0':
    'Equivalent: differs only for an access_count of exactly 0, where Math.floor(0) and the fallback are both 0.',
  // Tool authorization (src/mcp/defineTool.ts)
  'src/mcp/defineTool.ts:127 ConditionalExpression → false':
    'Equivalent: sessionOwner then returns { user_id: undefined } instead of {}; every caller reads user_id, and undefined means "no owner named" either way.',
  'src/mcp/defineTool.ts:158 StringLiteral → ""':
    'Wording only: the refusal still has its code and field; the settings key it suggests (fireboltMemory.layers) becomes "fireboltMemory." in the message text.',
  'src/mcp/defineTool.ts:165 ArrayDeclaration → ["Stryker was here"]':
    'Equivalent for every project a test or a user could name: the default list of readable projects would hold the one project id "Stryker was here".',
  'src/mcp/defineTool.ts:171 StringLiteral → "Stryker was here!"':
    'Wording only: a read refusal would say "…is not open to itStryker was here!"; writeBindings.test.ts checks that it does not say "for writing", not every other word.',
  // HTTP and panel guards
  'src/http/httpGuards.ts:17 StringLiteral → "Stryker was here!"':
    'Equivalent: a request without a Host header is compared as "" or as this text; neither is an allowed host, both are 403.',
  'src/http/httpGuards.ts:22 StringLiteral → ``':
    'Wording only: the 403 keeps its status and code FORBIDDEN (asserted); the message text would be empty.',
  'src/http/httpGuards.ts:28 ConditionalExpression → true':
    'Equivalent in status and code: an opaque "null" Origin then fails the allowed-origins check instead and is 403 FORBIDDEN all the same; only the message differs.',
  'src/http/httpGuards.ts:28 StringLiteral → ""':
    'Same as the line 28 conditional: "null" is refused by the allowed-origins check.',
  'src/http/httpGuards.ts:29 StringLiteral → ``':
    'Wording only: status 403 and code FORBIDDEN are asserted, not the sentence.',
  'src/http/httpGuards.ts:31 StringLiteral → ""':
    'Wording only (the opaque-origin sentence); status and code unchanged.',
  'src/http/httpGuards.ts:41 StringLiteral → "Stryker was here!"':
    'Equivalent: a missing Authorization header read as "" or as this text; neither starts with "Bearer ", so the query token (or nothing) is compared.',
  "src/http/httpGuards.ts:42 MethodExpression → header.slice('Bearer '.length)":
    'Differs only for "Bearer" followed by more than one space (Node already strips a trailing one), which RFC 7235 allows and the original accepts; no promise says either way.',
  'src/http/httpGuards.ts:42 StringLiteral → "Stryker was here!"':
    'Equivalent: with no bearer header and no query token the presented token is "" or this text, and neither is the 256-bit token.',
  'src/http/httpGuards.ts:50 StringLiteral → ""':
    'Wording only: the 401 keeps its status, code UNAUTHORIZED and WWW-Authenticate (asserted).',
  'src/panel/panelSessions.ts:34 ConditionalExpression → false':
    'Equivalent: an empty id has length 0 and is then refused by the length comparison against every 43-character id.',
  'src/panel/panelSessions.ts:48 BlockStatement → {}':
    "Memory only: isValid checks each session's expiry itself, and at the 1,000 cap create() ends the oldest entry, which (one TTL for all) is the first to have expired.",
  'src/panel/panelSessions.ts:50 ConditionalExpression → false':
    'Same as line 48: the sweep frees memory; validity never depends on it.',
  'src/panel/panelSessions.ts:50 EqualityOperator → expires < now':
    'Same as line 48, at the exact millisecond of expiry.',
  'src/panel/httpPanelRoutes.ts:216 StringLiteral → "Stryker was here!"':
    'Equivalent: a missing Authorization header read as "" or as this text; neither starts with "Bearer ".',
  'src/panel/httpPanelRoutes.ts:220 StringLiteral → "Stryker was here!"':
    'Equivalent: a missing Content-Type read as "" or as this text; neither is application/json, both are 415.',
  'src/panel/httpPanelRoutes.ts:232 StringLiteral → "Stryker was here!"':
    'Equivalent: the Host fallback only matters without a Host header, which the server refuses (403) before the panel routes.',
  'src/panel/httpPanelRoutes.ts:232 ConditionalExpression → true':
    'Equivalent: an undefined Origin never equals "http://<host>", so the comparison alone refuses it.',
  'src/panel/httpPanelRoutes.ts:236 StringLiteral → "Stryker was here!"':
    'Equivalent: without a Cookie header no part is named like the panel cookie either way.',
  'src/panel/httpPanelRoutes.ts:238 StringLiteral → ""':
    'Equivalent for the ids the server issues: they are base64url (no "="), so joining the value\'s parts with "" or "=" gives the same id.',
};
