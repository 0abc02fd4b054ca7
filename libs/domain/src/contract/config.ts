/** `GET /config`, beyond api.md: read by the app before anyone signs in, so no session needed. */

/** `GET /config`: what the app knows of this deployment before anyone signs in. */
export interface ClientConfig {
  demo: boolean;
  basePath: string;
  productName: string;
}
