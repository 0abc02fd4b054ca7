/** Answers of the HTTP defences in front of every endpoint (api.md, Security). */
export const HTTP_SECURITY_TEXTS = {
  notSignedIn: 'Not signed in.',
  crossSite: 'Cross-site request refused.',
  jsonOnly: 'The request body must be JSON (Content-Type: application/json).',
  multipartOnly: 'An upload must be sent as multipart/form-data.',
} as const;
