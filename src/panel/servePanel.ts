import { stderrLogger } from '../core/ports/logger.ts';
import type { MemoryCore } from '../core/memoryCore.ts';
import { createPanelRoutes, type PanelRoutes } from './httpPanelRoutes.ts';
import { defaultAssetCandidates, locatePanelAssets } from './panelAssets.ts';
import { PanelController } from './panelController.ts';

export interface ServePanelOptions {
  token: string;
  /** The user whose memories the page shows. */
  userId: string;
  /** The store the page reads, as `describeBackend` says it. */
  storeDescription?: string;
  /** process.argv[1]: the bundled CLI finds dist/webview next to itself. */
  entryFile?: string;
}

/** Wires the panel for `fml serve --http`: one controller, its HTTP routes, and the user it shows. */
export function startPanelOverHttp(
  core: MemoryCore,
  options: ServePanelOptions,
): { routes: PanelRoutes; controller: PanelController; userId: string } {
  const userId = options.userId;
  const storeDescription = options.storeDescription ?? '';
  const controller = new PanelController({
    core: core,
    userId: () => userId,
    // Outside an editor there is no current session; the controller falls back to the latest one.
    sessionId: () => undefined,
    ...(options.storeDescription === undefined ? {} : { storeDescription: () => storeDescription }),
    host: 'browser',
    log: (message) => stderrLogger.info(message),
  });
  const routes = createPanelRoutes({
    controller,
    token: options.token,
    assetsDir: locatePanelAssets(defaultAssetCandidates(options.entryFile, process.cwd())),
  });
  return { routes, controller, userId };
}
