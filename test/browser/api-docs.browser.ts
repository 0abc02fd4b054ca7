/**
 * GET /api/docs under its own Content-Security-Policy: swagger-ui loads from this server, reads
 * /api/openapi.json and lists the operations, and the browser reports no violation.
 */
import type { Page } from 'playwright-core';
import { useBrowserApp } from './support/browser-app';

const web = useBrowserApp();

async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      void report(
        `${event.violatedDirective} blocked ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

it('shows the API operations with nothing loaded from elsewhere and no CSP violation', async () => {
  const { context, page } = await web.sessions.open();
  try {
    const violations = await watchViolations(page);
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(web.lab.baseUrl) && !request.url().startsWith('data:'))
        outside.push(request.url());
    });
    await page.goto(`${web.lab.apiUrl}/docs`);
    await page.getByText('AlignerFlow API').first().waitFor();
    // The operations of the document, fetched from /api/openapi.json, render.
    await page.getByText('/api/cases/{id}/notes').first().waitFor();
    // Whatever the rendered page goes on to load has been loaded (or blocked).
    await page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
    expect(outside).toEqual([]);
  } finally {
    await context.close();
  }
});
