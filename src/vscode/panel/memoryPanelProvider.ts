import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { PanelDeps } from '../../panel/panelDeps.ts';
import { PanelController } from '../../panel/panelController.ts';
import { renderPanelHtml } from '../../panel/panelHtml.ts';
import { connectWebview, type WebviewConnection } from '../../panel/webviewBridge.ts';
import { PANEL_VIEW_ID } from '../panelIds.ts';

export type MemoryPanelDeps = Pick<
  PanelDeps,
  | 'core'
  | 'userId'
  | 'userLabel'
  | 'userSource'
  | 'storeDescription'
  | 'runEditorAction'
  | 'sessionContinuity'
  | 'sessionId'
  | 'log'
>;

/**
 * Registers the memory panel webview view. This file is only VS Code glue: the HTML shell, the
 * resource roots, and an adapter from vscode.WebviewView to the shared PanelController.
 */
export interface MemoryPanel extends vscode.Disposable {
  /** Keyboard focus on the list of every open panel view; a view still being created gets it once connected. */
  focusList(): void;
}

export function registerMemoryPanel(context: vscode.ExtensionContext, deps: MemoryPanelDeps): MemoryPanel {
  const controller = new PanelController({
    ...deps,
    host: 'vscode',
    selection: () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.selection.isEmpty) return undefined;
      return editor.document.getText(editor.selection);
    },
  });
  const connections = new Set<WebviewConnection>();
  // "Show Memory Panel" before the view existed: the focus request waits for its connection.
  let focusPending = false;
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
      if (focusPending) {
        focusPending = false;
        connection.focusList();
      }
    },
  };
  const registration = vscode.window.registerWebviewViewProvider(PANEL_VIEW_ID, provider);
  return {
    focusList: () => {
      if (connections.size === 0) focusPending = true;
      for (const connection of connections) connection.focusList();
    },
    dispose: () => {
      registration.dispose();
      for (const connection of connections) connection.dispose();
      connections.clear();
      controller.dispose();
    },
  };
}
