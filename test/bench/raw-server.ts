import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The baseline: plain node:http answering every request with a precomputed copy of an API response (same
 * body bytes, same header names and values), so the comparison isolates what the API computes per request.
 */
export async function startRawServer(
  body: Buffer,
  headers: Array<[string, string]>,
): Promise<{ origin: string; close(): Promise<void> }> {
  const flat = headers.flat();
  const server = http.createServer({ keepAliveTimeout: 5000 }, (_req, res) => {
    res.writeHead(200, flat);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
