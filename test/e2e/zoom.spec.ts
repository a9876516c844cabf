import type { Page } from '@playwright/test';
import { audited } from './axe-audit';
import { expect, test } from './desk-fixture';
import { shoot } from './helpers';

/**
 * Reflow (issue #30, item 3; WCAG 1.4.10): at 1280×720, at 200 % zoom of it (640×360 CSS pixels at device scale 2,
 * what a magnifier user on such a laptop gets), and in a phone-sized window (400 px wide), no main screen scrolls
 * sideways: neither the page nor the main region. Wide data tables may scroll inside their own box (1.4.10 allows
 * it); the page around them may not, and no table may be cut off with its last columns out of reach. A table that
 * scrolls says so in a line over it, and its box takes the keyboard's focus.
 */
const SCREENS = [
  'overview',
  'pets',
  'intake',
  'people',
  'applications',
  'fees',
  'contracts',
  'shelter',
  'keys',
  'backup',
  'sync',
  'settings',
];

/** Screens photographed in light and dark, to be looked at. */
const SHOT = new Set(['overview', 'pets', 'intake']);

/**
 * How far the page and the main region are wider than what they show (0 and 0: no horizontal scroll); the button
 * labels and the badges cut short (a label that does not fit loses its end instead of scrolling); and the
 * tables wider than a box around them that does not scroll sideways (their last columns out of reach).
 */
async function overflow(page: Page): Promise<{
  page: number;
  main: number;
  header: number;
  clipped: string[];
  cutTables: string[];
  unsaidTables: string[];
}> {
  return page.evaluate(`(() => {
    const root = document.scrollingElement;
    const main = document.getElementById('main-content');
    const header = document.querySelector('.mantine-AppShell-header');
    const cut = (labels) => [...labels]
      .filter((label) => label.scrollWidth > label.clientWidth + 1)
      .map((label) => label.textContent);
    const clipped = [...cut(main.querySelectorAll('.mantine-Button-label, .mantine-Badge-label')),
      ...cut(header.querySelectorAll('.mantine-Badge-label'))];
    const outOfReach = (table) => {
      // The cells' edge: a table laid out as a grid (the pets) keeps its own box while its columns overflow it.
      const right = Math.max(...[...table.querySelectorAll('th, td')].map((cell) => cell.getBoundingClientRect().right));
      for (let box = table.parentElement; box && box !== main.parentElement; box = box.parentElement) {
        const overflowX = getComputedStyle(box).overflowX;
        // Scrolled sideways, or a chart's table for screen readers, in a visually hidden 1 px box.
        if (overflowX === 'auto' || overflowX === 'scroll' || box.getBoundingClientRect().width <= 1) return false;
        if (right > box.getBoundingClientRect().right + 1) return true;
      }
      return false;
    };
    const cutTables = [...main.querySelectorAll('table')]
      .filter(outOfReach)
      .map((table) => table.getAttribute('aria-label'));
    // Scrolled sideways with columns out of sight, yet no line over it says so, or the keyboard cannot reach it.
    const unsaid = (table) => {
      for (let box = table.parentElement; box && box !== main; box = box.parentElement) {
        const overflowX = getComputedStyle(box).overflowX;
        if (overflowX !== 'auto' && overflowX !== 'scroll') continue;
        if (box.scrollWidth <= box.clientWidth + 1) return false;
        const hint = document.getElementById(box.getAttribute('aria-describedby') ?? '');
        return box.tabIndex !== 0 || !hint || hint.getBoundingClientRect().height === 0;
      }
      return false;
    };
    const unsaidTables = [...main.querySelectorAll('table')]
      .filter(unsaid)
      .map((table) => table.getAttribute('aria-label'));
    return { page: root.scrollWidth - root.clientWidth, main: main.scrollWidth - main.clientWidth,
      header: header.scrollWidth - header.clientWidth, clipped, cutTables, unsaidTables };
  })()`);
}

