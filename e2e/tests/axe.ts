import { AxeBuilder } from '@axe-core/playwright';
import { type BrowserContext, test as base, type Page } from '@playwright/test';

/**
 * Accessibility in every journey (issue 15): the `test` of the e2e specs, which runs axe-core on
 * every page of the browser context after each navigation or route change (once the page has
 * settled) and at the end of the test, and fails the test with every violation found: rule,
 * impact, target and the page's URL. No rule is switched off; see docs/architecture.md
 * "Accessibility" for the few pages that are not ours and so are not checked.
 */

/** Pages that are not the web app's: the backend's Swagger UI (third party, issue 10 keeps it working). */
const NOT_CHECKED = [/^\/api\//];

/**
 * A page settles when its DOM has not changed for this long (ms) and nothing says it is loading (an
 * empty #root, a busy element, a spinner in a status), or after SETTLE_MAX at the latest.
 */
const QUIET = 300;
const SETTLE_MAX = 5_000;

interface Violation {
  rule: string;
  impact: string;
  help: string;
  target: string;
  /** the element's opening, as axe quotes it */
  html: string;
  url: string;
}

/**
 * A failed run because the page moved on or closed meanwhile (also: axe was injected into the
 * document before a navigation and asked to run in the next one): the next state is checked instead.
 */
const GONE =
  /closed|destroyed|detached|navigat|Target page|context was|Execution context|Cannot find context|crashed|Script Timeout|reading 'run(Partial)?'|axe is not defined/i;

/** Waits in the page until it has settled (a loading list has rendered its rows, a toast has appeared). */
function settle(page: Page): Promise<unknown> {
  return page.evaluate(
    ({ quiet, max }) =>
      new Promise<void>((resolve) => {
        // the app not rendered yet (its scripts and catalogue still loading), or a part of it loading
        const loading = () =>
          document.getElementById('root')?.childElementCount === 0 ||
          document.querySelector('[aria-busy="true"], [role="status"] [class*="Loader"]');
        const quietNow = () => {
          if (loading()) timer = setTimeout(quietNow, quiet);
          else finish();
        };
        let timer = setTimeout(quietNow, quiet);
        const limit = setTimeout(finish, max);
        const observer = new MutationObserver(() => {
          clearTimeout(timer);
          timer = setTimeout(quietNow, quiet);
        });
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        function finish() {
          observer.disconnect();
          clearTimeout(timer);
          clearTimeout(limit);
          resolve();
        }
      }),
    { quiet: QUIET, max: SETTLE_MAX },
  );
}

/** One page's checks: queued one after another, the latest navigation's check after the earlier ones. */
class PageWatch {
  private queue: Promise<void> = Promise.resolve();
  private scheduled = false;

  constructor(
    private readonly page: Page,
    private readonly found: Map<string, Violation>,
    private readonly errors: string[],
  ) {
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) this.schedule();
    });
  }

  /** A check of the state the page settles in (several route changes in a row make one check). */
  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.queue = this.queue.then(async () => {
      this.scheduled = false;
      await this.check(false);
    });
  }

  /** Waits for the queued checks, then checks the final state. */
  async finish(): Promise<void> {
    this.queue = this.queue.then(() => this.check(true));
    await this.queue;
  }

  /**
   * Checks the page once it has settled. What it finds is checked again once the page has settled
   * anew, and only what both runs found counts: a state the page was only passing through (a route
   * on its way in, a list between its rows) does not fail the test, what stays does.
   */
  private async check(final: boolean): Promise<void> {
    const first = await this.analyze(final);
    if (!first || first.length === 0) return;
    const second = await this.analyze(final);
    if (!second) return;
    const again = new Set(second.map(keyOf));
    for (const violation of first) {
      const key = keyOf(violation);
      if (again.has(key) && !this.found.has(key)) this.found.set(key, violation);
    }
  }

  /** The violations of the settled page, or null when there was nothing to check. */
  private async analyze(final: boolean): Promise<Violation[] | null> {
    const { page } = this;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (page.isClosed()) return null;
      try {
        await page.waitForLoadState('load');
        await settle(page);
        const url = new URL(page.url());
        if (!/^https?:$/.test(url.protocol) || NOT_CHECKED.some((path) => path.test(url.pathname))) return null;
        // a download or a file opened in the tab (a PDF, an image) is not a page of the app
        if ((await page.evaluate(() => document.contentType)) !== 'text/html') return null;
        // legacy mode: axe.run in the page itself; the default opens a blank page of its own in the
        // context for each run, which the journeys that count or wait for pages would see
        const results = await new AxeBuilder({ page })
          .setLegacyMode()
          .options({ resultTypes: ['violations'] })
          .analyze();
        const where = url.pathname + url.search;
        return results.violations.flatMap((violation) =>
          violation.nodes.map((node) => ({
            rule: violation.id,
            impact: violation.impact ?? '',
            help: node.failureSummary?.replace(/\s+/g, ' ') ?? violation.help,
            target: node.target.map((part) => (Array.isArray(part) ? part.join(' >> ') : part)).join(' > '),
            html: node.html.length > 160 ? `${node.html.slice(0, 160)}…` : node.html,
            url: where,
          })),
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (page.isClosed()) return null;
        if (!GONE.test(message)) {
          this.errors.push(`axe on ${page.url()}: ${message}`);
          return null;
        }
        // the page moved on while it was checked: a later check (or the next attempt) sees where it went
        if (!final) return null;
      }
    }
    return null;
  }
}

const keyOf = (v: Violation) => `${v.rule} ${v.target} ${v.url}`;

/** Every violation, grouped by rule, as the failure message. */
export function report(violations: Iterable<Violation>): string {
  const byRule = new Map<string, Violation[]>();
  for (const v of violations) byRule.set(v.rule, [...(byRule.get(v.rule) ?? []), v]);
  const lines = [`axe found accessibility violations (${[...byRule.keys()].join(', ')}):`];
  for (const [rule, list] of byRule) {
    lines.push(`- ${rule} (${list[0].impact}):`);
    for (const v of list) lines.push(`    ${v.url}  ${v.target}  ${v.html}\n      — ${v.help}`);
  }
  return lines.join('\n');
}

/** Watches every page the context opens (the test's page, popups, pages opened by the test). */
async function watchContext(context: BrowserContext, run: () => Promise<void>): Promise<void> {
  const found = new Map<string, Violation>();
  const errors: string[] = [];
  const watches = new Map<Page, PageWatch>();
  const watch = (page: Page) => {
    if (!watches.has(page)) watches.set(page, new PageWatch(page, found, errors));
  };
  for (const page of context.pages()) watch(page);
  context.on('page', watch);
  await run();
  for (const pageWatch of watches.values()) await pageWatch.finish();
  if (errors.length > 0) throw new Error(`axe could not check a page:\n${errors.join('\n')}`);
  if (found.size > 0) throw new Error(report(found.values()));
}

export const test = base.extend({
  // Mantine's transitions honour reduced motion (web/src/app/providers.tsx): a dialog is checked
  // as the user sees it, not half faded in
  reducedMotion: 'reduce',
  context: async ({ context }, use) => {
    await watchContext(context, () => use(context));
  },
});

export { expect } from '@playwright/test';
