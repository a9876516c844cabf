import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The baseline: plain node:http answering every request with a precomputed body of the same size as the
 * API's response (and a similar set of headers), measured in the same run as the API.
 */
export async function startRawServer(body: Buffer): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer({ keepAliveTimeout: 5000 }, (_req, res) => {
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(body.length),
      'Cache-Control': 'private, max-age=60, stale-while-revalidate=300',
    });
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
