import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { ROOT } from './lib/paths';

/**
 * Renders resources/icons/icon.svg to the PNG sizes electron-builder and Linux desktops use
 * (`npx tsx scripts/render-icons.ts`). The SVG is the source; the PNGs are committed.
 */
const SIZES = [16, 32, 48, 64, 128, 256, 512, 1024];
const dir = path.join(ROOT, 'resources', 'icons');
const svg = fs.readFileSync(path.join(dir, 'icon.svg'), 'utf8');

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  for (const size of SIZES) {
    await page.setViewportSize({ width: size, height: size });
    const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<html><body style="margin:0;background:transparent">${sized}</body></html>`);
    const file = size === 1024 ? 'icon.png' : `${size}x${size}.png`;
    await page.locator('svg').screenshot({ path: path.join(dir, file), omitBackground: true });
  }
} finally {
  await browser.close();
}
console.log(`Icons written to ${dir}`);
