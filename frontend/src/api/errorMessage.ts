/** What to tell the user of a failure: an ApiError's message is the server's text (spec section 8). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
