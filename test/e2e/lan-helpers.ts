// Helpers of the tests with two desks sharing over the LAN on 127.0.0.1.
import net from 'node:net';
import type { Page } from '@playwright/test';
import type { RunningDesk } from './desk-fixture';

/** A port free on 127.0.0.1 now (for a LAN listener that keeps it across a restart). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The pairing code `npm start -- --standalone --share-lan` prints (bounded wait). */
export async function printedCode(desk: RunningDesk): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const match = /^Pairing code \(works once, until [^)]+\): (shelterdesk:\S+)$/m.exec(desk.stdout());
    if (match?.[1]) return match[1];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No pairing code printed within 30 s:\n${desk.stdout()}`);
}

/** The code to type that `npm start -- --standalone --share-lan` prints, address first (bounded wait). */
export async function printedTypedCode(desk: RunningDesk): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const match = /^Or type on the other desk: (\S+ \S+)$/m.exec(desk.stdout());
    if (match?.[1]) return match[1];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No code to type printed within 30 s:\n${desk.stdout()}`);
}

/** The certificate fingerprint `npm start -- --standalone --share-lan` prints (bounded wait). */
export async function printedFingerprint(desk: RunningDesk): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const match = /^Certificate fingerprint: (.+)$/m.exec(desk.stdout());
    if (match?.[1]) return match[1];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No fingerprint printed within 30 s:\n${desk.stdout()}`);
}

/** One call of a desk's bridge from its page, as the UI makes it. */
export async function call<T>(page: Page, method: string, input: unknown): Promise<T> {
  const answer = (await page.evaluate(`(async () => {
    const token = document.querySelector('meta[name="shelter-desk-token"]').content;
    const response = await fetch('/desk/call/${method}', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-desk-token': token },
      ${input === undefined ? '' : `body: ${JSON.stringify(JSON.stringify(input))},`}
    });
    return response.json();
  })()`)) as { ok: boolean; value: T; error?: { message: string } };
  if (!answer.ok) throw new Error(`${method}: ${answer.error?.message}`);
  return answer.value;
}