for (const [label, viewport, deviceScaleFactor] of [
  ['1280×720', { width: 1280, height: 720 }, 1],
  ['200 % zoom of 1280×720', { width: 640, height: 360 }, 2],
  ['a phone-sized window, 400×800', { width: 400, height: 800 }, 1],
] as const) {
  test.describe(label, () => {
    test.use({ viewport, deviceScaleFactor });

    test(`${label}: no main screen scrolls sideways, the page nor its main region; nor does the pet drawer`, async ({
      page,
      demoDesk: desk,
    }, testInfo) => {
      test.setTimeout(180_000);
      const wide: string[] = [];
      for (const screen of SCREENS) {
        await page.goto(`${desk.url}#/${screen}`);
        await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible({ timeout: 30_000 });
        await page.waitForLoadState('networkidle');
        // A backup, so that the table of backups is there to measure.
        if (screen === 'backup') {
          await page.getByRole('button', { name: 'Back up now' }).click();
          await expect(page.getByRole('table', { name: 'Backups' })).toBeVisible();
        }
        const extra = await overflow(page);
        if (extra.page > 0 || extra.main > 0)
          wide.push(`${screen}: page ${extra.page} px, main ${extra.main} px`);
        if (extra.header > 0) wide.push(`${screen}: header ${extra.header} px`);
        if (extra.clipped.length > 0) wide.push(`${screen}: cut short: ${extra.clipped.join(', ')}`);
        if (extra.cutTables.length > 0) wide.push(`${screen}: out of reach: ${extra.cutTables.join(', ')}`);
        if (extra.unsaidTables.length > 0)
          wide.push(`${screen}: scrolls sideways unsaid: ${extra.unsaidTables.join(', ')}`);
        if (SHOT.has(screen)) await shoot(page, testInfo, `${viewport.width}-${screen}`, false);
      }
      // The decided applications too: an approved card's "Applicant: Active" keeps its whole width.
      await page.goto(`${desk.url}#/applications`);
      await page.getByText(/^Approved \(\d+\)$/).click();
      await expect(page.getByRole('button', { name: /^Applicant: / }).first()).toBeVisible();
      const decided = await overflow(page);
      if (decided.clipped.length > 0)
        wide.push(`approved applications: cut short: ${decided.clipped.join(', ')}`);
      // The search stays in the header at any width (an icon button below the small breakpoint).
      await expect(page.getByRole('banner').getByRole('button', { name: /^Search/ })).toBeVisible();
      // Where the demo badge's second word is hidden (the phone-sized window), "Demo" stays in sight beside the sparkle.
      const demoWord = (await page.evaluate(`(() => {
        const badge = document.querySelector('a[aria-label="Demo shelter"]');
        return badge.querySelector('.mantine-Badge-label').getBoundingClientRect().width;
      })()`)) as number;
      if (demoWord < 20) wide.push(`demo badge: its word is ${demoWord} px wide`);
      // A pet's drawer: its body wraps to the window too.
      await page.goto(`${desk.url}#/pets`);
      await page.getByRole('table', { name: 'Pets' }).getByRole('row').nth(1).press('Enter');
      const drawer = page.getByRole('dialog', { name: 'Pet details' });
      await expect(drawer.getByRole('table', { name: 'Pet fields' })).toBeVisible();
      const body = await drawer
        .locator('.mantine-Drawer-body')
        .evaluate(
          (element: { scrollWidth: number; clientWidth: number }) =>
            element.scrollWidth - element.clientWidth,
        );
      if (body > 0) wide.push(`pet drawer: ${body} px`);
      await shoot(page, testInfo, `${viewport.width}-pet-drawer`, false);
      expect(wide).toEqual([]);
    });
  });
}

test.describe('200 % zoom, axe', () => {
  test.use({ viewport: { width: 640, height: 360 }, deviceScaleFactor: 2 });

  test('at 200 % zoom the header, the navigation opened from its burger and a screen pass axe in light and dark', async ({
    page,
    demoDesk: desk,
  }, testInfo) => {
    test.setTimeout(120_000);
    await audited(page, testInfo, async (check) => {
      await page.goto(`${desk.url}#/overview`);
      await expect(page.getByRole('heading', { level: 2, name: 'Overview' })).toBeVisible({
        timeout: 30_000,
      });
      await check('Overview at 200 %');
      const burger = page.getByRole('banner').getByRole('button', { name: /navigation/i });
      await expect(burger).toHaveAttribute('aria-expanded', 'false');
      await burger.click();
      await expect(burger).toHaveAttribute('aria-expanded', 'true');
      const pets = page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Pets' });
      await expect(pets).toBeVisible();
      await check('Navigation open at 200 %');
      // Escape from the list closes it and gives the focus back to its button.
      await pets.focus();
      await page.keyboard.press('Escape');
      await expect(burger).toBeFocused();
      await expect(burger).toHaveAttribute('aria-expanded', 'false');
    });
  });
});
