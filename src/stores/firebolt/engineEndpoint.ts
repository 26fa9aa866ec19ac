import { MemoryError } from '../../core/domain/errors.ts';

/**
 * The engine URL in a `Firebolt-Update-Endpoint` header (Cloud, after `USE ENGINE`). Real Cloud
 * sends a host without a scheme, `host/path?engine=e&account_id=…` (the JDBC driver strips a
 * scheme "although right now server never returns it"); the Node and Python SDKs prepend
 * `https://`. A header without a scheme takes the scheme of the endpoint that answered, which
 * is https on Cloud and whatever a test or proxy URL uses otherwise.
 */
export function endpointFromHeader(header: string, current: URL): URL {
  const value = header.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//iu.test(value) ? value : `${current.protocol}//${value}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported scheme ${url.protocol}`);
    return url;
  } catch (error) {
    throw new MemoryError(
      'PROVIDER_ERROR',
      `Firebolt sent an engine endpoint that is not a URL: "${value.slice(0, 200)}".`,
      { cause: error, operation: 'USE ENGINE' },
    );
  }
}
