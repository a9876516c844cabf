import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does to one request. */
export type Fault = 'pass' | 'drop' | 'delay' | 'reset-after-commit' | 'server-error' | 'rate-limit';

export interface FaultProxy {
  origin: string;
  /** How many requests met each fault. */
  counts: Record<Fault, number>;
  close(): Promise<void>;
}

/**
 * An HTTP proxy between the desk and the server that injects faults into writes (POST/PATCH) at random:
 * drops the connection before forwarding, delays, forwards and then resets the connection instead of answering
 * (the server committed, the desk never hears it), answers 503 or 429 (`Retry-After: 0`) without forwarding.
 * GETs always pass. `random` makes runs reproducible.
 */
export async function startFaultProxy(
  target: string,
  options: { random: () => number; faultRate?: number },
): Promise<FaultProxy> {
  const counts: Record<Fault, number> = {
    pass: 0,
    drop: 0,
    delay: 0,
    'reset-after-commit': 0,
    'server-error': 0,
    'rate-limit': 0,
  };
  const faults: Fault[] = ['drop', 'delay', 'reset-after-commit', 'server-error', 'rate-limit'];
  const rate = options.faultRate ?? 0.5;
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });

  function forward(
    req: http.IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const outgoing = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
          agent,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 502,
              headers: response.headers,
              body: Buffer.concat(chunks),
            }),
          );
          response.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const isWrite = req.method === 'POST' || req.method === 'PATCH';
      const fault: Fault =
        isWrite && options.random() < rate
          ? (faults[Math.floor(options.random() * faults.length)] ?? 'pass')
          : 'pass';
      counts[fault] += 1;
      try {
        if (fault === 'drop') {
          req.socket.destroy();
          return;
        }
        if (fault === 'server-error') {
          res.writeHead(503, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              error: 'Injected outage',
              code: 'internal_error',
              request_id: '00000000-0000-4000-8000-000000000000',
            }),
          );
          return;
        }
        if (fault === 'rate-limit') {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
          res.end(
            JSON.stringify({
              error: 'Injected limit',
              code: 'rate_limited',
              request_id: '00000000-0000-4000-8000-000000000000',
            }),
          );
          return;
        }
        if (fault === 'delay') await new Promise((resolve) => setTimeout(resolve, 5 + options.random() * 30));
        const answer = await forward(req, body);
        if (fault === 'reset-after-commit') {
          req.socket.destroy();
          return;
        }
        const headers = { ...answer.headers };
        delete headers['transfer-encoding'];
        delete headers.connection;
        delete headers['keep-alive'];
        res.writeHead(answer.status, headers);
        res.end(answer.body);
      } catch {
        req.socket.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
