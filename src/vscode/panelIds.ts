/** The activity-bar container and the webview view the panel engineer's provider fills. */
export const PANEL_CONTAINER_ID = 'memory';
export const PANEL_VIEW_ID = 'memory.panel';
/** VS Code generates `<viewId>.focus` for every view. */
export const PANEL_FOCUS_COMMAND = `${PANEL_VIEW_ID}.focus`;
