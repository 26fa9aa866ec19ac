/** Where the shell finds the built panel files; each host turns them into URLs it can serve. */
export interface PanelAssetUrls {
  script: string;
  style: string;
  codicons: string;
  /** Default colours for a browser; VS Code supplies its own theme variables. */
  browserTheme?: string;
}

export interface PanelHtmlOptions {
  assets: PanelAssetUrls;
  /** Fresh per render; the only script allowed to run is the one carrying it. */
  nonce: string;
  /** CSP source of the assets: the webview's cspSource, or 'self' over HTTP. */
  cspSource: string;
  /** CSP connect-src: 'none' in a webview (it talks through postMessage), 'self' over HTTP. */
  connectSource: string;
}

/**
 * The HTML shell of the panel, the same for both hosts. It carries no data: the page asks for
 * its state once its script runs, and memory content is only ever set as text, never as markup.
 */
export function renderPanelHtml(options: PanelHtmlOptions): string {
  const { assets, nonce, cspSource, connectSource } = options;
  const csp = [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    `style-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `connect-src ${connectSource}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const theme = assets.browserTheme
    ? `\n    <link rel="stylesheet" href="${escapeAttribute(assets.browserTheme)}">`
    : '';
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <title>Memory</title>${theme}
    <link rel="stylesheet" href="${escapeAttribute(assets.codicons)}">
    <link rel="stylesheet" href="${escapeAttribute(assets.style)}">
  </head>
  <body>
    <div id="app" aria-live="polite"><p class="loading">Loading memories…</p></div>
    <script nonce="${escapeAttribute(nonce)}" src="${escapeAttribute(assets.script)}"></script>
  </body>
</html>
`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
