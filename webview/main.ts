import { PanelApp } from './panelApp.ts';
import { PanelClient } from './panelClient.ts';
import { createHttpHost } from './host/httpHost.ts';
import { createVsCodeHost, isVsCodeWebview } from './host/vscodeHost.ts';

/** Entry of the panel bundle: pick the host transport, then hand over to the app. */
const root = document.getElementById('app');
if (!root) throw new Error('The panel page has no #app element.');
const connection = { listener: (_connected: boolean): void => undefined };
const host = isVsCodeWebview() ? createVsCodeHost() : createHttpHost((connected) => connection.listener(connected));
const app = new PanelApp(root, new PanelClient(host), host);
connection.listener = (connected) => app.setConnected(connected);
void app.start();
