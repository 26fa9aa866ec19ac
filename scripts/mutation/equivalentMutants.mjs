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
  'src/core/portability/exportFileReader.ts:122 EqualityOperator → raw.access_count > 0':
    'Equivalent: differs only for an access_count of exactly 0, where Math.floor(0) and the fallback are both 0.',
  // Import and export (portability)
  'src/core/portability/exportMemories.ts:18 MethodExpression → await deps.store.listWorkingItems(session.session_id)':
    "Defence only: every working item of a session carries its session owner's user id (add_to_working_memory writes it, import rewrites it to the importer), so the filter never drops an item of a user's own session.",
  'src/core/portability/exportMemories.ts:18 ConditionalExpression → true':
    'As the line 18 MethodExpression: the filter never drops an item.',
  'src/core/portability/exportPages.ts:76 MethodExpression → await deps.store.listWorkingItems(session.session_id)':
    'As exportMemories.ts line 18: the items of a session are all its owner’s.',
  'src/core/portability/exportPages.ts:76 ConditionalExpression → true': 'As exportMemories.ts line 18.',
  'src/core/portability/exportPages.ts:89 ConditionalExpression → true':
    'As exportMemories.ts line 18, in the count of working items.',
  'src/core/portability/exportPages.ts:50 OptionalChaining → next.section':
    'Equivalent: next is never null at this test (parseCursor returns a position, and the memories loop only assigns positions).',
  'src/core/portability/exportPages.ts:70 OptionalChaining → next.section':
    'Equivalent: next is null only after the sessions loop sets it and breaks, so the loop test never reads a null.',
  'src/core/portability/exportPages.ts:65 ConditionalExpression → false':
    'Cost only: with either half of the end test gone, a batch that ended the memories is followed by one more read, which returns no rows and moves to the sessions; the page is the same.',
  'src/core/portability/exportPages.ts:65 EqualityOperator → offset > batch.total':
    'Cost only, as line 65 → false: one more empty read when the memories end exactly at a full batch.',
  'src/core/portability/exportPages.ts:65 LogicalOperator → batch.items.length < READ_BATCH && offset >= batch.total':
    'Cost only, as line 65 → false: a full batch that ends the memories is followed by one empty read.',
  'src/core/portability/exportPages.ts:84 ConditionalExpression → false':
    'Equivalent: redundant. The sessions loop already sets next to null when it passes the last session; it stops early only when a session does not fit, i.e. before the end.',
  'src/core/portability/exportPages.ts:84 EqualityOperator → next.offset > sessions.length': 'As line 84 → false.',
  'src/core/portability/importMemories.ts:88 ConditionalExpression → true':
    "Equivalent: a memory reaching this line is not the user's already (those are skipped above), so its id is always the derived one and differs from the file's; the condition is always true.",
  'src/core/portability/importMemories.ts:129 ConditionalExpression → true':
    "Equivalent: a session the importing user already holds then gets the derived id, but the next line finds the user's own session (current) and skips it, as the original does.",
  'src/core/portability/importMemories.ts:130 ConditionalExpression → false':
    "Equivalent: for a session the user already holds, sessionId is the file's id, so looking it up again finds the same session and it is skipped.",
  'src/core/portability/importMemories.ts:192 ArrayDeclaration → ["Stryker was here"]':
    'Equivalent: the import writes only sessions it creates, so deleting an item id of that new session that no item has deletes nothing.',
  // Secret rules
  'src/core/safety/secretValue.ts:64 Regex → /^(?:x|X{3,}|\\*{3,}|\\.{3,}|#{3,}|•{3,}|…)$|^(?:your|my|some|the)[_-][A-Za-z_-]*$':
    'Equivalent: MASK is case-insensitive, so X{3,} alone already matches every run of x; dropping the repetition of the x alternative changes nothing.',
  'src/core/safety/secretValue.ts:64 Regex → /^(?:x{3,}|X|\\*{3,}|\\.{3,}|#{3,}|•{3,}|…)$|^(?:your|my|some|the)[_-][A-Za-z_-]*$':
    'Equivalent: as the x alternative, the other way round (x{3,} with the i flag matches runs of X).',
  'src/core/safety/secretValue.ts:83 Regex → /^(?:[A-Z][a-z]+){3,}(?:V\\d+)$/':
    'Equivalent: a capitalised name without the V suffix is letters only, and one holding a credential word is a stand-in by WORDS_NAMING_A_SECRET already (standInValues.test.ts checks the suffixed forms).',
  'src/core/safety/contextualSecrets.ts:34 StringLiteral → "Stryker was here!"':
    "Unreachable: the fallback of `match.groups?.secret ?? ''`. The `secret` group is not optional in the AWS pattern, so every match has it.",
  'src/core/safety/contextualSecrets.ts:39 StringLiteral → "Stryker was here!"':
    'As line 34: the `secret` group of this pattern is not optional, so the fallback is never read.',
  'src/core/safety/contextualSecrets.ts:49 StringLiteral → "Stryker was here!"':
    'As line 34: the `secret` group of this pattern is not optional, so the fallback is never read.',
  'src/core/safety/contextualSecrets.ts:52 StringLiteral → "Stryker was here!"':
    'As line 34: the `secret` group of this pattern is not optional, so the fallback is never read.',
  'src/core/safety/contextualSecrets.ts:55 StringLiteral → "Stryker was here!"':
    'As line 34: the `secret` group of this pattern is not optional, so the fallback is never read.',
  'src/core/safety/contextualSecrets.ts:59 StringLiteral → "Stryker was here!"':
    'As line 34: the `secret` group of this pattern is not optional, so the fallback is never read.',
  'src/core/safety/contextualSecrets.ts:62 StringLiteral → "Stryker was here!"':
    'As line 34: the `host` group of the .pgpass pattern is not optional.',
  'src/core/safety/contextualSecrets.ts:71 StringLiteral → "Stryker was here!"':
    'As line 34: the `secret` group of this pattern is not optional, so the fallback is never read.',
  'src/core/safety/contextualSecrets.ts:79 ArithmeticOperator → (match.index ?? 0) - match[0].length':
    'Unreachable: every pattern handed to secretGroup has the d flag and a non-optional `secret` group, so its indices are always there and the fallback span is never computed.',
  'src/core/safety/contextualSecrets.ts:45 LogicalOperator → match.index && 0':
    'Differs only when more than 40 spaces separate "Authorization:" or a quote from "Basic": the context is then read from the start of the text instead of its last 40 characters, and the context pattern is anchored at its end, so only a run of spaces longer than the window tells them apart. No promise names such a gap.',
  'src/core/safety/contextualSecrets.ts:55 Regex → /[\'"]|[\'"]$/g':
    'Differs only for a quoted mysql password holding the other quote character (`-p"it\'s…"`): the quotes are stripped only to judge the password (the replaced span is the whole group either way), and the judgement changes only if dropping the inner quote makes a stand-in (`-p"change\'me"`). No promise names that.',
  'src/core/safety/contextualSecrets.ts:55 Regex → /^[\'"]|[\'"]/g':
    'Differs only for a quoted mysql password holding the other quote character (`-p"it\'s…"`): the quotes are stripped only to judge the password (the replaced span is the whole group either way), and the judgement changes only if dropping the inner quote makes a stand-in (`-p"change\'me"`). No promise names that.',
  'src/core/safety/credentialAssignment.ts:102 StringLiteral → ""':
    "Equivalent: credentialFieldKind judges a quoted value, and acceptsValue reads the separator and the rest of the line only for a bare value after ':'; another separator string than ':' or another rest changes nothing.",
  'src/core/safety/credentialAssignment.ts:102 StringLiteral → "Stryker was here!"':
    "Equivalent: credentialFieldKind judges a quoted value, and acceptsValue reads the separator and the rest of the line only for a bare value after ':'; another separator string than ':' or another rest changes nothing.",
  'src/core/safety/credentialAssignment.ts:42 Regex → /^(?:[A-Za-z_$][\\w$]*|0x[0-9A-Fa-f]+|\\d+(?:\\.\\d)?)$/':
    'Equivalent: a decimal number the operand pattern no longer recognises (`password = 1234.5678;`) is a version by VERSION, which isNonSecretValue leaves alone as well (credentialSettingForms.test.ts checks it).',
  'src/core/safety/credentialAssignment.ts:42 Regex → /^(?:[A-Za-z_$][\\w$]*|0x[0-9A-Fa-f]+|\\d+(?:\\.\\D+)?)$/':
    'Equivalent: a decimal number the operand pattern no longer recognises (`password = 1234.5678;`) is a version by VERSION, which isNonSecretValue leaves alone as well (credentialSettingForms.test.ts checks it).',
  'src/core/safety/credentialName.ts:170 Regex → /([A-Z])([A-Z][a-z])/g':
    'Equivalent: both insert the space before the last capital of a run followed by a lower-case letter (`AWSSecret` → `AWS Secret`); the earlier capitals of the run are left joined either way.',
  'src/core/safety/credentialName.ts:172 Regex → /[^a-z0-9]/':
    'Equivalent: splitting on each separator instead of each run of them only adds empty words, which the filter on the next line removes.',
  'src/core/safety/credentialName.ts:180 ConditionalExpression → false':
    'Cost only: CANDIDATE is a quick pre-check; every word of the lists and every qualifier + "key" contains one of its substrings, so the full check answers null for every name it skips.',
  'src/core/safety/credentialName.ts:182 ConditionalExpression → false':
    'Equivalent: with no words every later check is false (no last word, nothing to find, the key loop does not run), and the function returns null all the same.',
  'src/core/safety/credentialName.ts:183 ConditionalExpression → true':
    'Equivalent: the only descriptor that a one-word name can be and that passes CANDIDATE is "tokens", which no other check classifies either, so a one-word descriptor is null with or without the length test.',
  'src/core/safety/credentialName.ts:183 EqualityOperator → words.length >= 1':
    'Equivalent: the only descriptor that a one-word name can be and that passes CANDIDATE is "tokens", which no other check classifies either, so a one-word descriptor is null with or without the length test.',
  'src/core/safety/credentialName.ts:192 EqualityOperator → index <= words.length':
    'Equivalent: one more turn reads words[words.length], undefined, which is never "key".',
  'src/core/safety/secretValue.ts:95 ConditionalExpression → true':
    'Equivalent (`last === "”"` → true; its twin `first === "“"` → true is killed by "“the password is hunter2x”"): bare prose values exclude “, so a raw value starting with “ is always a whole curly quotation.',
  'src/core/safety/secretValue.ts:10 Regex → /^(?:\\$(?:\\{[^}]*\\}|\\([^)]*\\)|[A-Za-z_][A-Za-z0-9_]*)|%[A-Za-z_][A-Za-z0-9_]*%|\\':
    'Unreachable: the closing parenthesis of `$(…` is optional for a value cut before it, but quoted values keep it and bare values stop before `(` (leaving `$`, too short to be a secret), so no value reaches the difference.',
  'src/core/safety/secretValue.ts:74 Regex → /^v?\\d+(?:\\.\\d+)[\\w.-]*$/':
    'Equivalent: the trailing [\\w.-]* takes the digits and dots the narrowed repetition leaves, so the same values match (`1.2.3`, `10.20.30-beta`).',
  'src/core/safety/secretValue.ts:74 Regex → /^v?\\d+(?:\\.\\d)+[\\w.-]*$/':
    'Equivalent: the trailing [\\w.-]* takes the digits and dots the narrowed repetition leaves, so the same values match (`1.2.3`, `10.20.30-beta`).',
  'src/core/safety/secretValue.ts:91 ConditionalExpression → true':
    'Equivalent: a raw value shorter than two characters is never a quote pair (quoted values have at least one character inside), and a one-character value is too short to be a secret either way.',
  'src/core/safety/secretValue.ts:91 EqualityOperator → raw.length > 2':
    'Equivalent: no pattern yields a two-character quote pair (quoted values have at least one character inside); two backticks in prose are too short to be a secret either way.',
  "src/core/safety/secretValue.ts:92 LogicalOperator → first === '\"' || last === '\"'":
    'Equivalent: no raw value has a " at one end only: quoted values are taken with both quotes, and bare values (settings and prose) exclude ", so testing one end is testing both.',
  'src/core/safety/secretValue.ts:92 ConditionalExpression → true':
    'Equivalent: no raw value has a " at one end only: quoted values are taken with both quotes, and bare values (settings and prose) exclude ", so testing one end is testing both.',
  'src/core/safety/secretValue.ts:93 LogicalOperator → first === "\'" || last === "\'"':
    "Equivalent: no raw value has a ' at one end only: quoted values are taken with both quotes, and bare values (settings and prose) exclude ', so testing one end is testing both.",
  'src/core/safety/secretValue.ts:93 ConditionalExpression → true':
    "Equivalent: no raw value has a ' at one end only: quoted values are taken with both quotes, and bare values (settings and prose) exclude ', so testing one end is testing both.",
  "src/core/safety/credentialAssignment.ts:19 Regex → /(?<![\\w.])(?<name>[A-Za-z_][\\w]{0,80})\\s*:\\s*&?(?:'[a-z]+\\s+)?[A-Za-z_][\\w<>[\\]":
    "The key (cut at 80 characters) is shared by several mutants of the typed-declaration pattern's end; the one that survives is `\\s*` → `\\S*` before `=`, equivalent: the type's characters include a space, so the lazy type takes the spaces before `=` and `\\S*` matches nothing. The others sharing the key are killed by credentialSettingForms.test.ts.",
  // Tool authorization (src/mcp/callerAccess.ts)
  'src/mcp/callerAccess.ts:92 StringLiteral → ""':
    'Wording only: the refusal keeps its code UNAUTHORIZED and field (asserted); the settings key it suggests (fireboltMemory.layers) becomes "fireboltMemory." in the message text.',
  'src/mcp/callerAccess.ts:105 StringLiteral → "Stryker was here!"':
    'Wording only: a read refusal would say "…is not open to itStryker was here!"; writeBindings.test.ts checks that it names both projects and does not say "for writing", not every other word.',
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
  // Anchor locator
  'src/core/anchors/anchorChecker.ts:56 ConditionalExpression → true':
    "Equivalent: `followed` then names the anchor's own path when the editor followed nothing; it only feeds the cache key and the modification-time stamp (the own file's time read twice), and checkUncached never reads it (atFollowedPath checks the path itself).",
  "src/core/anchors/anchorChecker.ts:57 LogicalOperator → followed && ''":
    "Equivalent: the cache key loses the followed path, but the stamp compared with it (line 58) already holds the followed file's modification time, so a followed and an unfollowed check of one anchor never share a cached answer.",
  'src/core/anchors/anchorChecker.ts:57 StringLiteral → "Stryker was here!"':
    "Equivalent: a constant suffix of every unfollowed anchor's cache key.",
  'src/core/anchors/anchorChecker.ts:58 StringLiteral → "Stryker was here!"':
    "Equivalent: a constant part of every unfollowed anchor's modification-time stamp.",
  'src/core/anchors/anchorChecker.ts:61 LogicalOperator → searched === undefined && searched === this.generation':
    'Cost only: no cached answer is ever used, every check is computed again and gives the same answer (the cache saves work; the tests that the cache is dropped on change and invalidate pass either way).',
  'src/core/anchors/anchorChecker.ts:61 ConditionalExpression → false':
    'Cost only, as the line 61 LogicalOperator: the cache is never used.',
  'src/core/anchors/anchorChecker.ts:65 ConditionalExpression → true':
    'Cost only: a check that did not search is recorded as one that did, so it is computed again after the next invalidate; the answer is the same.',
  'src/core/anchors/anchorChecker.ts:73 ConditionalExpression → true':
    "No promise either way: the followed path is tried first even when the anchor's own file has it. Differs only when a file appears again under the old name after the editor saw it renamed and still holds the code; atFollowedPath returns null for every anchor the editor did not follow.",
  'src/core/anchors/anchorChecker.ts:75 BooleanLiteral → true':
    'Cost only: an answer found at the followed path is recorded as searched, so it is computed again after the next invalidate; the same answer.',
  'src/core/anchors/anchorChecker.ts:78 BooleanLiteral → true':
    'Cost only: an answer from the own file is recorded as searched and is computed again after the next invalidate; the same answer.',
  'src/core/anchors/anchorChecker.ts:95 ConditionalExpression → false':
    "Equivalent: atFollowedPath runs only when the own file gave no answer; with the editor's current path equal to the anchor's own, it looks in that same file again and finds nothing either (no file, or the symbol not there, and a symbol anchor is never compared at lines).",
  'src/core/anchors/anchorChecker.ts:122 ConditionalExpression → true':
    'Equivalent: a line anchor has no symbol, so locateIn returns only an exact run of its code, whose similarity is always 1.',
  'src/core/anchors/codeFingerprint.ts:35 ConditionalExpression → false':
    'Equivalent: a double-quoted token is written back as the same double-quoted token; skipping the rewrite changes nothing (single quotes and backticks are still unified, which the quote-style test checks).',
  'src/core/anchors/codeFingerprint.ts:35 StringLiteral → ""':
    'Equivalent, as the line 35 ConditionalExpression → false: only double-quoted tokens stop being rewritten, and they are already in the unified form.',
  'src/core/anchors/codeFingerprint.ts:35 ConditionalExpression → true':
    'Differs only for a lone quote character (a string left unterminated on its line, a Rust lifetime): it would count as the empty string literal. No promise names that case.',
  "src/core/anchors/codeFingerprint.ts:44 MethodExpression → sha256Base64Url(tokens.join('\\u0001'))":
    'Equivalent within one build: the stored fingerprint and the one compared with it come from the same function, so a longer hash matches exactly when the shorter one does (anchors stored by an older build are not in any test).',
  'src/core/anchors/codeFingerprint.ts:59 ConditionalExpression → true':
    'Unreachable: two empty sketches come from two empty token lists, whose fingerprints are equal, so compareAt answers 1 before sketchSimilarity is called.',
  'src/core/anchors/codeFingerprint.ts:59 EqualityOperator → b.length !== 0':
    'Unreachable, as the line 59 ConditionalExpression → true.',
  'src/core/anchors/codeFingerprint.ts:59 ConditionalExpression → false':
    'Unreachable, as the line 59 ConditionalExpression → true.',
  'src/core/anchors/codeFingerprint.ts:63 ConditionalExpression → true':
    'Killed in effect: the merge never ends once one sketch is used up (undefined === undefined counts shared forever); `node --test test/promises/anchorLocator.test.ts` on this mutant hangs and is cancelled (seen). The tap runner reported the cut-off run as survived instead of timed out.',
  'src/core/anchors/codeFingerprint.ts:63 EqualityOperator → i <= a.length':
    'Equivalent: one step past the end reads undefined, which is neither equal to nor less than any hash, so j moves on to the end and no shared token is counted.',
  'src/core/anchors/codeFingerprint.ts:63 EqualityOperator → j <= b.length':
    'Equivalent: as i <= a.length, for the other sketch.',
  'src/core/anchors/codeFingerprint.ts:67 UpdateOperator → j--':
    'Equivalent: after a shared hash the next a[i] is larger than b[j - 1] (sorted, distinct), so the else branch steps j forward twice and the merge continues where it would have: the same count (seen: the anchor tests pass on it).',
  'src/core/anchors/codeFingerprint.ts:68 EqualityOperator → a[i] <= b[j]':
    'Equivalent: equality is handled by the branch before.',
  'src/core/anchors/codeFingerprint.ts:76 EqualityOperator → index <= text.length':
    'Equivalent: one extra round with charCodeAt(length) = NaN (xor with 0, one more multiply) gives other hash values, but the stored sketch and the compared one come from the same function, and distinct tokens keep distinct hashes.',
  'src/core/anchors/codeLocator.ts:24 ConditionalExpression → false':
    'Equivalent: equal fingerprints mean equal token lists, whose sketches are equal, so the sketch similarity is 1 as well.',
  'src/core/anchors/codeLocator.ts:37 EqualityOperator → Math.abs(found.start - anchor.lines.start) <= Math.abs(best.start - anchor.lines':
    'No promise: differs only when two same-named declarations are exactly as far from the old lines (one above, one below); the original keeps the first, the mutant the last. The documented rule (nearest wins) is tested on both orders.',
  'src/core/anchors/codeLocator.ts:55 ConditionalExpression → false':
    "Equivalent: a run of another number of tokens than the anchor's is another token list, so its fingerprint cannot match the anchor's and the next check skips it.",
  'src/core/anchors/codeLocator.ts:58 EqualityOperator → Math.abs(found.start - anchor.lines.start) <= Math.abs(best.start - anchor.lines':
    'No promise, as line 37: two identical runs exactly as far from the old lines.',
};
