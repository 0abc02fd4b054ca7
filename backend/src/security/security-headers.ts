import type { onRequestHookHandler } from 'fastify';
import helmet from 'helmet';
import { isApiPath } from '../common/api-path.js';

/**
 * What the app's pages may load: its own scripts, styles and API; images it draws (QR codes as
 * data: URLs, photos previewed as blob: URLs); simulation videos and the external simulation viewer
 * from the https links a designer saves; and nothing may frame it. No inline script, no eval.
 */
export const APP_CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'", 'https:'],
  'frame-src': ['https:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
  'font-src': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
};

/** API answers are data, never a page: should a browser render one, it may load and run nothing. */
const API_CONTENT_SECURITY_POLICY = { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] };

/** The camera for the QR scanner on our own pages; the other powerful features the app does not use. */
export const PERMISSIONS_POLICY =
  'camera=(self), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), bluetooth=(), midi=(), display-capture=()';

/** A year; without includeSubDomains, which would bind every other site of the lab's domain. */
const HSTS = 'max-age=31536000';

/**
 * Headers of every answer: nosniff, a Referrer-Policy, a Permissions-Policy, a Content-Security-Policy
 * (the app's on pages, a deny-all one on the API), and HSTS when the request came over TLS (directly
 * or through a proxy named in TRUST_PROXY) or SECURE_COOKIES says the site is served over TLS.
 */
export function securityHeaders(options: {
  apiPrefix: string;
  secureCookies: boolean;
}): onRequestHookHandler {
  const common = helmet({
    contentSecurityPolicy: false,
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    // The app loads nothing cross-origin that would need to opt in.
    crossOriginEmbedderPolicy: false,
  });
  const appPolicy = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: APP_CONTENT_SECURITY_POLICY,
  });
  const apiPolicy = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: API_CONTENT_SECURITY_POLICY,
  });
  // helmet writes on the raw answer, so its headers also reach answers streamed from it (SSE).
  return (request, reply, done) => {
    const response = reply.raw;
    response.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
    if (request.protocol === 'https' || options.secureCookies)
      response.setHeader('Strict-Transport-Security', HSTS);
    const policy = isApiPath(request.url, options.apiPrefix) ? apiPolicy : appPolicy;
    common(request.raw, response, () => policy(request.raw, response, () => done()));
  };
}
