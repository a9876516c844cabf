import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { expect } from './desk-fixture';

/** WCAG 2.2 AA as axe-core checks it (issue #30): these tags, and only serious or critical findings fail. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const FAILING = new Set(['serious', 'critical']);
const SCHEMES = ['light', 'dark'] as const;

interface Finding {
  screen: string;
  scheme: (typeof SCHEMES)[number];
  rule: string;
  impact: string;
  target: string;
  summary: string;
  html: string;
}

/**
 * Waits until nothing is moving (a drawer sliding in, a colour fading), so axe sees the end state: no finite CSS
 * transition or animation runs, and no open dialog is still fading in (a dialog's transition starts a frame after it
 * mounts, from a timer that a loaded machine runs late, so for a moment it is there, see-through, with nothing
 * running). Endless animations (a loader, an animated progress bar) never end and are left running. Two quiet
 * readings in a row, a few frames apart, count as settled.
 */
export async function settle(page: Page): Promise<void> {
  // Polled with page.evaluate: waitForFunction evaluates its predicate in the page, which the app's CSP forbids.
  const moving = `(() => {
    const running = document.getAnimations().filter((each) => each.playState === 'running'
      && each.effect?.getTiming().iterations !== Infinity).length;
    const fadingDialogs = [...document.querySelectorAll('[role="dialog"], [role="alertdialog"]')].filter((dialog) => {
      for (let element = dialog; element; element = element.parentElement) {
        if (Number(getComputedStyle(element).opacity) < 1) return true;
      }
      return false;
    }).length;
    return running + fadingDialogs;
  })()`;
  const deadline = Date.now() + 10_000;
  for (let quiet = 0; quiet < 2; ) {
    if (Date.now() > deadline) throw new Error('Transitions still running after 10 s');
    quiet = (await page.evaluate<number>(moving)) > 0 ? 0 : quiet + 1;
    await page.waitForTimeout(50);
  }
}

/** Runs axe over the page as it is now, in the light and the dark scheme, and collects what fails. */
async function audit(page: Page, screen: string, findings: Finding[], counts: Map<string, number[]>) {
  const perScheme: number[] = [];
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await settle(page);
    // Legacy mode runs axe in the page itself; the default opens a blank page for each run to merge the frames'
    // results in, about 0.4 s of every audit here, and the desk has no frames of another origin to merge.
    const results = await new AxeBuilder({ page }).withTags(TAGS).setLegacyMode().analyze();
    let count = 0;
    for (const violation of results.violations) {
      if (!FAILING.has(violation.impact ?? '')) continue;
      for (const node of violation.nodes) {
        count += 1;
        findings.push({
          screen,
          scheme,
          rule: violation.id,
          impact: violation.impact ?? '',
          target: node.target.join(' '),
          summary: node.failureSummary?.split('\n').slice(0, 2).join(' ') ?? violation.help,
          html: node.html.slice(0, 160),
        });
      }
    }
    perScheme.push(count);
  }
  counts.set(screen, perScheme);
  console.log(`axe ${screen}: light ${perScheme[0]}, dark ${perScheme[1]}`);
  await page.emulateMedia({ colorScheme: 'light' });
}

export type Check = (screen: string) => Promise<void>;

/** Runs `steps`, each `check` auditing the page in both schemes; then reports the counts and fails on any finding. */
export async function audited(
  page: Page,
  testInfo: TestInfo,
  steps: (check: Check) => Promise<void>,
): Promise<void> {
  page.setDefaultTimeout(15_000);
  const findings: Finding[] = [];
  const counts = new Map<string, number[]>();
  try {
    await steps((screen) => audit(page, screen, findings, counts));
  } finally {
    await report(findings, counts, testInfo);
  }
  expect(findings.map((f) => `[${f.scheme}] ${f.screen}: ${f.rule} ${f.target}`)).toEqual([]);
}

/** A table of the counts per screen and scheme, then every finding: rule, impact, target, summary. */
async function report(
  findings: Finding[],
  counts: Map<string, number[]>,
  testInfo: TestInfo,
): Promise<string> {
  const table = [...counts].map(([screen, [light, dark]]) => `${screen.padEnd(48)} ${light}\t${dark}`);
  const sum = (scheme: number) =>
    [...counts.values()].reduce((total, each) => total + (each[scheme] ?? 0), 0);
  const report = [
    `${'Screen / state'.padEnd(48)} light\tdark`,
    ...table,
    `${'Total'.padEnd(48)} ${sum(0)}\t${sum(1)}`,
    '',
    ...findings.map(
      (f) => `[${f.scheme}] ${f.screen}: ${f.rule} (${f.impact}) ${f.target} — ${f.summary} — ${f.html}`,
    ),
  ].join('\n');
  await testInfo.attach('axe-report', { body: report, contentType: 'text/plain' });
  console.log(report);
  return report;
}
