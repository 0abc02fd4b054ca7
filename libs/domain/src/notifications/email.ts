import { PRODUCT_NAME } from './policy.js';

/** The URL fragment that opens a case in the app: `#case=CA-2025-123` (emails link to it). */
export const CASE_FRAGMENT_PREFIX = '#case=';

/** The app's address of a case, from the public URL of the app (PUBLIC_URL). */
export function caseLink(publicUrl: string, caseId: string): string {
  const base = publicUrl.replace(/#.*$/, '');
  return `${base}${CASE_FRAGMENT_PREFIX}${encodeURIComponent(caseId)}`;
}

/** The case id a URL fragment names, or null. */
export function caseIdFromFragment(hash: string): string | null {
  if (!hash.startsWith(CASE_FRAGMENT_PREFIX)) return null;
  try {
    const id = decodeURIComponent(hash.slice(CASE_FRAGMENT_PREFIX.length)).trim();
    return id || null;
  } catch {
    return null;
  }
}

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

export const EMAIL_TEXTS = {
  subject: (title: string, caseId: string | null) =>
    caseId
      ? `${PRODUCT_NAME}: ${title} (${caseId})`
      : // A title that names the product already (a new sign-in) is the subject as it is.
        title.includes(PRODUCT_NAME)
        ? title
        : `${PRODUCT_NAME}: ${title}`,
  caseLine: (caseId: string) => `Case: ${caseId}`,
  open: 'Open the case',
  openApp: 'Open AlignerFlow',
  footer: 'You receive this because email notifications are on in your AlignerFlow settings.',
} as const;

/**
 * The email of a notification: plain text and simple HTML with the same words. The body must
 * already name the patient by initials only (alertsFor with 'initials').
 */
export function notificationEmail(message: {
  title: string;
  body: string;
  caseId: string | null;
  url: string;
}): EmailContent {
  const { title, body, caseId, url } = message;
  const link = caseId ? EMAIL_TEXTS.open : EMAIL_TEXTS.openApp;
  const text = [
    title,
    '',
    body,
    ...(caseId ? ['', EMAIL_TEXTS.caseLine(caseId)] : []),
    '',
    `${link}: ${url}`,
    '',
    EMAIL_TEXTS.footer,
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    `<h2 style="margin: 0 0 8px">${escapeHtml(title)}</h2>`,
    `<p>${escapeHtml(body)}</p>`,
    caseId ? `<p><strong>${escapeHtml(EMAIL_TEXTS.caseLine(caseId))}</strong></p>` : '',
    `<p><a href="${escapeHtml(url)}">${escapeHtml(link)}</a></p>`,
    `<p style="color: #666; font-size: 12px">${escapeHtml(EMAIL_TEXTS.footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: EMAIL_TEXTS.subject(title, caseId), text, html };
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
