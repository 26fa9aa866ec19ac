// The modules whose promises mutation testing guards (issue 21): what is mutated, and which
// test files are allowed to kill those mutants. Kept narrow on purpose: each module's test files
// are the fast ones that exercise it, so a full run stays well under an hour on 2 cores.
export const MUTATION_MODULES = [
  {
    name: 'outbox',
    promise: 'the outbox and its replay',
    mutate: ['src/stores/resilient/outbox.ts', 'src/stores/resilient/remoteApply.ts'],
    tests: ['test/promises/outboxReplay.test.ts', 'test/trust/erasureResilient.test.ts'],
  },
  {
    name: 'hard-delete',
    promise: 'hard delete and erasure',
    mutate: [
      'src/stores/sqlite/memoryTables.ts#deleteMemoryRows',
      'src/stores/sqlite/userDeletion.ts',
      'src/core/longterm/forgetMemories.ts#forget',
      'src/core/longterm/forgetMemories.ts#forgetAll',
    ],
    tests: ['test/promises/hardDelete.test.ts', 'test/core/lifecycle/lifecycle.test.ts'],
  },
  {
    name: 'layers',
    promise: 'layer access and isolation',
    mutate: ['src/core/layers/layerScope.ts', 'src/core/layers/readScopes.ts', 'src/core/domain/layers.ts'],
    tests: ['test/promises/layerAccess.test.ts', 'test/core/layers/*.test.ts'],
  },
  {
    name: 'working-memory',
    promise: 'working-memory budget and eviction',
    mutate: ['src/core/working/eviction.ts'],
    tests: ['test/core/working/*.test.ts'],
  },
  {
    name: 'import-validation',
    promise: 'import validation',
    // The checks of the file's shape, field by field: exportFileReader.ts (validateExport and its
    // helpers, moved out of importMemories.ts). The checks made once the shape is valid (an item of
    // no session, a session over its budget) are planImport's, mutated by the portability module.
    mutate: ['src/core/portability/exportFileReader.ts'],
    tests: ['test/promises/importValidation.test.ts'],
  },
  {
    name: 'ranking',
    promise: 'relevance and recall ranking',
    mutate: ['src/core/retrieval/relevance.ts', 'src/stores/common/topK.ts', 'src/core/retrieval/typeWeights.ts'],
    tests: [
      'test/core/retrieval/relevance.test.ts',
      'test/core/retrieval/relevanceFactors.test.ts',
      'test/stores/common/topK.test.ts',
      'test/core/retrieval/typeWeights.test.ts',
      'test/core/retrieval/hybridRecall.test.ts',
      'test/promises/decayRanking.test.ts',
    ],
  },
  {
    name: 'redaction',
    promise: 'secret redaction',
    // The gate (redact or refuse, PII, every string and key of metadata), the replacement of whole
    // spans, the detector that combines the rules, and where a private key block ends. The rule
    // tables themselves (vendor patterns, credential word lists) are measured by the corpus tests
    // (secretCorpus.test.ts: every credential of the corpus caught, no look-alike flagged); mutating
    // each pattern and word would add several hundred mutants and no promise.
    mutate: [
      'src/core/safety/contentGuard.ts',
      'src/core/safety/replaceSpans.ts',
      'src/core/safety/secretDetector.ts',
      'src/core/safety/privateKeyBlock.ts',
    ],
    tests: [
      'test/core/safety/contentGuard.test.ts',
      'test/core/safety/contentGuardPolicy.test.ts',
      'test/core/safety/replaceSpans.test.ts',
      'test/core/safety/secretDetector.test.ts',
      'test/core/safety/privateKeyBlock.test.ts',
      'test/core/safety/privateKeyBoundaries.test.ts',
      'test/core/safety/findingOrder.test.ts',
      'test/promises/workingMemoryRedaction.test.ts',
      'test/core/safety/secretCorpus.test.ts',
    ],
  },
  {
    name: 'secret-rules',
    promise: 'secret rules: vendor prefixes, contextual and assigned credentials',
    // The rule tables issue 29 found tested by sample: every vendor pattern, the contextual rules
    // (AWS secret near its words, Authorization headers, curl -u, URL passwords) and the judgement of
    // a credential-named setting's value. test/promises/secretKindSamples.test.ts generates one
    // sample per documented kind, so a pattern that stops matching its kind is killed there.
    mutate: [
      'src/core/safety/prefixedTokenRules.ts',
      'src/core/safety/contextualSecrets.ts',
      'src/core/safety/credentialAssignment.ts',
      'src/core/safety/credentialName.ts',
      'src/core/safety/secretValue.ts',
    ],
    // One process (the files take 0.7 s together, each alone about as long): the targeted files
    // first, one sample per documented kind and word, then the rule tests, the corpus last.
    tests: [
      [
        'test/promises/secretKindSamples.test.ts',
        'test/promises/credentialWordLists.test.ts',
        'test/core/safety/prefixedTokenRules.test.ts',
        'test/core/safety/credentialAssignment.test.ts',
        'test/core/safety/contextualSecrets.test.ts',
        'test/core/safety/contextualSecretForms.test.ts',
        'test/core/safety/credentialSettingForms.test.ts',
        'test/core/safety/vendorTokenEdges.test.ts',
        'test/core/safety/settingValueShapes.test.ts',
        'test/core/safety/credentialValueThresholds.test.ts',
        'test/core/safety/credentialNameForms.test.ts',
        'test/core/safety/standInValues.test.ts',
        'test/core/safety/secretDetector.test.ts',
        'test/core/safety/secretCorpus.test.ts',
      ],
    ],
  },
  {
    name: 'tool-authorization',
    promise: 'MCP tools: bound user, project and shared layers',
    // The access policy of the tools and the OpenSpec routes, resolved once per call.
    mutate: ['src/mcp/callerAccess.ts'],
    tests: [
      'test/promises/writeBindings.test.ts',
      'test/promises/openSpecWriteBindings.test.ts',
      'test/trust/projectBinding.test.ts',
      'test/trust/sessionOwnership.test.ts',
      'test/mcp/layerTools.test.ts',
    ],
  },
  {
    name: 'http-guards',
    promise: 'HTTP and panel guards: Host, Origin, token, cookie, content type',
    mutate: [
      'src/http/httpGuards.ts',
      'src/panel/panelSessions.ts',
      'src/panel/httpPanelRoutes.ts#authorised',
      'src/panel/httpPanelRoutes.ts#hasBearer',
      'src/panel/httpPanelRoutes.ts#isJson',
      'src/panel/httpPanelRoutes.ts#isSameOrigin',
      'src/panel/httpPanelRoutes.ts#readCookie',
    ],
    tests: [
      'test/promises/nearMissHeaders.test.ts',
      'test/promises/panelSessionEdges.test.ts',
      'test/security/httpHardening.test.ts',
      'test/trust/panelSession.test.ts',
      'test/panel/httpPanelRoutes.test.ts',
    ],
  },
  {
    name: 'portability',
    promise: 'import and export: all or nothing, paged, no vectors',
    // The paging edges are reached with small pages (exportPages.test.ts); the 6,000-memory export
    // over stdio (pagedExport.test.ts) takes minutes a mutant and proves the same paging.
    mutate: [
      'src/core/portability/exportMemories.ts',
      'src/core/portability/exportPages.ts',
      'src/core/portability/importMemories.ts#planImport',
      'src/core/portability/importMemories.ts#importMemories',
      'src/core/portability/importMemories.ts#writePlan',
    ],
    // Three processes (each file alone spends about 4 s starting up on the loaded machine): the
    // round trip (0.4 s of tests, both directions), then the export pages, then the import files
    // together; a mutant runs only the processes whose tests reach it, in this order.
    tests: [
      'test/core/lifecycle/portability.test.ts',
      'test/promises/exportPages.test.ts',
      [
        'test/promises/importSessions.test.ts',
        'test/promises/importPlanChecks.test.ts',
        'test/trust/atomicImport.test.ts',
        'test/promises/allOrNothing.test.ts',
        'test/promises/importedSecrets.test.ts',
      ],
    ],
  },
  {
    name: 'anchor-locator',
    promise: 'anchors: fresh, moved, changed or gone',
    mutate: [
      'src/core/anchors/codeLocator.ts',
      'src/core/anchors/codeFingerprint.ts',
      'src/core/anchors/anchorChecker.ts#check',
      'src/core/anchors/anchorChecker.ts#checkUncached',
      'src/core/anchors/anchorChecker.ts#atFollowedPath',
      'src/core/anchors/anchorChecker.ts#inOwnFile',
    ],
    // symbolFinder.ts (declaration patterns per language) is left out: ~600 regex mutants, and the
    // locator's promise is where it looks and what it calls moved or changed, not each language's syntax.
    tests: [
      'test/core/anchors/anchorChecker.test.ts',
      'test/core/anchors/anchorUpdates.test.ts',
      'test/core/anchors/anchoredRecall.test.ts',
      'test/mcp/anchorTools.test.ts',
      'test/promises/anchorLocator.test.ts',
    ],
  },
];
