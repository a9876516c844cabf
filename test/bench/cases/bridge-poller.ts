import http from 'node:http';

/**
 * Child process of the sync-stall and restore-stall cases, what a window is to the core: calls the desk bridge
 * every 16 ms from its own event loop (so neither the desk nor the bench's server can delay the calls themselves)
 * until stdin closes, then prints as JSON when it began (ms since the epoch) and every call's start (ms since it
 * began) and duration.
 * argv[2]: JSON { port, secret }.
 */
const { port, secret } = JSON.parse(process.argv[2] ?? '{}') as { port: number; secret: string };
const POLL_MS = 16;

function callStatus(): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/desk/call/status.get',
        headers: { host: `127.0.0.1:${port}`, 'x-desk-token': secret, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
      },
    );
    req.on('error', reject);
    req.end('null');
  });
}

let stopped = false;
process.stdin.on('end', () => {
  stopped = true;
});
process.stdin.resume();
const began = performance.now();
const calls: Array<[number, number]> = [];
while (!stopped) {
  const started = performance.now();
  await callStatus().catch(() => undefined);
  const ms = performance.now() - started;
  calls.push([Math.round(started - began), Math.round(ms * 10) / 10]);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, POLL_MS - ms)));
}
process.stdout.write(`${JSON.stringify({ began: performance.timeOrigin + began, calls })}\n`);
