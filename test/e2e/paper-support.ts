import { execFileSync } from 'node:child_process';
import type { Page, TestInfo } from '@playwright/test';
import { expect } from './desk-fixture';

/** Screenshots of the page in the light and the dark scheme, for people to look at. */
export async function shootBoth(
  page: Page,
  testInfo: TestInfo,
  name: string,
  fullPage = true,
): Promise<void> {
  await page.mouse.move(5, 790);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await page.screenshot({ path: testInfo.outputPath(`${name}-${scheme}.png`), fullPage });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Page count, first page size and text of a PDF file, read with poppler-utils. */
export function readPdf(file: string): { pages: number; size: string; text: string } {
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  return {
    pages: Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]),
    size: /^Page size:\s+(.*)$/m.exec(info)?.[1] ?? '',
    text: execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' '),
  };
}
