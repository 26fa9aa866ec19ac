import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { PanelDeps } from '../../panel/panelDeps.ts';
import { PanelController } from '../../panel/panelController.ts';
import { renderPanelHtml } from '../../panel/panelHtml.ts';
import { connectWebview } from '../../panel/webviewBridge.ts';
import { PANEL_VIEW_ID } from '../panelIds.ts';

export type MemoryPanelDeps = Pick<PanelDeps, 'core' | 'userId' | 'userLabel' | 'sessionContinuity' | 'sessionId' | 'log'>;

/**
 * Registers the memory panel webview view. This file is only VS Code glue: the HTML shell, the
 * resource roots, and an adapter from vscode.WebviewView to the shared PanelController.
 */
export function registerMemoryPanel(context: vscode.ExtensionContext, deps: MemoryPanelDeps): vscode.Disposable {
  const controller = new PanelController({
    ...deps,
    host: 'vscode',
    selection: () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.selection.isEmpty) return undefined;
      return editor.document.getText(editor.selection);
    },
  });
  const connections = new Set<vscode.Disposable>();
  const provider: vscode.WebviewViewProvider = {
    resolveWebviewView(view) {
      const assets = vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview');
      // Only the built panel is loadable; the codicon font is copied into dist/webview at build time.
      view.webview.options = { enableScripts: true, localResourceRoots: [assets] };
      const asset = (path: string): string => view.webview.asWebviewUri(vscode.Uri.joinPath(assets, path)).toString();
      view.webview.html = renderPanelHtml({
        nonce: randomBytes(16).toString('base64'),
        cspSource: view.webview.cspSource,
        connectSource: "'none'",
        assets: { script: asset('main.js'), style: asset('panel.css'), codicons: asset('codicons/codicon.css') },
      });
      const connection = connectWebview(
        {
          get visible() {
            return view.visible;
          },
          postMessage: (message) => view.webview.postMessage(message),
          onDidReceiveMessage: (listener) => view.webview.onDidReceiveMessage(listener),
          onDidChangeVisibility: (listener) => view.onDidChangeVisibility(listener),
          onDidDispose: (listener) => view.onDidDispose(listener),
        },
        controller,
        deps.log,
      );
      connections.add(connection);
      view.onDidDispose(() => connections.delete(connection));
    },
  };
  const registration = vscode.window.registerWebviewViewProvider(PANEL_VIEW_ID, provider);
  return new vscode.Disposable(() => {
    registration.dispose();
    for (const connection of connections) connection.dispose();
    connections.clear();
    controller.dispose();
  });
}
