/** Must equal `contributes.mcpServerDefinitionProviders[0].id`, or registration throws. */
export const MCP_PROVIDER_ID = 'fml.memory';
/** Part of the editor's cached server id (`<extension-id>/<label>`): keep it stable across releases. */
export const MCP_PROVIDER_LABEL = 'Firebolt Memory';
