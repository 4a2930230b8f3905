/**
 * axe-core run inside a page, against WCAG 2.0, 2.1 and 2.2 A and AA, axe's best practices, and
 * WCAG's AAA contrast (1.4.6: 7:1, 4.5:1 for large text), in every theme: the standard colours
 * reach it too (docs/product/accessibility.md). axe's AAA rule passes what is under 4.5:1 (3:1
 * when large), which the AA rule reports, and text whose background it cannot tell (a gradient,
 * a picture): test/accessibility.test.ts measures the text on the site's gradients from its pixels.
 * The script is evaluated through the DevTools protocol, which the page's CSP does not govern
 * (a <script> tag added to the page would be refused, as it should be).
 */
import axe from 'axe-core';
import type { Page } from 'playwright-core';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] as const;

/** The rule of AAA contrast (wcag2aaa), enabled by name beside the tags' rules, which stay as they were. */
const ENHANCED_CONTRAST = 'color-contrast-enhanced';

/** The page's violations, one line each: rule, impact, and the elements (at most five) with axe's reason. */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(
    async ({ tags, extra }) => {
      const results = await (window as unknown as { axe: typeof axe }).axe.run(document, {
        runOnly: { type: 'tag', values: [...tags] },
        rules: { [extra]: { enabled: true } },
        resultTypes: ['violations'],
      });
      return results.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`),
      }));
    },
    { tags: AXE_TAGS, extra: ENHANCED_CONTRAST },
  );
  return violations.map((v) => `${v.id} (${v.impact ?? 'no impact'}, ${v.nodes.length}): ${v.nodes.slice(0, 5).join(' | ')}`);
}
