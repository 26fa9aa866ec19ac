// What surfaces show of a memory's code anchors; pure, so the webview uses it through the panel contract.
export { anchorSummary, type AnchorSummary } from '../anchors/anchorSummary.ts';
